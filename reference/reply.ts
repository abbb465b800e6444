/**
 * What a handler returns: a status, a body already serialized, extra headers.
 * The writer (respond.ts) adds the headers every response carries.
 */
import { Int64, writeJson } from './lossless-json.ts';
import type { Pet } from './pet-store.ts';
import { numericChecked } from './held-out-faults.ts';
import { withoutZeroValues } from './held-out-faults-39.ts';

export interface Reply {
  status: number;
  /** The body text (JSON unless `contentType` says otherwise). */
  body: string;
  headers?: Record<string, string>;
  /** Defaults to application/json. */
  contentType?: string;
  /** A framework's own error page: none of the headers the app adds (rate-limit, deprecation) are sent with it. */
  bare?: boolean;
}

/** A JSON reply; `Int64` values are written as bare digits (exact int64). */
export function jsonReply(status: number, value: unknown, headers?: Record<string, string>): Reply {
  return { status, body: writeJson(value), ...(headers ? { headers } : {}) };
}

export interface PetViewOptions {
  /** Fault id-as-string: the id as a JSON string. */
  idAsString?: boolean;
  /** Fault lossy-ids: the id through a JS number (rounded above 2^53). */
  lossyIds?: boolean;
  /** Fault create-drops-status. */
  dropStatus?: boolean;
  /** Variant extraFields: undocumented fields appended to the Pet. */
  extra?: Record<string, unknown>;
  /** Fault name-numeric-json: a numeric name written as a JSON number (PHP's JSON_NUMERIC_CHECK). */
  numericNames?: boolean;
  /** Fault zero-values-omitted: fields at their zero value left out (the protobuf JSON mapping). */
  omitZero?: boolean;
}

/** Fault name-unescaped: the names are written between quotes as they are, `"` and `\` unescaped (hand-built JSON). */
export function unescapedNames(reply: Reply, names: readonly unknown[]): Reply {
  let body = reply.body;
  for (const n of names) if (typeof n === 'string' && /["\\]/.test(n)) body = body.split(JSON.stringify(n)).join(`"${n}"`);
  return { ...reply, body };
}

/**
 * Fault list-duplicate-member: a page whose every animal with a status holds the member twice, the default status
 * first (a template merged by text), its own last: a parser keeping the last value reads the page right.
 */
export function statusTwice(items: readonly Record<string, unknown>[]): string {
  const item = (v: Record<string, unknown>) => (v.status === undefined ? writeJson(v) : `{"status":"available",${writeJson(v).slice(1)}`);
  return `[${items.map(item).join(',')}]`;
}

/** The JSON value of a Pet, ready for jsonReply. */
export function petValue(pet: Pet, o: PetViewOptions = {}): Record<string, unknown> {
  const digits = pet.id.toString();
  const id = o.idAsString ? digits : o.lossyIds ? Number(digits) : new Int64(digits);
  const value = {
    id,
    name: o.numericNames ? numericChecked(pet.name) : pet.name,
    categoryId: pet.categoryId,
    ...(pet.status !== undefined && !o.dropStatus ? { status: pet.status } : {}),
    ...o.extra,
  };
  return o.omitZero ? withoutZeroValues(value) : value;
}
