/**
 * POST /v1/pets (createPet): a NewPet parsed losslessly and validated against
 * the spec's schema (the reference's own JSON and schema check); the id is
 * assigned by the server; 201 with the Pet.
 */
import { Int64, INT64_MAX, INT64_MIN, integerOf, MalformedJson, numberText, readJson, type Json } from '../lossless-json.ts';
import { newPetIssues, type BodyIssue } from '../schema.ts';
import type { Has } from '../faults.ts';
import { jsonReply, petValue, unescapedNames } from '../reply.ts';
import { isPetStatus, PET_STATUSES } from '../pet-store.ts';
import { bodyRefusal, nameRefusal, storedCategory, storedName } from './input-rules.ts';
import type { PetStore } from '../pet-store.ts';
import type { Ctx, Handler } from './handler-context.ts';
import type { Reply } from '../reply.ts';
import { cutUtf8, declaredCharset, escapeFault, typoStatus } from '../surface-faults.ts';
import { json5ToJson } from '../json5.ts';
import { compatibilityFolded, garbleSurrogateEscapes, htmlEscaped, memberOrderRefusal } from '../held-out-faults.ts';
import { afterCreate, deduplicated, pooledId } from '../held-out-faults-39.ts';
import { snowflakeId } from '../held-out-variants-39.ts';

type Body = { [key: string]: Json };

/** Schema problems a fault lets through. */
function tolerated(issue: BodyIssue, has: Has, body: Body): boolean {
  if (has('missing-field-accepted') && issue.keyword === 'required') return true;
  if (has('status-null-accepted') && issue.path === '/status' && (body.status === null || body.status === '')) return true;
  if (has('name-container-accepted') && issue.path === '/name' && body.name !== null && typeof body.name === 'object') return true;
  if (has('wrong-type-accepted') && (issue.path === '/name' || issue.path === '/categoryId')) return true;
  if (has('status-whitespace-accepted') && issue.path === '/status' && typeof body.status === 'string' && isPetStatus(body.status.trim()))
    return true;
  if (has('status-index-accepted') && issue.path === '/status' && ordinalStatus(body.status) !== undefined) return true;
  if (has('status-one-typo-accepted') && issue.path === '/status' && typoStatus(body.status) !== undefined) return true;
  return has('bad-status-accepted') && issue.path === '/status';
}

/** Fault status-index-accepted: a status given as the enumeration's index (0, "1") read as that value (Jackson's default). */
function ordinalStatus(v: unknown): string | undefined {
  const i = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : undefined;
  return i !== undefined && Number.isInteger(i) ? PET_STATUSES[i] : undefined;
}

/**
 * A field as stored: numbers keep their literal (canonical integer digits when integral). Fault category-id-double:
 * one written with a fraction or an exponent is read through a double, as Jackson's float-to-long coercion does.
 */
function exact(body: Body, key: string, has: Has): unknown {
  const v = body[key];
  if (typeof v !== 'number') return v;
  const raw = numberText(body, `/${key}`) ?? String(v);
  if (has('category-id-double') && /[.eE]/.test(raw) && Number.isInteger(Number(raw))) return new Int64(asJavaLong(Number(raw)));
  return new Int64(integerOf(raw) ?? raw);
}

/** The first value of a status given (maybe twice) in a body's text. */
function firstStatus(text: string): unknown {
  try {
    const v = readJson(text, { firstDuplicate: true });
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? v.status : undefined;
  } catch {
    return undefined;
  }
}

/** A double converted to a Java long: clamped into the int64 range. */
function asJavaLong(d: number): string {
  const v = BigInt(d);
  return (v > INT64_MAX ? INT64_MAX : v < INT64_MIN ? INT64_MIN : v).toString();
}

/** Fault client-id-honoured: an integer id sent by the client. */
function clientId(body: Body): bigint | undefined {
  const digits =
    typeof body.id === 'number'
      ? integerOf(numberText(body, '/id') ?? String(body.id))
      : typeof body.id === 'string' && /^-?\d+$/.test(body.id)
        ? body.id
        : undefined;
  return digits === undefined ? undefined : BigInt(digits);
}

/** Fault ids-reuse-existing: how many seeded ids each store has handed out again. */
const reused = new WeakMap<PetStore, number>();

/** Fault ids-reuse-existing: the id of the next seeded pet (the created pet replaces it), if any was seeded. */
function seededId(store: PetStore): bigint | undefined {
  const seeded = store.list().filter((p) => p.id < store.firstCreatedId);
  if (!seeded.length) return undefined;
  const n = reused.get(store) ?? 0;
  reused.set(store, n + 1);
  return seeded[n % seeded.length].id;
}

/** Fault invalid-stored: a categoryId written as a string of two or more digits is refused, but the pet is stored anyway. */
function storeCoerced(body: Body, store: PetStore): void {
  if (typeof body.name !== 'string' || typeof body.categoryId !== 'string' || !/^\d{2,}$/.test(body.categoryId)) return;
  store.create({ name: body.name, categoryId: new Int64(body.categoryId), ...(isPetStatus(body.status) ? { status: body.status } : {}) });
}

