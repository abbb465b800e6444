/**
 * What each request of a ceiling is. The limit is the key's whatever the operation (the plan table counts a key's
 * requests), so the ceiling and the recovery interleave the operations — listPets, getPet of a pet the run knows,
 * createPet where writes are allowed — in the pattern list, list, get: steps within one operation and steps across
 * two, so that a limiter counted per route shows (src/core/sections/rate-limit-headers/scope.ts). Where writes are
 * allowed, the first requests also read each status's page once (they count against the limit like any other) and
 * create one pet; the request beyond the limit is a POST of a unique name, with the status whose page was seen
 * shortest, and a POST refused with 429 is read back on that status's page once its Retry-After has passed — at most
 * POSTS_AT_LIMIT POSTs at the limit and one read-back per scenario. Ids are kept as their digits, never a JS number.
 * Pure (bundled for k6).
 */
import { parseJson, rawNumber, type JsonValue } from '../../src/core/json.ts';
import { refusedListed } from '../../src/core/sections/create-pet/refused.ts';
import type { LoadOp, PageFacts } from '../../src/core/sample.ts';

export const STATUSES = ['available', 'pending', 'sold'] as const;
/** The page size of a status's page (the spec's largest): fewer animals on it than this lists every one of that status. */
export const PAGE_LIMIT = 100;
/** POSTs sent at the limit in one scenario, at most (a correct server refuses the first). */
export const POSTS_AT_LIMIT = 2;
/**
 * POSTs at the limit in one scenario, at most, when those before were served: where the headers cannot say which request
 * is beyond the limit (no Remaining, or Remaining counting the day) the POST goes after the limit's successes by count,
 * and a window that turned unseen during the ceiling lets it through — each served one says the limit is still ahead,
 * one at a time, so the next request at the limit is a POST again (never one after a 429).
 */
export const POSTS_AT_LIMIT_SERVED = 8;

/** Why the phase sends: a request of the ceiling's way to the limit, the one beyond it, the probe after Retry-After. */
export type RequestKind = 'body' | 'limit' | 'probe';

/** One request of a scenario: its operation, method, path and query after the base URL, and a createPet's body. */
export interface LoadRequest {
  op: LoadOp;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  /** createPet: the pet's unique name. */
  name?: string;
  /** listPets of one status's page: the status (its animals are counted, refused creates looked for). */
  status?: string;
}

/** Every request of the paced scenarios, and the ceiling's when nothing else is due. */
export const DEFAULT_REQUEST: LoadRequest = { op: 'listPets', method: 'GET', path: '/pets?limit=1' };

const PATTERN: readonly LoadOp[] = ['listPets', 'listPets', 'getPet'];

export interface MixOptions {
  /** Interleave the operations (ceiling, recovery); else every request is DEFAULT_REQUEST. */
  mixed: boolean;
  /** Writes are allowed (the configuration's allowWrites): createPet is sent. Never otherwise. */
  writes: boolean;
  /** With writes, the request beyond the limit is a POST (false: a ceiling leaves it to the recovery after it). */
  postAtLimit: boolean;
  namePrefix: string;
  random: () => number;
}

const pageOf = (status: string): LoadRequest => ({
  op: 'listPets',
  method: 'GET',
  path: `/pets?status=${status}&limit=${PAGE_LIMIT}`,
  status,
});

/** The parsed body of a response, or undefined when it is not JSON. */
function parsed(body: string | undefined): JsonValue | undefined {
  try {
    return body === undefined ? undefined : parseJson(body).value;
  } catch {
    return undefined;
  }
}

/** The exact digits of the id at `pointer` (a Pet's, `/id`), when it is an integer: read from its text, never a JS number. */
function idAt(root: JsonValue | undefined, pointer: string): string | undefined {
  const id = rawNumber(root, pointer);
  return id !== undefined && /^-?\d{1,19}$/.test(id) ? id : undefined;
}

