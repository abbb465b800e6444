/**
 * The registry of response checks: every response the suite receives goes
 * through every check here (Schemathesis style). One signature:
 * `(ctx: CheckContext) => void`; each check names the requirements it judges
 * and reports each judgement, built by the requirement's section (its titles,
 * its level: a MUST violated fails, a SHOULD warns), through `ctx.report`.
 */
import type { Judgement } from '../core/spec/define.ts';
import { judgeAny } from '../core/catalogue.ts';
import { RATE_LIMIT_LOAD } from '../core/spec/rate-limit-load/requirements.ts';
import { RESPONSES } from '../core/spec/responses/requirements.ts';
import { TRANSPORT } from '../core/spec/transport/requirements.ts';
import type { ApiExchange } from '../http/client.ts';
import { documentedStatuses, OPERATIONS, type BodySchema } from '../core/operations.ts';
import { readRateLimit } from '../core/ratelimit.ts';
import { validateSchema } from '../schemas/ajv.ts';
import { rateLimitChecks } from './rate-limit.ts';
import { deprecationCheck } from './deprecation.ts';
import { hygieneChecks } from './hygiene.ts';
import { contentCoding } from './content-coding.ts';
import { isCrossOrigin } from '../http/transport.ts';
import type { CheckContext, CheckSession, ResponseCheck } from './types.ts';

export type { CheckContext, CheckSession, ResponseCheck };

/** The requirement a body schema is judged under. */
const SCHEMA_REQUIREMENT = { Pets: 'SCHEMA-PETS', Pet: 'SCHEMA-PET', Error: 'SCHEMA-ERROR' } as const satisfies Record<BodySchema, string>;

/** Error responses whose body must be an Error: every 4xx but the 429, whose body is "not shown" (RL-429-ERROR-BODY). */
const isError = (s: number) => s >= 400 && s < 500 && s !== 429;
const expectedStatuses = (ex: ApiExchange) => [...documentedStatuses(ex.api.operation), 429, ...(ex.api.alsoAcceptable ?? [])];

/** The schema a response's body must match: the spec's for a documented status, an Error for another expected 4xx. */
function schemaFor(ex: ApiExchange, status: number): BodySchema | undefined {
  const documented = OPERATIONS[ex.api.operation].responses[status]?.schema;
  if (documented) return documented;
  return isError(status) && expectedStatuses(ex).includes(status) ? 'Error' : undefined;
}

const transport: ResponseCheck = {
  name: 'transport-complete-response',
  requirements: ['TRANSPORT-COMPLETE-RESPONSE'],
  run({ ex, report }) {
    report(
      TRANSPORT.judge('TRANSPORT-COMPLETE-RESPONSE', {
        ok: !ex.error,
        args: { kind: ex.error?.kind ?? '' },
        message: ex.error ? ex.error.message : `${ex.response!.status} in ${ex.durationMs} ms`,
      }),
    );
  },
};

const redirect: ResponseCheck = {
  name: 'no-cross-origin-redirect',
  requirements: ['TRANSPORT-NO-CROSS-ORIGIN-REDIRECT'],
  run({ ex, report }) {
    const res = ex.response;
    if (!res) return;
    const loc = res.headers.location;
    const away = res.status >= 300 && res.status < 400 && loc !== undefined && isCrossOrigin(ex.request.url, loc);
    report(
      TRANSPORT.judge('TRANSPORT-NO-CROSS-ORIGIN-REDIRECT', {
        ok: !away,
        message: away
          ? `The server redirected to another origin (${loc}); the suite did not follow it, so the key was not sent there.`
          : `status ${res.status}`,
        evidence: away ? { expected: 'an answer on the same origin', actual: `${res.status} Location: ${loc}` } : undefined,
      }),
    );
  },
};

const statusCode: ResponseCheck = {
  name: 'status-code-conformance',
  requirements: ['RESP-STATUS-DOCUMENTED'],
  run({ ex, report }) {
    const res = ex.response;
    if (!res) return;
    const allowed = expectedStatuses(ex);
    const ok = allowed.includes(res.status);
    report(
      RESPONSES.judge('RESP-STATUS-DOCUMENTED', {
        ok,
        message: `${ex.api.operation} answered ${res.status}${ok ? '' : ', which the spec does not document for it'}`,
        evidence: ok ? undefined : { expected: allowed.join(', '), actual: String(res.status) },
      }),
    );
  },
};

