/**
 * The catalogue: NewPet validated by hand against the spec's table (lossless-json keeps every
 * number as its digits, so int64 values stay exact), pets kept in memory in insertion order.
 */
import { LosslessNumber } from 'lossless-json';

export const STATUSES = ['available', 'pending', 'sold'];
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** An int64 written as a JSON integer (no fraction, no exponent), as a BigInt; undefined otherwise. */
export function int64(text) {
  if (!/^-?(0|[1-9][0-9]*)$/.test(text)) return undefined;
  const v = BigInt(text);
  return v >= INT64_MIN && v <= INT64_MAX ? v : undefined;
}

/** The problems of a parsed body as a NewPet ([] when it is one). */
export function newPetProblems(body) {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || body instanceof LosslessNumber)
    return ['the body must be a JSON object'];
  const problems = [];
  if (!Object.hasOwn(body, 'name')) problems.push('name is required');
  else if (typeof body.name !== 'string') problems.push('name must be a string');
  if (!Object.hasOwn(body, 'categoryId')) problems.push('categoryId is required');
  else if (!(body.categoryId instanceof LosslessNumber) || int64(body.categoryId.value) === undefined)
    problems.push('categoryId must be an integer (int64)');
  if (Object.hasOwn(body, 'status') && !STATUSES.includes(body.status)) problems.push(`status must be one of ${STATUSES.join(', ')}`);
  return problems;
}

export class PetStore {
  #pets = new Map();
  #lastId = 0n;

  /** Time-ordered ids (milliseconds since the epoch, shifted left 20 bits): unique, increasing, above 2^53. */
  #nextId() {
    const t = BigInt(Date.now()) << 20n;
    this.#lastId = t > this.#lastId ? t : this.#lastId + 1n;
    return this.#lastId;
  }

  add({ name, categoryId, status }) {
    const pet = { id: this.#nextId(), name, categoryId: int64(categoryId.value), ...(status !== undefined && { status }) };
    this.#pets.set(pet.id, pet);
    return pet;
  }

  get(id) {
    return this.#pets.get(id);
  }

  page(limit, status) {
    const out = [];
    for (const pet of this.#pets.values()) {
      if (out.length === limit) break;
      if (status === undefined || pet.status === status) out.push(pet);
    }
    return out;
  }
}
