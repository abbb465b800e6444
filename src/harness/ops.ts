/**
 * Request builders for the three operations and the shared fixtures of a run
 * (pets created once and reused by several specs). Specs use these instead of
 * spelling out paths and headers.
 */
import { canonicalExact, integerDigits, rawNumber, type JsonValue } from '../core/json.ts';
import type { ApiExchange, ApiRequest, Credential, OperationId } from '../http/client.ts';
import type { TestContext } from './context.ts';
import type { Answer } from '../core/sections/create-pet/rules.ts';
import type { MethodAnswer } from '../core/sections/auth/rules.ts';
import type { NotTakenAnswer } from '../core/sections/responses/rules.ts';
import type { HeadGetAnswer } from '../core/sections/responses/head.ts';
import { expectedAfterCreate, petAt, sentPet, type PetText, type SentPet } from '../core/sections/pets.ts';
import { namePrefix } from './names.ts';

export { namePrefix };

export const STATUSES = ['available', 'pending', 'sold'] as const;

export function uniqueName(tag: string): string {
  return `${namePrefix()}${tag}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

export const listPets = (query: Record<string, string> = {}, extra: Partial<ApiRequest> = {}): ApiRequest => ({
  operation: 'listPets',
  method: 'GET',
  path: '/pets',
  query,
  ...extra,
});
export const createPet = (body: unknown, extra: Partial<ApiRequest> = {}): ApiRequest => ({
  operation: 'createPet',
  method: 'POST',
  path: '/pets',
  body,
  ...extra,
});
export const createPetRaw = (rawBody: string, extra: Partial<ApiRequest> = {}): ApiRequest => ({
  operation: 'createPet',
  method: 'POST',
  path: '/pets',
  rawBody,
  ...extra,
});
export const getPet = (id: string, extra: Partial<ApiRequest> = {}): ApiRequest => ({
  operation: 'getPet',
  method: 'GET',
  path: `/pets/${encodeURIComponent(id)}`,
  ...extra,
});

/**
 * One request per operation, all with the given credential. createPet is left
 * out when writes are off: a production run with writes off sends no POST at all.
 */
export function everyOperation(t: TestContext, auth: Credential, unknownId = UNKNOWN_ID): ApiRequest[] {
  const reads = [listPets({}, { auth }), getPet(unknownId, { auth })];
  return t.config.allowWrites ? [reads[0], createPet({ name: uniqueName('auth'), categoryId: 1 }, { auth }), reads[1]] : reads;
}

/** An id no server is likely to have issued (int64, above 2^53). */
export const UNKNOWN_ID = '9223372036854770001';
/** A second one, far from the first, tried when a server did issue the first. */
export const OTHER_UNKNOWN_ID = '4611686018427380017';

export const isObject = (v: unknown): v is Record<string, JsonValue> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Exact digits of the integer at `pointer` in a parsed body (never rounded through a JS number). */
export function exactInteger(ex: ApiExchange, pointer: string): string | undefined {
  const raw = rawNumber(ex.json, pointer);
  return raw === undefined ? undefined : integerDigits(raw);
}

/** What the core's rules read of a conclusive exchange: its status and parsed body (undefined without a response). */
export function answerOf(ex: ApiExchange): Answer | undefined {
  return ex.response ? { status: ex.response.status, ...(ex.json !== undefined ? { body: ex.json } : {}) } : undefined;
}

/**
 * The pet a read must return once `p` was created: what was sent, with the 201 body's id and default status (see
 * expectedAfterCreate); undefined when the create was not answered 201 with an id.
 */
export function expectedPet(p: CreatedPet): { expected: PetText; sent: SentPet; id: string } | undefined {
  const sent = sentPet(p.body);
  const created = p.ex.response?.status === 201 ? petAt(p.ex.json) : undefined;
  if (!sent || !created || p.id === undefined) return undefined;
  return { expected: expectedAfterCreate(sent, created), sent, id: p.id };
}

export function statusOf(ex: ApiExchange): number | undefined {
  return ex.response?.status;
}

export function describeStatus(ex: ApiExchange): string {
  return ex.error ? `transport failure: ${ex.error.kind}` : `HTTP ${ex.response!.status}`;
}

/** What the rules of a section read of an exchange: the operation asked, the status answered (if any), as shown. */
export const answered = (ex: ApiExchange): { operation: OperationId; status: number | undefined; shown: string } => ({
  operation: ex.api.operation,
  status: ex.response?.status,
  shown: describeStatus(ex),
});

/** What AUTH-EVERY-METHOD reads of an exchange whose method the spec may not list: its method, path and answer. */
export const methodAnswer = (ex: ApiExchange): MethodAnswer => ({
  method: ex.api.method,
  path: ex.api.path,
  status: ex.response?.status,
  shown: describeStatus(ex),
});

/** What METHOD-HEAD-AS-GET reads of a HEAD or a GET: the status, as shown, and the media type of Content-Type. */
export const headGetAnswer = (ex: ApiExchange): HeadGetAnswer => {
  const type = ex.response?.headers['content-type'];
  return {
    status: ex.response?.status,
    shown: describeStatus(ex),
    ...(type !== undefined ? { mediaType: type.split(';')[0].trim() } : {}),
  };
};

/** What METHOD-405-ALLOW reads of an exchange with a method its path does not take: the answer, its Allow, its body. */
export const notTakenAnswer = (ex: ApiExchange, documented: readonly string[]): NotTakenAnswer => ({
  ...methodAnswer(ex),
  ...(ex.response?.headers.allow !== undefined ? { allow: ex.response.headers.allow } : {}),
  errorBody: isObject(ex.json) && typeof ex.json.code === 'string' && 'status' in ex.json,
  documented,
});

export interface CreatedPet {
  sent: { name: string; categoryId: string; status?: string };
  /** The request body's exact text. */
  body: string;
  ex: ApiExchange;
  /** Exact id digits from the 201 body, if any. */
  id?: string;
  /** Canonical exact JSON of the 201 body's Pet fields (see `canonicalPet`). */
  canonical?: string;
}

/** The fields the spec defines for a Pet; others a server may add are not compared. */
export const PET_FIELDS = ['id', 'name', 'categoryId', 'status'] as const;

/**
 * Canonical exact JSON of a Pet's spec fields only (int64 digits kept exactly; a
 * missing field stays missing). `root`/`pointer` locate the Pet in the parsed
 * document, for the exact digits.
 */
export function canonicalPet(value: unknown, root: unknown = value, pointer = ''): string {
  if (!isObject(value)) return canonicalExact(value, root, pointer);
  const parts = PET_FIELDS.filter((k) => k in value).map(
    (k) => `${JSON.stringify(k)}:${canonicalExact(value[k], root, `${pointer}/${k}`)}`,
  );
  return `{${parts.sort().join(',')}}`;
}

/** Body of a NewPet with an exact int64 categoryId. */
export function newPetBody(name: string, categoryId: string, status?: string): string {
  return `{"name":${JSON.stringify(name)},"categoryId":${categoryId}${status ? `,"status":${JSON.stringify(status)}` : ''}}`;
}

/** Exact id digits of every item of a listPets page, in order (undefined where an item has no integer id). */
export function pageIds(ex: ApiExchange): (string | undefined)[] {
  return Array.isArray(ex.json) ? ex.json.map((_, i) => exactInteger(ex, `/${i}/id`)) : [];
}

/** The ids that occur more than once in a list. */
export function repeatedIds(ids: readonly (string | undefined)[]): string[] {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const id of ids) if (id !== undefined) (seen.has(id) ? twice : seen).add(id);
  return [...twice];
}

/**
 * The `limit=100` page listed once per run before the suite creates any pet, so
 * that ids of created pets can be compared with those of pets that already existed.
 */
export function listedBeforeCreation(t: TestContext): Promise<ApiExchange> {
  return t.session.once('listed-before-creation', () => t.request(listPets({ limit: '100' })));
}

/** Create one pet now (not cached: see createdPets for the ones shared by the run). */
export async function create(t: TestContext, status: string | undefined, categoryId: string): Promise<CreatedPet> {
  await listedBeforeCreation(t);
  const sent = { name: uniqueName(status ?? 'nostatus'), categoryId, ...(status ? { status } : {}) };
  const body = newPetBody(sent.name, categoryId, status);
  const ex = await t.request(createPetRaw(body));
  const ok = ex.response?.status === 201 && isObject(ex.json);
  return { sent, body, ex, id: ok ? exactInteger(ex, '/id') : undefined, canonical: ok ? canonicalPet(ex.json) : undefined };
}

/** Pets created once per run, one per status, with large int64 category ids. */
export function createdPets(t: TestContext): Promise<CreatedPet[]> {
  // Independent creates: in flight together (one after another, in this order, on a fast server).
  return t.session.once('created-pets', () =>
    Promise.all(STATUSES.map((s, i) => create(t, s, i === 0 ? '9223372036854775807' : String(7 + i)))),
  );
}

/** A pet created without status (once per run). */
export function createdWithoutStatus(t: TestContext): Promise<CreatedPet> {
  return t.session.once('created-no-status', () => create(t, undefined, '3'));
}