/** Is a Content-Type application/json (any case, any parameters)? */
const isJson = (ct: string | undefined) => ct !== undefined && ct.split(';')[0].trim().toLowerCase() === 'application/json';

/**
 * The body read as a JSON value, or the reply to a body that is not one: the surface variants (a BOM ignored, the first
 * of two duplicated members, no depth limit, a media type checked) and the faults of the body's surface.
 */
function readBody(ctx: Ctx): { value: Json } | { reply: Reply } {
  const { has } = ctx;
  const sv = ctx.variants.surface;
  const ct = ctx.header('content-type');
  if (sv.mediaType === 'strict' && !isJson(ct)) return { reply: ctx.error('unsupported_media_type', ct ?? 'no Content-Type') };
  // Fault charset-415: a media type with parameters (application/json; charset=utf-8) is refused.
  if (has('charset-415') && (ct ?? '').includes(';')) return { reply: ctx.error('unsupported_media_type', ct) };
  if (has('bom-500') && ctx.body.startsWith('\uFEFF')) return { reply: ctx.error('internal_error', 'invalid character') };
  const body = declaredCharset(ctx.body, ct, has);
  const escapes = escapeFault(body, has, ctx.error);
  if (escapes) return { reply: escapes };
  const text = readable(sv.bom === 'ignore' ? body.replace(/^\uFEFF/, '') : body, has);
  try {
    const value = readJson(text, {
      firstValue: has('trailing-data-accepted') || has('trailing-data-last-value'),
      firstDuplicate: sv.duplicateMembers === 'first',
      ...(sv.unlimitedNesting ? { maxDepth: Infinity } : {}),
      ...(has('duplicate-member-500') || sv.duplicateMembers === 'reject' ? { onDuplicate: duplicated(has('duplicate-member-500')) } : {}),
    });
    return { value };
  } catch (e) {
    const crash =
      has('malformed-json-500') || e instanceof DuplicateMember || (has('deep-nesting-500') && /nested too deeply/.test(String(e)));
    return { reply: crash ? ctx.error('internal_error') : ctx.error('invalid_body', `malformed JSON (${(e as Error).message})`) };
  }
}

/**
 * The text a permissive reader parses: JSON5 rewritten into JSON (fault json5-accepted), or the last of several values
 * (fault trailing-data-last-value: a stream reader that keeps reading and keeps the last).
 */
function readable(text: string, has: Has): string {
  // Fault surrogate-escapes-garbled: a surrogate written as an escape is decoded on its own (U+FFFD).
  if (has('surrogate-escapes-garbled')) text = garbleSurrogateEscapes(text);
  if (has('json5-accepted')) return json5ToJson(text);
  if (!has('trailing-data-last-value')) return text;
  const last = [...text.matchAll(/}\s*{/g)].pop();
  return last ? text.slice(last.index + 1) : text;
}

/** A member name given twice: a crash (fault duplicate-member-500), or a refusal (variant duplicateMembers=reject). */
const duplicated = (crash: boolean) => (name: string) => {
  if (crash) throw new DuplicateMember();
  throw new MalformedJson(`the member ${JSON.stringify(name)} is given twice`);
};

class DuplicateMember extends Error {}

/** Fault member-names-case-insensitive: a member named like a NewPet field in another case is read as it (the last wins). */
function foldCase(body: Body): void {
  for (const k of Object.keys(body)) {
    const field = NEW_PET_FIELDS.find((f) => f.toLowerCase() === k.toLowerCase());
    if (!field || field === k) continue;
    body[field] = body[k];
    delete body[k];
  }
}
const NEW_PET_FIELDS = ['name', 'categoryId', 'status'];

/** The status as read: the one sent, or what a fault makes of it (an index, a typo, spaces trimmed). */
function sentStatus(value: Body, has: Has): unknown {
  const ordinal = has('status-index-accepted') && !isPetStatus(value.status) ? ordinalStatus(value.status) : undefined;
  const typo = has('status-one-typo-accepted') && !isPetStatus(value.status) ? typoStatus(value.status) : undefined;
  return ordinal ?? typo ?? (typeof value.status === 'string' && has('status-whitespace-accepted') ? value.status.trim() : value.status);
}

/** A name over 255 UTF-16 units: 422 (variant longNames=reject-422), or 400 (fault name-cut-utf8-255, which then cuts by bytes). */
function lengthRefusal(name: unknown, ctx: Ctx): Reply | undefined {
  if (typeof name !== 'string' || name.length <= 255) return undefined;
  if (ctx.variants.longNames === 'reject-422') return ctx.error('name_too_long', `${name.length} characters, at most 255`);
  return ctx.has('name-cut-utf8-255') ? ctx.error('validation_failed', 'name longer than 255 characters') : undefined;
}