const MEDIA_JSON = /^application\/json\s*(;|$)/i;
/**
 * A JSON media type with the +json structured syntax suffix (RFC 6839 §3.1), e.g.
 * application/problem+json (RFC 9457) on errors: the body is JSON, but the spec
 * names application/json ("All success and error bodies are application/json"),
 * so it is a warning, not a failure; whether the body is an Error is the schema
 * check's finding.
 */
const MEDIA_PLUS_JSON = /^application\/[a-z0-9!#$&^_.-]+\+json\s*(;|$)/i;

const contentType: ResponseCheck = {
  name: 'content-type-conformance',
  requirements: ['RESP-CONTENT-TYPE-JSON'],
  run({ ex, report }) {
    const res = ex.response;
    // The 429 body is "not shown": the core's 429 rules judge it (RL-429-ERROR-BODY).
    if (!res || res.status === 204 || res.status === 429 || ex.request.method === 'HEAD' || (res.status >= 300 && res.status < 400)) return;
    const ct = res.headers['content-type'];
    const id = 'RESP-CONTENT-TYPE-JSON';
    if (ct !== undefined && MEDIA_JSON.test(ct.trim())) report(RESPONSES.judge(id, { ok: true, message: ct }));
    else if (ct !== undefined && MEDIA_PLUS_JSON.test(ct.trim()))
      report(
        RESPONSES.judge(id, {
          outcome: 'warn',
          title: 'plus-json',
          message: `${res.status} response labelled ${JSON.stringify(ct)}: JSON, but not the application/json the spec names`,
          evidence: { expected: 'application/json', actual: ct },
        }),
      );
    else
      report(
        RESPONSES.judge(id, {
          ok: false,
          message: `${res.status} response labelled ${ct === undefined ? 'with no Content-Type' : JSON.stringify(ct)}`,
          evidence: { expected: 'application/json', actual: ct ?? '(none)' },
        }),
      );
  },
};

const jsonBody: ResponseCheck = {
  name: 'json-body',
  requirements: ['RESP-BODY-JSON'],
  run({ ex, report }) {
    const res = ex.response;
    if (!res || ex.error || res.status === 204 || res.status === 429 || (res.status >= 300 && res.status < 400)) return;
    const id = 'RESP-BODY-JSON';
    if (ex.json !== undefined) report(RESPONSES.judge(id, { ok: true, message: `${res.bodyBytes} bytes` }));
    else if (res.coding?.error)
      report(
        RESPONSES.judge(id, { ok: false, message: res.coding.error, evidence: { expected: 'a JSON document', actual: res.coding.error } }),
      );
    else if (res.bodyText.trim() === '')
      report(
        RESPONSES.judge(id, { ok: false, fail: 'empty', message: `${res.status} response has an empty body; a JSON body was expected` }),
      );
    else
      report(
        RESPONSES.judge(id, {
          ok: false,
          message: ex.jsonError ?? 'the body does not parse as JSON',
          evidence: { expected: 'a JSON document', actual: res.bodyText.slice(0, 120) },
        }),
      );
  },
};

const schema: ResponseCheck = {
  name: 'response-schema-conformance',
  requirements: ['SCHEMA-PETS', 'SCHEMA-PET', 'SCHEMA-ERROR'],
  run({ ex, report }) {
    const res = ex.response;
    if (!res || ex.json === undefined) return;
    const name = schemaFor(ex, res.status);
    if (!name) return;
    const v = validateSchema(name, ex.json);
    const errors = v.errors.slice(0, 5).join('; ');
    report(
      RESPONSES.judge(SCHEMA_REQUIREMENT[name], {
        ok: v.valid,
        message: v.valid ? `${ex.api.operation} ${res.status}` : errors,
        evidence: v.valid ? undefined : { expected: `a ${name}`, actual: errors },
      }),
    );
  },
};

const errorStatus: ResponseCheck = {
  name: 'error-status-field',
  requirements: ['ERROR-STATUS-FIELD', 'ERROR-CODE-VALUES'],
  run({ ex, report }) {
    const res = ex.response;
    const body = ex.json as Record<string, unknown> | undefined;
    if (!res || res.status < 400 || body === null || typeof body !== 'object' || Array.isArray(body)) return;
    if (typeof body.code === 'string')
      report(
        RESPONSES.judge('ERROR-CODE-VALUES', {
          outcome: 'observe',
          title: 'observed',
          message: `${res.status} → code ${JSON.stringify(body.code)}`,
        }),
      );
    if (!('status' in body)) return; // a missing field is the schema check's finding
    // The 429 body is "not shown" (the core's RL-429-ERROR-BODY judges it); undocumented statuses already fail RESP-STATUS-DOCUMENTED.
    if (!isError(res.status)) return;
    const ok = body.status === res.status;
    report(
      RESPONSES.judge('ERROR-STATUS-FIELD', {
        ok,
        message: ok ? String(res.status) : `HTTP ${res.status} but Error.status is ${JSON.stringify(body.status)}`,
        evidence: ok ? undefined : { expected: String(res.status), actual: JSON.stringify(body.status) },
      }),
    );
  },
};

/** A request retried after waiting out a 429's whole Retry-After must not be refused again (else every check of that request would be skipped). */
const retryAfterHonoured: ResponseCheck = {
  name: 'retry-after-honoured',
  requirements: ['RL-RECOVERY'],
  run({ ex, report }) {
    const res = ex.response;
    const waited = ex.afterRetryAfter;
    if (!res || !waited) return;
    const id = 'RL-RECOVERY';
    const auth = ex.api.auth ?? 'valid';
    // Without the run's key the limit is the client address's, shared with whoever else is behind it: a 429 that says
    // the limit is spent (Remaining 0) is not the run's to judge; one that says requests remain is no rate limit at all.
    const spent = readRateLimit(res.headers).remaining === 0;
    if (res.status === 429 && spent && auth !== 'valid' && !(typeof auth === 'object' && 'spelled' in auth))
      return report(
        RATE_LIMIT_LOAD.judge(id, {
          outcome: 'skip',
          title: 'limit-shared-by-address',
          message: `${ex.api.operation} without the run's key was answered 429 again after Retry-After (${waited.retryAfter}): a limit per client address counts every client behind it, so the wait announced need not free it for this one`,
        }),
      );
    const served = res.status !== 429;
    report(
      RATE_LIMIT_LOAD.judge(id, {
        ok: served,
        pass: 'served-after-retry-after',
        fail: 'still-429-after-retry-after',
        message: served
          ? `${ex.api.operation} answered ${res.status} after waiting ${waited.waitedMs} ms (Retry-After: ${waited.retryAfter})`
          : `${ex.api.operation} was answered 429 again after the suite waited ${waited.waitedMs} ms, the whole Retry-After (${waited.retryAfter}) of the previous 429`,
        evidence: served ? undefined : { expected: 'a response other than 429', actual: '429' },
      }),
    );
  },
};

export const RESPONSE_CHECKS: readonly ResponseCheck[] = [
  transport,
  redirect,
  statusCode,
  contentType,
  contentCoding,
  jsonBody,
  schema,
  errorStatus,
  ...rateLimitChecks,
  deprecationCheck,
  retryAfterHonoured,
  ...hygieneChecks,
];

/** Where the checks' judgements go, with the name of the check that made each. */
export type Sink = (check: string, j: Judgement) => void;

/**
 * Run every registered check on one exchange. A check that crashes is a defect
 * of the suite: it is reported as a suite error on the check's requirements,
 * never as a failure of the server.
 */
export function runChecks(ex: ApiExchange, session: CheckSession, sink: Sink, checks: readonly ResponseCheck[] = RESPONSE_CHECKS): void {
  for (const check of checks) {
    try {
      check.run({ ex, session, report: (j) => sink(check.name, j) });
    } catch (e) {
      sink(
        check.name,
        judgeAny(check.requirements[0], {
          outcome: 'error',
          title: 'check-crashed',
          message: `${check.name}: ${(e as Error).message} (a defect of the suite, not of the server)`,
        }),
      );
    }
  }
}
