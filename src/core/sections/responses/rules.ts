/**
 * The rules of "Responses" (every status, content type and body the spec defines), written once: the check registry
 * (src/checks/registry.ts) reads each exchange's facts — status, Content-Type, whether the body parsed, the schema
 * validation's result — and calls these on every response of every phase. Pure (no schema validator here: the
 * registry validates, these judge what it found).
 */
import type { Judgement } from '../define.ts';
import { documentedStatuses, OPERATIONS, type BodySchema, type OperationId } from '../../operations.ts';
import type { DuplicateMember } from '../../json.ts';
import { RESPONSES } from './requirements.ts';

/** The requirement a body schema is judged under. */
export const SCHEMA_REQUIREMENT = { Pets: 'SCHEMA-PETS', Pet: 'SCHEMA-PET', Error: 'SCHEMA-ERROR' } as const satisfies Record<
  BodySchema,
  string
>;

/** Error responses whose body must be an Error: every 4xx but the 429, whose body is "not shown" (RL-429-ERROR-BODY). */
export const isError = (s: number): boolean => s >= 400 && s < 500 && s !== 429;

/** What an operation may answer: the statuses the spec documents, 429, and those a request's own latitude allows. */
export const expectedStatuses = (operation: OperationId, alsoAcceptable: readonly number[] = []): number[] => [
  ...documentedStatuses(operation),
  429,
  ...alsoAcceptable,
];

/** The schema a response's body must match: the spec's for a documented status, an Error for another expected 4xx. */
export function schemaFor(operation: OperationId, status: number, expected: readonly number[]): BodySchema | undefined {
  const documented = OPERATIONS[operation].responses[status]?.schema;
  if (documented) return documented;
  return isError(status) && expected.includes(status) ? 'Error' : undefined;
}

/** RESP-STATUS-DOCUMENTED: the status is one the operation may answer (`expected`). */
export function judgeStatus({
  operation,
  status,
  expected,
}: {
  operation: OperationId;
  status: number;
  expected: readonly number[];
}): Judgement {
  const ok = expected.includes(status);
  return RESPONSES.judge('RESP-STATUS-DOCUMENTED', {
    ok,
    message: `${operation} answered ${status}${ok ? '' : ', which the spec does not document for it'}`,
    evidence: ok ? undefined : { expected: expected.join(', '), actual: String(status) },
  });
}

const MEDIA_JSON = /^application\/json\s*(;|$)/i;
/**
 * A JSON media type with the +json structured syntax suffix (RFC 6839 §3.1), e.g.
 * application/problem+json (RFC 9457) on errors: the body is JSON, but the spec
 * names application/json ("All success and error bodies are application/json"),
 * so it is a warning, not a failure; whether the body is an Error is the schema
 * check's finding.
 */