export class OperationMix {
  private sentBody = 0;
  private petId?: string;
  private postsAtLimit = 0;
  /** POSTs at the limit that were served (2xx): the limit was not where the count put it. */
  private servedAtLimit = 0;
  private readonly atLimitNames = new Set<string>();
  /** The status of the POSTs at the limit (chosen at the first). */
  private limitStatus?: string;
  /** Animals on each status's page, as read. */
  private readonly pages = new Map<string, number>();
  /** Names of this scenario's creates answered 429. */
  readonly refused: string[] = [];

  constructor(private readonly o: MixOptions) {}

  next(kind: RequestKind): LoadRequest {
    if (!this.o.mixed) return DEFAULT_REQUEST;
    if (kind === 'probe') return this.refused.length ? pageOf(this.limitStatus as string) : DEFAULT_REQUEST;
    if (kind === 'limit' && this.o.writes && this.o.postAtLimit && this.postsAtLimit < this.postCap()) {
      this.postsAtLimit++;
      const post = this.create((this.limitStatus ??= this.shortestStatus()));
      this.atLimitNames.add(post.name!);
      return post;
    }
    return this.bodyRequest(this.sentBody++);
  }

  /** POSTs at the limit allowed so far: POSTS_AT_LIMIT, and one more for each served (up to POSTS_AT_LIMIT_SERVED). */
  private postCap(): number {
    return Math.min(POSTS_AT_LIMIT_SERVED, POSTS_AT_LIMIT + this.servedAtLimit);
  }

  /** The i-th request on the way to the limit: a first page; with writes, each status's page and one create; then the pattern. */
  private bodyRequest(i: number): LoadRequest {
    if (i === 0) return DEFAULT_REQUEST;
    if (this.o.writes && i <= STATUSES.length) return pageOf(STATUSES[i - 1]);
    if (this.o.writes && i === STATUSES.length + 1) return this.create('available');
    return PATTERN[i % PATTERN.length] === 'getPet' && this.petId !== undefined
      ? { op: 'getPet', method: 'GET', path: `/pets/${this.petId}` }
      : DEFAULT_REQUEST;
  }

  private create(status: string): LoadRequest {
    const token = `${Date.now().toString(36)}${Math.floor(this.o.random() * 2176782336).toString(36)}`;
    const name = `${this.o.namePrefix}load-${token}`;
    return { op: 'createPet', method: 'POST', path: '/pets', body: JSON.stringify({ name, categoryId: 1, status }), name, status };
  }

  /** The status whose page held the fewest animals (a page of it can prove a refused create absent); one not read last. */
  private shortestStatus(): string {
    let best: string | undefined;
    for (const st of STATUSES) if (this.pages.has(st) && (best === undefined || this.pages.get(st)! < this.pages.get(best)!)) best = st;
    return best ?? STATUSES.filter((st) => !this.pages.has(st)).pop() ?? STATUSES[0];
  }

  /** Learn from a response: a pet's id, a status page's size, a create refused with 429; a read-back page's facts. */
  observe(req: LoadRequest, status: number, body: string | undefined): PageFacts | undefined {
    if (!this.o.mixed || status === 0) return undefined;
    if (req.op === 'createPet' && status === 429 && req.name !== undefined) this.refused.push(req.name);
    if (req.op === 'createPet' && status >= 200 && status < 300 && req.name !== undefined && this.atLimitNames.has(req.name))
      this.servedAtLimit++;
    if (status !== 200 && status !== 201) return undefined;
    const root = parsed(body);
    if (req.op === 'createPet') this.petId ??= idAt(root, '/id');
    if (req.op !== 'listPets' || !Array.isArray(root)) return undefined;
    this.petId ??= idAt(root, '/0/id');
    if (req.status === undefined) return undefined;
    this.pages.set(req.status, root.length);
    return { status: req.status, size: root.length, limit: PAGE_LIMIT, listed: refusedListed(root, this.refused) };
  }
}
