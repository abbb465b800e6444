/**
 * Faults in how a path's id is read (issue 39): the id parsed past int64 without an error, or a lookup keyed by part
 * of it. Each answers 200 with another animal than the one asked for.
 */
import type { Has } from './faults.ts';
import type { PetStore } from './pet-store.ts';

const LOW_32 = (1n << 32n) - 1n;

/** The id a faulty server looks up for the id sent. */
export function idLookedUp(id: bigint, store: PetStore, has: Has): bigint {
  // Fault petid-uint64-wrap: parsed into 64 bits with overflow ignored (2^64 + 7 is 7).
  if (has('petid-uint64-wrap')) return BigInt.asIntN(64, id);
  // Fault petid-low-32-bits: a cache keyed by the id's low 32 bits (a Java int cast of the long).
  if (has('petid-low-32-bits') && !store.get(id)) return store.list().find((p) => (p.id & LOW_32) === (id & LOW_32))?.id ?? id;
  return id;
}
