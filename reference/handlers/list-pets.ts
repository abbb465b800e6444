/** GET /v1/pets (listPets): a page of at most `limit` animals, optionally filtered by status. */
import { jsonReply, petValue, unescapedNames, type Reply } from '../reply.ts';
import { limitRefusal, listedName } from './input-rules.ts';
import { PET_STATUSES, isPetStatus } from '../store.ts';
import type { Ctx, Handler } from './context.ts';
import { Int64 } from '../json.ts';

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
  if (!/^[+-]?\d+$/.test(raw)) return bad();
  const n = Number(raw);
  if (n > MAX_LIMIT && has('limit-unbounded')) return n;
  if (n >= 1 && n <= MAX_LIMIT) return n;
  return ctx.variants.outOfRangeLimit === 'clamp' ? Math.min(MAX_LIMIT, Math.max(1, n)) : bad();
}

export const listPets: Handler = (ctx) => {
  const { has } = ctx;
  if (has('list-500')) return ctx.error('internal_error');
  const asked = pageSize(ctx);
  if (typeof asked !== 'number') return asked;
  const status = ctx.url.searchParams.get('status');
  if (status !== null && !isPetStatus(status)) {
    // Fault status-near-miss-500: a status that differs from a valid one only in case or spaces.
    return has('unknown-status-500') || (has('status-near-miss-500') && isPetStatus(status.trim().toLowerCase()))
      ? ctx.error('internal_error')
      : ctx.error('invalid_parameter', `status must be one of ${PET_STATUSES.join(', ')}, got ${JSON.stringify(status)}`);
  }
  if (ctx.probe) return undefined;
  let size = asked;
  if (has('limit-ignored') || (has('limit-ignored-with-status') && status !== null)) size = MAX_LIMIT;
  if (has('limit-short-page')) size = Math.max(0, asked - 1);
  if (has('list-always-empty')) size = 0;
  const unfiltered = status === null || has('filter-ignored') || (has('filter-needs-limit') && !ctx.url.searchParams.has('limit'));
  const filter = unfiltered ? undefined : status;
  // Fault list-omits-created: only the seeded pets (ids below the first created one) are listed.
  const pets = has('list-omits-created')
    ? ctx.store
        .list(filter)
        .filter((p) => p.id < ctx.store.firstCreatedId)
        .slice(0, size)
    : ctx.store.list(filter, size);
  // Fault list-500-after-astral: a page holding a name outside the Basic Multilingual Plane cannot be read back (utf8mb3).
  if (has('list-500-after-astral') && pets.some((p) => typeof p.name === 'string' && /[\uD800-\uDBFF]/.test(p.name)))
    return ctx.error('internal_error');
  // Fault list-500-every-7th: an intermittent error, whatever the request.
  if (has('list-500-every-7th') && ++ctx.store.listed % 7 === 0) return ctx.error('internal_error');
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
        extra: ctx.variants.extraFields ? { href: `/v1/pets/${p.id}`, retrievedAt: new Date().toISOString() } : undefined,
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
  return reply;
};
