/**
 * The in-memory catalogue: BigInt ids assigned by the server, unique, starting
 * above 2^53 by default so that clients which round ids through a JS number
 * are caught. Seeded with pets of mixed statuses so that page limits and the
 * status filter are observable.
 */
import { Int64 } from './lossless-json.ts';

export const PET_STATUSES = ['available', 'pending', 'sold'] as const;
export type PetStatus = (typeof PET_STATUSES)[number];

export function isPetStatus(v: unknown): v is PetStatus {
  return typeof v === 'string' && (PET_STATUSES as readonly string[]).includes(v);
}

/**
 * A stored animal. Fields are JSON values as accepted (normally a string name,
 * an exact int64 categoryId and a PetStatus; a fault may let other values in).
 * Numbers are kept as `Int64` holding their literal text, so they are echoed exactly.
 */
export interface Pet {
  id: bigint;
  name: unknown;
  categoryId: unknown;
  status?: unknown;
  /** Fault default-status-unlisted: created without a status, given the default one only in what is shown. */
  defaulted?: boolean;
}

export type NewPetRecord = Omit<Pet, 'id'>;

export interface StoreOptions {
  seedPets: number;
  firstId: bigint;
}

const NAMES = ['Rex', 'Mittens', 'Bubbles', 'Shadow', 'Pip', 'Luna', 'Biscuit', 'Nemo', 'Clover', 'Ziggy', 'Hazel', 'Orbit'];
const SEED_STATUSES: readonly PetStatus[] = ['available', 'pending', 'available', 'sold'];
/** A category id above 2^53, given to every tenth seeded pet. */
export const BIG_CATEGORY_ID = '9007199254740995';

export class PetStore {
  private readonly pets = new Map<bigint, Pet>();
  private nextId: bigint;
  /** The first id handed to a created (not seeded) pet. */
  readonly firstCreatedId: bigint;
  /** listPets pages served (fault list-500-every-7th). */
  listed = 0;
  /** A body too large was refused and not read whole (fault next-after-large-body-500): the next request pays for it. */
  bodyLeftUnread = false;

  constructor(o: StoreOptions) {
    this.nextId = o.firstId;
    for (let i = 0; i < o.seedPets; i++) {
      this.create({
        name: `${NAMES[i % NAMES.length]} ${i + 1}`,
        categoryId: new Int64(i % 10 === 9 ? BIG_CATEGORY_ID : String((i % 7) + 1)),
        status: SEED_STATUSES[i % SEED_STATUSES.length],
      });
    }
    this.firstCreatedId = this.nextId;
  }

  /** Store a pet under a fresh id, or under `id` when given (replacing any pet with that id). */
  create(input: NewPetRecord, id?: bigint): Pet {
    let assigned = id;
    if (assigned === undefined) {
      while (this.pets.has(this.nextId)) this.nextId++;
      assigned = this.nextId++;
    }
    const pet: Pet = { id: assigned, ...input };
    this.pets.set(assigned, pet);
    return pet;
  }

  /** The id the next create without one would get (fault create-id-race reads it as a request arrives). */
  peekNextId(): bigint {
    while (this.pets.has(this.nextId)) this.nextId++;
    return this.nextId;
  }

  get(id: bigint): Pet | undefined {
    return this.pets.get(id);
  }

  /** The first `limit` pets in creation order, optionally only those with `status`. */
  list(status?: string, limit = Infinity): Pet[] {
    const out: Pet[] = [];
    for (const p of this.pets.values()) {
      if (out.length >= limit) break;
      if (status === undefined || p.status === status) out.push(p);
    }
    return out;
  }

  get size(): number {
    return this.pets.size;
  }
}
