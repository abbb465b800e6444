/** GET /v1/pets (listPets): a page of at most `limit` animals, optionally filtered by status. */
import { jsonReply, petValue, statusTwice, unescapedNames, type Reply } from '../reply.ts';
import { limitRefusal, listedName } from './input-rules.ts';
import { PET_STATUSES, isPetStatus, type Pet } from '../pet-store.ts';
import type { Ctx, Handler } from './handler-context.ts';
import { Int64 } from '../lossless-json.ts';
import { upperHexOnly } from '../surface-faults.ts';
import { emptyEndPair } from '../held-out-faults.ts';
import { cachedPage, scannedPage } from '../held-out-faults-39.ts';
import { orderedPage } from '../held-out-variants-39.ts';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

/** The page size asked for, or the 400 to answer. */
function pageSize(ctx: Ctx): number | Reply {
  const { has } = ctx;
  const raw = ctx.url.searchParams.get('limit');
  if (raw === null) return has('default-limit-50') ? 50 : DEFAULT_LIMIT;
  const bad = () => ctx.error('invalid_parameter', `limit must be an integer from 1 to ${MAX_LIMIT}, got ${JSON.stringify(raw)}`);
  const refused = limitRefusal(raw, ctx);
  if (refused) return refused;
  // Fault limit-float-parse: a limit that is no plain integer is read as a number, truncated, and not range-checked.
  const float = Math.trunc(Number(raw));
  if (has('limit-float-parse') && !/^[+-]?\d+$/.test(raw) && Number.isFinite(float) && float >= 1) return float;
  if (!/^[+-]?\d+$/.test(raw)) return bad();
  const n = Number(raw);
  if (n > MAX_LIMIT && has('limit-unbounded')) return n;
  if (n >= 1 && n <= MAX_LIMIT) return n;
  return ctx.variants.outOfRangeLimit === 'clamp' ? Math.min(MAX_LIMIT, Math.max(1, n)) : bad();
}

const KNOWN_PARAMS = ['limit', 'status'];

/**
 * The query as this server reads it (the surface variants: the first or last of a repeated parameter or a 400, names
 * in any case, unknown ones refused), written back into the URL; and the faults of the query's surface.
 */
function querySurface(ctx: Ctx): Reply | undefined {
  const sv = ctx.variants.surface;
  // Fault query-trailing-amp-500: an empty pair at either end of the query crashes the parser.
  if (emptyEndPair(ctx.url.search, ctx.has)) return ctx.error('internal_error', 'not enough values to unpack');
  // Faults query-empty-pair-400 and query-lowercase-hex-ignored: an empty pair refused; only upper-case %XX decoded.
  if (ctx.has('query-empty-pair-400') && /&&/.test(ctx.url.search)) return ctx.error('invalid_parameter', 'empty parameter');
  if (ctx.has('query-lowercase-hex-ignored')) upperHexOnly(ctx.url);
  const q = ctx.url.searchParams;
  const names = ctx.url.search
    .slice(1)
    .split('&')
    .filter(Boolean)
    .map((p) => p.split('=')[0]);
  if (ctx.has('repeated-param-500') && new Set(names).size < names.length) return ctx.error('internal_error');
  // Fault query-encoded-name-ignored: a parameter whose name is percent-encoded (%6Cimit) is not recognised.
  if (ctx.has('query-encoded-name-ignored')) for (const n of names) if (n.includes('%')) q.delete(decodeURIComponent(n));
  const pairs = [...q].map(([k, v]) => [sv.caseInsensitiveParams ? k.toLowerCase() : k, v] as const);
  const unknown = pairs.filter(([k]) => !KNOWN_PARAMS.includes(k)).map(([k]) => k);
  if (sv.unknownParams === 'reject' && unknown.length) return ctx.error('invalid_parameter', `unknown parameter ${unknown[0]}`);
  const repeated = KNOWN_PARAMS.find((k) => pairs.filter(([n]) => n === k).length > 1);
  if (sv.repeatedParams === 'reject' && repeated) return ctx.error('invalid_parameter', `${repeated} is given more than once`);
  for (const k of KNOWN_PARAMS) {
    const values = pairs.filter(([n]) => n === k).map(([, v]) => v);
    q.delete(k);
    if (values.length) q.set(k, sv.repeatedParams === 'last' ? values[values.length - 1] : values[0]);
  }
  return undefined;
}

/** Faults list-500 (an Error) and list-500-bare (an unhandled exception: the framework's default page, none of the app's headers). */
const crashed = (ctx: Ctx): Reply | undefined =>
  ctx.has('list-500')
    ? ctx.error('internal_error')
    : ctx.has('list-500-bare')
      ? { status: 500, body: 'Internal Server Error', contentType: 'text/plain; charset=utf-8', bare: true }
      : undefined;

