/**
 * The Animal Store's pets logic shared by the servers built on rate-limit
 * libraries (test/libraries/servers/*): an in-memory store, bearer
 * authentication with one key per plan, and the Error body. Framework-neutral:
 * each operation takes what the framework parsed (the raw body text, the query,
 * the path parameter) and returns an Answer the framework sends. Written apart
 * from reference/ on purpose, so these servers are independent implementations.
 * int64 values stay exact: numbers are kept as their digits (json.ts), never
 * passed through a JS number.
 */
import { Num, parseLossless, type Lossless } from './json.ts';

export type Plan = 'free' | 'pro' | 'business' | 'enterprise';

/** One key per plan (never shown to the suite's reports: the suite redacts the key it is given). */
export const KEYS: Readonly<Record<Plan, string>> = {
  free: 'lib_free_7c1d93e0a54b28f6',
  pro: 'lib_pro_0b8e6f2a17c4d953',
  business: 'lib_business_e2a9c5071f3b684d',
  enterprise: 'lib_enterprise_5f03b7d9ac1e2846',
};

/** Requests per window: the spec's per-minute numbers, and a small custom enterprise plan for the rate-limit scenarios. */
export const LIMITS: Readonly<Record<Plan, number>> = { free: 60, pro: 300, business: 1000, enterprise: 20 };

export interface Answer {
  status: number;
  /** JSON text. */
  body: string;
  headers?: Record<string, string>;
}

const STATUSES = ['available', 'pending', 'sold'];
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
/** getPet is deprecated since 1 January 2026 and removed on 5 December 2030 (RFC 9745, RFC 8594). */
const DEPRECATION = { Deprecation: '@1767225600', Sunset: 'Thu, 05 Dec 2030 00:00:00 GMT', Link: '</v1/pets>; rel="successor-version"' };

export function errorAnswer(status: number, code: string, message: string): Answer {
  return { status, body: JSON.stringify({ code, message, status }) };
}

/** The token of `Authorization: Bearer <token>` (the scheme in any case), or undefined. */
export function bearerToken(authorization: string | undefined): string | undefined {
  const m = /^Bearer +(\S+) *$/i.exec(authorization ?? '');
  return m ? m[1] : undefined;
}

/** The plan of a request's key; undefined when the key is missing or unknown. */
export function planOf(authorization: string | undefined): Plan | undefined {
  const token = bearerToken(authorization);
  return (Object.keys(KEYS) as Plan[]).find((p) => KEYS[p] === token);
}

/** A server's limits per plan: LIMITS, with the enterprise key's own when the test gives one (ServerOptions). */
export const limitsWith = (enterprise: number = LIMITS.enterprise): Readonly<Record<Plan, number>> => ({ ...LIMITS, enterprise });

/** The limit in force for a request: its plan's, or the Free plan's for a request without a known key. */
export const limitFor = (authorization: string | undefined, limits = LIMITS): number => limits[planOf(authorization) ?? 'free'];

/** The rate-limit key of a request: its bearer token, else its address. */
export const clientKey = (authorization: string | undefined, ip: string | undefined): string =>
  bearerToken(authorization) ?? `ip:${ip ?? 'unknown'}`;

export const UNAUTHORIZED = (): Answer => errorAnswer(401, 'unauthorized', 'Missing or invalid API key.');
export const NOT_FOUND = (): Answer => errorAnswer(404, 'not_found', 'The requested resource could not be found.');
export const RATE_LIMITED = (retryAfterS: number): Answer =>
  errorAnswer(429, 'rate_limited', `Rate limit exceeded; retry after ${retryAfterS} s.`);

interface Pet {
  id: bigint;
  name: string;
  categoryId: bigint;
  status?: string;
}

const petJson = (p: Pet): string =>
  `{"id":${p.id},"name":${JSON.stringify(p.name)},"categoryId":${p.categoryId}${p.status ? `,"status":"${p.status}"` : ''}}`;

/** An int64 written as a plain integer (no fraction, exponent or sign +), or undefined. */
function int64(raw: string): bigint | undefined {
  if (!/^-?(0|[1-9][0-9]*)$/.test(raw)) return undefined;
  const v = BigInt(raw);
  return v >= INT64_MIN && v <= INT64_MAX ? v : undefined;
}

/** A NewPet from a parsed body, or the reason it is not one. */
function newPet(v: Lossless): Omit<Pet, 'id'> | string {
  if (v === null || typeof v !== 'object' || Array.isArray(v) || v instanceof Num) return 'the body must be a JSON object';
  const o = v;
  if (typeof o.name !== 'string') return 'name is required and must be a string';
  const cat = o.categoryId;
  const categoryId = cat instanceof Num ? int64(cat.raw) : undefined;
  if (categoryId === undefined) return 'categoryId is required and must be an int64 integer';
  if ('status' in o && (typeof o.status !== 'string' || !STATUSES.includes(o.status)))
    return `status must be one of ${STATUSES.join(', ')}`;
  return { name: o.name, categoryId, ...(typeof o.status === 'string' ? { status: o.status } : {}) };
}

/** The pets of one server, in creation order. */
export class PetStore {
  private readonly pets = new Map<bigint, Pet>();
  private nextId = 1001n;

  list(limitRaw: string | undefined, status: string | undefined): Answer {
    const limit = limitRaw === undefined ? 20 : /^[0-9]{1,3}$/.test(limitRaw) ? Number(limitRaw) : 0;
    if (limit < 1 || limit > 100) return errorAnswer(400, 'invalid_limit', 'limit must be an integer from 1 to 100.');
    if (status !== undefined && !STATUSES.includes(status)) return errorAnswer(400, 'invalid_status', 'Unknown status.');
    const page: Pet[] = [];
    for (const p of this.pets.values()) {
      if (page.length === limit) break;
      if (status === undefined || p.status === status) page.push(p);
    }
    return { status: 200, body: `[${page.map(petJson).join(',')}]` };
  }

  create(bodyText: string): Answer {
    const parsed = parseLossless(bodyText);
    const pet = parsed.ok ? newPet(parsed.value) : 'the body is not valid JSON';
    if (typeof pet === 'string') return errorAnswer(400, 'invalid_body', pet);
    const stored = { id: this.nextId++, ...pet };
    this.pets.set(stored.id, stored);
    return { status: 201, body: petJson(stored) };
  }

  get(petIdRaw: string): Answer {
    const id = int64(petIdRaw);
    if (id === undefined) return errorAnswer(400, 'invalid_pet_id', 'petId must be an int64 integer.');
    const pet = this.pets.get(id);
    const answer = pet ? { status: 200, body: petJson(pet) } : NOT_FOUND();
    return { ...answer, headers: { ...DEPRECATION } };
  }
}