/** The name as stored: faults name-truncated (255 units) and name-cut-utf8-255 (255 bytes), else storedName. */
function nameKept(name: unknown, ctx: Ctx): unknown {
  if (typeof name !== 'string') return name;
  if (ctx.has('name-truncated')) return name.slice(0, 255);
  if (ctx.has('name-cut-utf8-255')) return cutUtf8(name, 255);
  // Faults name-html-escaped and name-nfkc: a sanitiser's escapes, a normalisation to NFKC.
  return compatibilityFolded(htmlEscaped(storedName(name, ctx), ctx.has), ctx.has);
}

/**
 * The id a create is stored under (undefined: the store's next), by the faults that choose another — a client's id, one
 * id for all, a seeded pet's, the id read as the request arrived (create-id-race), the next of an overlapping block
 * ('duplicate' when it is held: id-blocks-overlap-500) — or by the variant ids=snowflake.
 */
function assignedId(value: Body, ctx: Ctx): bigint | 'duplicate' | undefined {
  const { has } = ctx;
  return (
    (has('client-id-honoured') ? clientId(value) : undefined) ??
    (has('duplicate-ids') ? ctx.store.firstCreatedId : undefined) ??
    (has('ids-reuse-existing') ? seededId(ctx.store) : undefined) ??
    ctx.reservedId ??
    pooledId(ctx.h39, ctx.store, has) ??
    (ctx.variants.ids === 'snowflake' ? snowflakeId(ctx.h39) : undefined)
  );
}

export const createPet: Handler = (ctx) => {
  const { has } = ctx;
  if (ctx.bodyTooLarge) {
    if (has('next-after-large-body-500')) ctx.store.bodyLeftUnread = true;
    return ctx.error('invalid_body', 'the body is too large');
  }
  if (ctx.body.trim() === '') return ctx.error('invalid_body', 'the body is empty');
  const read = readBody(ctx);
  if ('reply' in read) return read.reply;
  const value = read.value;
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return ctx.error('invalid_body', 'the body must be a JSON object');
  if (has('member-names-case-insensitive')) foldCase(value);
  const issues = newPetIssues(value).filter((i) => !tolerated(i, has, value));
  if (issues.length) {
    if (has('invalid-stored') && !ctx.probe) storeCoerced(value, ctx.store);
    return ctx.error('validation_failed', issues.map((i) => `${i.path || 'body'} ${i.message}`).join('; '));
  }
  if (has('status-required') && value.status === undefined) return ctx.error('validation_failed', 'status is required');
  const refused =
    memberOrderRefusal(value, has, (detail) => ctx.error('validation_failed', detail)) ??
    lengthRefusal(value.name, ctx) ??
    nameRefusal(value.name, ctx) ??
    bodyRefusal(value, ctx);
  if (refused) return refused;
  if (ctx.probe) return undefined;
  const sent = sentStatus(value, has);
  const status = sent ?? (ctx.variants.defaultStatus === 'available' ? 'available' : undefined);
  // Fault dedupe-identical-create: a body sent in the last 5 minutes is answered the first 201 again.
  const replayed = deduplicated(ctx.h39, ctx.body, has);
  if (replayed) return replayed;
  const id = assignedId(value, ctx);
  if (id === 'duplicate') return ctx.error('internal_error', 'duplicate key value violates unique constraint "pets_pkey"');
  const name = nameKept(value.name, ctx);
  const categoryId = exact(value, 'categoryId', has);
  const defaulted = has('default-status-unlisted') && sent === undefined;
  const pet = ctx.store.create(
    { name, categoryId: storedCategory(categoryId, ctx), ...(status !== undefined ? { status } : {}), ...(defaulted ? { defaulted } : {}) },
    id,
  );
  // Fault category-id-unsigned: the 201 echoes the request; only reading the pet back shows what was stored.
  // Fault duplicate-status-echo-first: the 201 echoes the first of two statuses, the pet keeps the last.
  const echoed = {
    ...(has('duplicate-status-echo-first') ? { status: firstStatus(ctx.body) ?? pet.status } : {}),
    // Fault name-cut-utf8-255: the 201 echoes the name as received.
    // Faults name-cut-utf8-255 and name-nfkc: the 201 echoes the name as received.
    ...(has('name-cut-utf8-255') || has('name-nfkc') ? { name: value.name } : {}),
  };
  const body = petValue(
    { ...(has('category-id-unsigned') ? { ...pet, categoryId } : pet), ...echoed },
    {
      idAsString: has('id-as-string'),
      lossyIds: has('lossy-ids'),
      dropStatus: has('create-drops-status'),
      numericNames: has('name-numeric-json'),
      extra: ctx.variants.extraFields ? { retrievedAt: new Date().toISOString() } : undefined,
      omitZero: has('zero-values-omitted'),
    },
  );
  if (has('lossy-category-id') && body.categoryId instanceof Int64) body.categoryId = Number(body.categoryId.digits);
  let reply = jsonReply(has('create-returns-200') ? 200 : 201, body, { Location: `/v1/pets/${pet.id}` });
  if (has('name-unescaped')) reply = unescapedNames(reply, [pet.name]);
  // Faults dedupe-identical-create and list-cache-key-status: the 201 remembered, the cached pages evicted.
  return afterCreate(ctx.h39, ctx.body, has('created-empty-body') ? { ...reply, body: '' } : reply, has);
};