/** The 400 (or a fault's 500) a status filter is answered with; undefined for none or a valid one. */
function statusRefusal(ctx: Ctx, status: string | null): Reply | undefined {
  const { has } = ctx;
  // Fault status-astral-500: a status holding a character outside the BMP crashes the filter.
  if (has('status-astral-500') && status !== null && /[\uD800-\uDBFF]/.test(status)) return ctx.error('internal_error');
  if (status === null || isPetStatus(status)) return undefined;
  // Fault status-near-miss-500: a status that differs from a valid one only in case or spaces.
  return has('unknown-status-500') || (has('status-near-miss-500') && isPetStatus(status.trim().toLowerCase()))
    ? ctx.error('internal_error')
    : ctx.error('invalid_parameter', `status must be one of ${PET_STATUSES.join(', ')}, got ${JSON.stringify(status)}`);
}

/** The animals of the page: `asked` of them at most, of `status` (null: any), as the faults pick them. */
function pageOf(ctx: Ctx, asked: number, status: string | null): Pet[] {
  const { has } = ctx;
  let size = asked;
  if (has('limit-ignored') || (has('limit-ignored-with-status') && status !== null)) size = MAX_LIMIT;
  if (has('limit-short-page')) size = Math.max(0, asked - 1);
  if (has('list-always-empty')) size = 0;
  const unfiltered = status === null || has('filter-ignored') || (has('filter-needs-limit') && !ctx.url.searchParams.has('limit'));
  const filter = unfiltered ? undefined : status;
  // Fault limit-before-filter: the first `size` animals are read, then filtered.
  if (has('limit-before-filter') && filter) return scannedPage(ctx.store, filter, size);
  // Fault list-omits-created: only the seeded pets (ids below the first created one) are listed.
  const listed = has('list-omits-created')
    ? ctx.store
        .list(filter)
        .filter((p) => p.id < ctx.store.firstCreatedId)
        .slice(0, size)
    : orderedPage(ctx.store, filter, size, ctx.variants.listOrder);
  // Fault default-status-unlisted: a pet given the default status is never on a page filtered by it.
  return has('default-status-unlisted') && filter
    ? ctx.store
        .list(filter)
        .filter((p) => !p.defaulted)
        .slice(0, size)
    : listed;
}

/** The page as written: each animal as a Pet, then the faults of the body. */
function pageReply(ctx: Ctx, pets: Pet[]): Reply {
  const { has } = ctx;
  // Fault list-duplicate-id: the second animal of the page shows the id of the first.
  if (has('list-duplicate-id') && pets.length > 1) pets[1] = { ...pets[1], id: pets[0].id };
  const items = pets.map((p) =>
    petValue(
      {
        ...p,
        name: listedName(p.name, ctx),
        // Fault list-lossy-category-id: the page writes categoryId through a JS number (above 2^53 its digits are rounded).
        ...(has('list-lossy-category-id') && p.categoryId instanceof Int64 ? { categoryId: Number(p.categoryId.digits) } : {}),
        ...(has('list-status-unknown-value') && p.status === 'sold' ? { status: 'adopted' } : {}),
      },
      {
        lossyIds: has('lossy-ids'),
        numericNames: has('name-numeric-json'),
        extra: ctx.variants.extraFields ? { href: `/v1/pets/${p.id}`, retrievedAt: new Date().toISOString() } : undefined,
        omitZero: has('zero-values-omitted'),
      },
    ),
  );
  let reply = jsonReply(200, has('list-wrapped') ? { items } : items);
  if (has('name-unescaped'))
    reply = unescapedNames(
      reply,
      pets.map((p) => p.name),
    );
  if (has('list-body-not-json')) reply.body += '\n<!-- end of page -->';
  if (has('list-duplicate-member')) reply.body = statusTwice(items);
  return reply;
}

export const listPets: Handler = (ctx) => {
  const { has } = ctx;
  const early = crashed(ctx) ?? querySurface(ctx);
  if (early) return early;
  const asked = pageSize(ctx);
  if (typeof asked !== 'number') return asked;
  const status = ctx.url.searchParams.get('status');
  const refused = statusRefusal(ctx, status);
  if (refused) return refused;
  if (ctx.probe) return undefined;
  // Fault list-cache-key-status: the page is cached under its status alone.
  const pets = cachedPage(ctx.h39, status, has, () => pageOf(ctx, asked, status));
  // Fault list-500-after-astral: a page holding a name outside the Basic Multilingual Plane cannot be read back (utf8mb3).
  if (has('list-500-after-astral') && pets.some((p) => typeof p.name === 'string' && /[\uD800-\uDBFF]/.test(p.name)))
    return ctx.error('internal_error');
  // Fault list-500-every-7th: an intermittent error, whatever the request.
  if (has('list-500-every-7th') && ++ctx.store.listed % 7 === 0) return ctx.error('internal_error');
  return pageReply(ctx, pets);
};