const MEDIA_PLUS_JSON = /^application\/[a-z0-9!#$&^_.-]+\+json\s*(;|$)/i;

/** A response without a body to judge as JSON: a 204, a 429 (its body is "not shown": RL-429-ERROR-BODY), a redirect. */
const bodiless = (status: number): boolean => status === 204 || status === 429 || (status >= 300 && status < 400);

/** RESP-CONTENT-TYPE-JSON: a body is labelled application/json (a +json type warns); undefined where none is judged. */
export function judgeContentType({
  status,
  method,
  contentType: ct,
}: {
  status: number;
  method: string;
  contentType?: string;
}): Judgement | undefined {
  if (bodiless(status) || method === 'HEAD') return undefined;
  const id = 'RESP-CONTENT-TYPE-JSON';
  if (ct !== undefined && MEDIA_JSON.test(ct.trim())) return RESPONSES.judge(id, { ok: true, message: ct });
  if (ct !== undefined && MEDIA_PLUS_JSON.test(ct.trim()))
    return RESPONSES.judge(id, {
      outcome: 'warn',
      title: 'plus-json',
      message: `${status} response labelled ${JSON.stringify(ct)}: JSON, but not the application/json the spec names`,
      evidence: { expected: 'application/json', actual: ct },
    });
  return RESPONSES.judge(id, {
    ok: false,
    message: `${status} response labelled ${ct === undefined ? 'with no Content-Type' : JSON.stringify(ct)}`,
    evidence: { expected: 'application/json', actual: ct ?? '(none)' },
  });
}

/** A response's body as the JSON rule reads it: whether it parsed, its text and size, the parser's complaint. */
export interface BodyFacts {
  status: number;
  parsed: boolean;
  bodyText: string;
  bodyBytes: number;
  jsonError?: string;
  /** Why the body could not be decoded as its Content-Encoding declares (then it is no JSON document either). */
  codingError?: string;
}

/** RESP-BODY-JSON: a body is a JSON document; undefined where none is judged. */
export function judgeJsonBody(b: BodyFacts): Judgement | undefined {
  if (bodiless(b.status)) return undefined;
  const id = 'RESP-BODY-JSON';
  if (b.parsed) return RESPONSES.judge(id, { ok: true, message: `${b.bodyBytes} bytes` });
  if (b.codingError)
    return RESPONSES.judge(id, { ok: false, message: b.codingError, evidence: { expected: 'a JSON document', actual: b.codingError } });
  if (b.bodyText.trim() === '')
    return RESPONSES.judge(id, { ok: false, fail: 'empty', message: `${b.status} response has an empty body; a JSON body was expected` });
  return RESPONSES.judge(id, {
    ok: false,
    message: b.jsonError ?? 'the body does not parse as JSON',
    evidence: { expected: 'a JSON document', actual: b.bodyText.slice(0, 120) },
  });
}

/**
 * RESP-JSON-UNIQUE-NAMES (RFC 8259 §4): no object of a body that parsed holds a name twice; `duplicates` are the
 * parser's (src/core/json.ts: each object's pointer and the name met again). Shown by name, at most three places each.
 */
export function judgeUniqueNames(status: number, duplicates: readonly DuplicateMember[]): Judgement {
  const id = 'RESP-JSON-UNIQUE-NAMES';
  if (duplicates.length === 0) return RESPONSES.judge(id, { ok: true, message: `${status} body` });
  const places = new Map<string, Set<string>>();
  for (const d of duplicates) {
    const at = places.get(d.name) ?? new Set<string>();
    places.set(d.name, at.add(d.pointer === '' ? 'the root' : d.pointer));
  }
  const shown = [...places].map(([name, at]) => {
    const where = [...at];
    return `${JSON.stringify(name)} at ${where.slice(0, 3).join(', ')}${where.length > 3 ? ` and ${where.length - 3} more objects` : ''}`;
  });
  return RESPONSES.judge(id, {
    ok: false,
    message: `${status} body: a member name repeated in an object (${shown.join('; ')}); clients may read either value`,
    evidence: { expected: 'each member name once per object', actual: shown.join('; ') },
  });
}

/** SCHEMA-PETS / SCHEMA-PET / SCHEMA-ERROR: the body matches its schema (`errors`: the validator's first complaints). */
export function judgeSchema(
  { operation, status, schema }: { operation: OperationId; status: number; schema: BodySchema },
  { valid, errors }: { valid: boolean; errors: readonly string[] },
): Judgement {
  const shown = errors.slice(0, 5).join('; ');
  return RESPONSES.judge(SCHEMA_REQUIREMENT[schema], {
    ok: valid,
    message: valid ? `${operation} ${status}` : shown,
    evidence: valid ? undefined : { expected: `a ${schema}`, actual: shown },
  });
}

/**
 * ERROR-CODE-VALUES (observed: each error code seen) and ERROR-STATUS-FIELD (an Error's status is the HTTP status) of
 * an error response's JSON object body. A missing status is the schema rule's finding; the 429's body is "not shown"
 * (RL-429-ERROR-BODY); an undocumented status already fails RESP-STATUS-DOCUMENTED.
 */
export function judgeErrorBody(status: number, body: Record<string, unknown>): Judgement[] {
  const out: Judgement[] = [];
  if (typeof body.code === 'string')
    out.push(
      RESPONSES.judge('ERROR-CODE-VALUES', {
        outcome: 'observe',
        title: 'observed',
        message: `${status} → code ${JSON.stringify(body.code)}`,
      }),
    );
  if (!('status' in body) || !isError(status)) return out;
  const ok = body.status === status;
  out.push(
    RESPONSES.judge('ERROR-STATUS-FIELD', {
      ok,
      message: ok ? String(status) : `HTTP ${status} but Error.status is ${JSON.stringify(body.status)}`,
      evidence: ok ? undefined : { expected: String(status), actual: JSON.stringify(body.status) },
    }),
  );
  return out;
}

const codingAlias = (c: string) => (c === 'x-gzip' ? 'gzip' : c);

/**
 * Does an Accept-Encoding value (undefined: absent) accept `coding` (RFC 9110 §12.5.3)? With no Accept-Encoding any
 * coding is acceptable; with one, a coding it lists with a weight above 0 (or `*`), x-gzip being gzip.
 */
export function acceptsCoding(acceptEncoding: string | undefined, coding: string): boolean {
  if (acceptEncoding === undefined) return true;
  const items = acceptEncoding
    .split(',')
    .map((part) => {
      const [name, ...params] = part.split(';').map((x) => x.trim());
      const q = params.map((p) => /^q\s*=\s*([\d.]+)$/i.exec(p)?.[1]).find((x) => x !== undefined);
      return { name: codingAlias(name.toLowerCase()), q: q === undefined ? 1 : Number(q) };
    })
    .filter((it) => it.name !== '');
  // A coding listed twice with two weights says two things: either reading is the server's.
  const named = items.filter((it) => it.name === codingAlias(coding));
  if (named.length) return named.some((it) => it.q > 0);
  const star = items.find((it) => it.name === '*');
  return star !== undefined && star.q > 0;
}

/** RESP-CONTENT-CODING: every coding of a response (`codings`, none: not judged) is one its request accepted. */
export function judgeContentCoding(r: {
  operation: OperationId;
  status: number;
  codings: readonly string[];
  acceptEncoding: string | undefined;
}): Judgement | undefined {
  if (!r.codings.length) return undefined;
  const refused = r.codings.filter((c) => !acceptsCoding(r.acceptEncoding, c));
  const said = r.acceptEncoding === undefined ? 'no Accept-Encoding' : `Accept-Encoding: ${JSON.stringify(r.acceptEncoding)}`;
  return RESPONSES.judge('RESP-CONTENT-CODING', {
    ok: refused.length === 0,
    args: { coding: refused.join(', ') },
    message: `${r.operation} answered ${r.status} in ${r.codings.join(', ')} to a request with ${said}`,
    evidence: refused.length
      ? { expected: `a coding ${said} accepts, or none`, actual: `Content-Encoding: ${r.codings.join(', ')}` }
      : undefined,
  });
}

/** INPUT-SILENT-HANDLING: an input the spec is silent about, refused cleanly (observed, never failed). */
export const judgeSilentRefusal = (message: string): Judgement =>
  RESPONSES.judge('INPUT-SILENT-HANDLING', { outcome: 'observe', title: 'refused', message });

/** A request HTTP or URI syntax makes equivalent to a plain one: its forms, and what its answer broke of the plain request's requirements. */
export interface EquivalentForms {
  /** The forms' ids (the title's `{form}`) and labels. */
  ids: string;
  labels: string;
  /** The RFC sections that make them equivalent. */
  sources: readonly string[];
  /** The failures and warnings the answer would have earned a plain request. */
  problems: readonly Judgement[];
}

/**
 * HTTP-EQUIVALENT-FORMS: what would fail the operation's requirement for the plain request is this warning instead for
 * a request the RFCs make equivalent (the spec names no such form), naming the forms.
 */
export function judgeEquivalentForms(e: EquivalentForms): Judgement {
  const shown = e.problems.map((j) => `${j.requirement}: ${j.title} — ${j.message}`).join('; ');
  const source = e.sources.join('; ');
  return RESPONSES.judge('HTTP-EQUIVALENT-FORMS', {
    ok: e.problems.length === 0,
    args: { form: e.ids },
    message: e.problems.length ? `${e.labels} (${source}): ${shown}` : e.labels,
    evidence: { expected: `served as the request it is equivalent to (${source})`, actual: shown },
  });
}

/** What METHOD-405-ALLOW reads of a request with a method its path does not take, sent with the key. */
export interface NotTakenAnswer {
  method: string;
  path: string;
  status: number | undefined;
  shown: string;
  /** The Allow header, when sent. */
  allow?: string;
  /** The body is an Error (a JSON object with code and status). */
  errorBody: boolean;
  /** The methods the spec documents for this path. */
  documented: readonly string[];
}

/**
 * METHOD-405-ALLOW: a method a documented path does not take is refused — a 405 with Allow (RFC 9110 §15.5.6: MUST);
 * a 404, 401, 400 or 501 is a refusal too, and a 2xx is observed (an operation the spec does not show).
 * METHOD-405-DETAILS (SHOULD): the 405's Allow lists the documented methods, its body is an Error; no 5xx.
 */
export function judgeMethodNotTaken(a: NotTakenAnswer): Judgement[] {
  const args = { method: a.method, path: a.path };
  const message = `${a.method} ${a.path} with the key: ${a.shown}`;
  if (a.status === undefined) return [];
  if (a.status >= 200 && a.status < 300)
    return [RESPONSES.judge('METHOD-405-ALLOW', { outcome: 'observe', title: 'observed', args, message })];
  if (a.status >= 500 && a.status !== 501)
    return [
      RESPONSES.judge('METHOD-405-DETAILS', {
        ok: false,
        fail: 'serverError',
        message,
        evidence: { expected: '405, 404 or 501', actual: a.shown },
      }),
    ];
  if (a.status !== 405) return [RESPONSES.judge('METHOD-405-ALLOW', { ok: true, args, message })];
  if (a.allow === undefined)
    return [
      RESPONSES.judge('METHOD-405-ALLOW', { ok: false, message, evidence: { expected: '405 with an Allow header', actual: a.shown } }),
    ];
  const listed = a.allow.split(',').map((m) => m.trim().toUpperCase());
  const missing = a.documented.filter((m) => !listed.includes(m));
  return [
    RESPONSES.judge('METHOD-405-ALLOW', { ok: true, args, message: `${message}, Allow: ${a.allow}` }),
    RESPONSES.judge('METHOD-405-DETAILS', {
      ok: missing.length === 0,
      fail: 'incomplete',
      message: missing.length ? `${message}: Allow: ${a.allow} omits ${missing.join(', ')}` : `${message}, Allow: ${a.allow}`,
      evidence: missing.length ? { expected: `Allow listing ${a.documented.join(', ')}`, actual: `Allow: ${a.allow}` } : undefined,
    }),
    RESPONSES.judge('METHOD-405-DETAILS', {
      ok: a.errorBody,
      fail: 'bare',
      message: a.errorBody ? `${message}: an Error body` : `${message}: no Error body ("Every error response has the Error body")`,
      evidence: a.errorBody ? undefined : { expected: 'an Error body (code, message, status)', actual: a.shown },
    }),
  ];
}
