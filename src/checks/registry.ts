/**
 * The registry of response checks: every response the suite receives goes
 * through every check here (Schemathesis style). One signature:
 * `(ctx: CheckContext) => void`; each check names the requirements it judges
 * and reports each judgement, built by the requirement's section (its titles,
 * its level: a MUST violated fails, a SHOULD warns), through `ctx.report`.
 */
import type { Judgement } from '../core/sections/define.ts';
import { judgeAny } from '../core/catalogue.ts';
import { judgeRetriedAfterWait } from '../core/sections/rate-limit-load/recovery.ts';
import {
  expectedStatuses,
  judgeContentType,
  judgeErrorBody,
  judgeJsonBody,
  judgeSchema,
  judgeStatus,
  judgeUniqueNames,
  schemaFor,
} from '../core/sections/responses/rules.ts';
import { judgeComplete, judgeNoCrossOriginRedirect } from '../core/sections/transport/rules.ts';
import type { ApiExchange } from '../http/client.ts';
import { readRateLimit } from '../core/ratelimit.ts';
import { validateSchema } from '../schemas/ajv.ts';
import { rateLimitChecks } from './rate-limit.ts';
import { deprecationCheck } from './deprecation.ts';
import { hygieneChecks } from './hygiene.ts';
import { contentCoding } from './content-coding.ts';
import { isCrossOrigin } from '../http/transport.ts';
import type { CheckContext, CheckSession, ResponseCheck } from './types.ts';

export type { CheckContext, CheckSession, ResponseCheck };

// Each check reads the facts of an exchange and reports what the rules of its section (src/core/sections/<section>/rules.ts) decide.

/** The statuses this exchange's operation may answer (its request's own latitude included). */
const expectedOf = (ex: ApiExchange) => expectedStatuses(ex.api.operation, ex.api.alsoAcceptable);

const transport: ResponseCheck = {
  name: 'transport-complete-response',
  requirements: ['TRANSPORT-COMPLETE-RESPONSE'],
  run({ ex, report }) {
    report(judgeComplete(ex.error, { status: ex.response?.status, durationMs: ex.durationMs }));
  },
};

const redirect: ResponseCheck = {
  name: 'no-cross-origin-redirect',
  requirements: ['TRANSPORT-NO-CROSS-ORIGIN-REDIRECT'],
  run({ ex, report }) {
    const res = ex.response;
    if (!res) return;
    const location = res.headers.location;
    report(
      judgeNoCrossOriginRedirect({
        status: res.status,
        location,
        crossOrigin: location !== undefined && isCrossOrigin(ex.request.url, location),
      }),
    );
  },
};

const statusCode: ResponseCheck = {
  name: 'status-code-conformance',
  requirements: ['RESP-STATUS-DOCUMENTED'],
  run({ ex, report }) {
    if (ex.response) report(judgeStatus({ operation: ex.api.operation, status: ex.response.status, expected: expectedOf(ex) }));
  },
};

const contentType: ResponseCheck = {
  name: 'content-type-conformance',
  requirements: ['RESP-CONTENT-TYPE-JSON'],
  run({ ex, report }) {
    const res = ex.response;
    const j = res && judgeContentType({ status: res.status, method: ex.request.method, contentType: res.headers['content-type'] });
    if (j) report(j);
  },
};

const jsonBody: ResponseCheck = {
  name: 'json-body',
  requirements: ['RESP-BODY-JSON'],
  run({ ex, report }) {
    const res = ex.response;
    if (!res || ex.error) return;
    const { status, bodyText, bodyBytes } = res;
    const facts = { status, parsed: ex.json !== undefined, bodyText, bodyBytes, jsonError: ex.jsonError, codingError: res.coding?.error };
    const j = judgeJsonBody(facts);
    if (j) report(j);
  },
};

/** Every body that parsed as JSON, whatever its status: an object of it holding a name twice is read differently by clients. */
const uniqueNames: ResponseCheck = {
  name: 'json-unique-names',
  requirements: ['RESP-JSON-UNIQUE-NAMES'],
  run({ ex, report }) {
    if (ex.response && ex.json !== undefined) report(judgeUniqueNames(ex.response.status, ex.jsonDuplicates ?? []));
  },
};

const schema: ResponseCheck = {
  name: 'response-schema-conformance',
  requirements: ['SCHEMA-PETS', 'SCHEMA-PET', 'SCHEMA-ERROR'],
  run({ ex, report }) {
    const res = ex.response;
    if (!res || ex.json === undefined) return;
    const name = schemaFor(ex.api.operation, res.status, expectedOf(ex));
    if (name) report(judgeSchema({ operation: ex.api.operation, status: res.status, schema: name }, validateSchema(name, ex.json)));
  },
};

const errorStatus: ResponseCheck = {
  name: 'error-status-field',
  requirements: ['ERROR-STATUS-FIELD', 'ERROR-CODE-VALUES'],
  run({ ex, report }) {
    const res = ex.response;
    const body = ex.json;
    if (!res || res.status < 400 || body === null || typeof body !== 'object' || Array.isArray(body)) return;
    for (const j of judgeErrorBody(res.status, body)) report(j);
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
    const auth = ex.api.auth ?? 'valid';
    report(
      judgeRetriedAfterWait({
        operation: ex.api.operation,
        status: res.status,
        spent: readRateLimit(res.headers).remaining === 0,
        runsKey: auth === 'valid' || (typeof auth === 'object' && 'spelled' in auth),
        waited,
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
  uniqueNames,
  schema,
  errorStatus,
  ...rateLimitChecks,
  deprecationCheck,
  retryAfterHonoured,
  ...hygieneChecks,
];

/**
 * The checks that apply to a request the spec does not describe (ApiRequest.offSpec): the transport's. What its answer
 * may be is the sending spec's to judge (a 405 is no status of the operation, a HEAD has no body, a CORS preflight no
 * rate-limit headers).
 */
const OFF_SPEC_CHECKS: ReadonlySet<string> = new Set([transport.name, redirect.name]);

/** Where the checks' judgements go, with the name of the check that made each. */
export type Sink = (check: string, j: Judgement) => void;

/**
 * Run every registered check on one exchange. A check that crashes is a defect
 * of the suite: it is reported as a suite error on the check's requirements,
 * never as a failure of the server.
 */
export function runChecks(ex: ApiExchange, session: CheckSession, sink: Sink, checks: readonly ResponseCheck[] = RESPONSE_CHECKS): void {
  for (const check of ex.api.offSpec ? checks.filter((c) => OFF_SPEC_CHECKS.has(c.name)) : checks) {
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
