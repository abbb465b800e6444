/**
 * Run reports for the report tests, built by the real pipeline from the real
 * catalogue (src/core/catalogue.ts): findings → buildReport (aggregate,
 * outcome, notExercised) → applyWaivers → compare. Rate-limit scenarios come
 * from load-fixtures.ts (judged by the real rules).
 *
 * - certifiedReport: every MUST exercised and passed (one SHOULD warning);
 * - incompleteReport: the quick profile — sustained, overload and daily not run;
 * - failingReport: MUST failures with hostile server content and an echo of the
 *   key, an early 429 under load, a waiver, a suite error, a diagnosis and a
 *   comparison with two earlier runs;
 * - unthrottledReport: the ceiling ran but never got a 429.
 */
import { REQUIREMENTS, type RequirementId } from '../../src/core/catalogue.ts';
import type { Evidence, Judgement } from '../../src/core/sections/define.ts';
import { judge, observe, skip, suiteError, withEvidence } from './fixture-judgements.ts';
import type { LoadReport } from '../../src/core/load-report.ts';
import { buildReport, finalize, loadFindings } from '../../src/results/aggregate.ts';
import { compare } from '../../src/results/compare.ts';
import type { Finding, PlanResult, RunReport, Status } from '../../src/results/types.ts';
import { applyWaivers } from '../../src/results/waivers.ts';
import { BASE_URL, earlyThrottleLoad, passingLoad, unthrottledLoad } from './load-fixtures.ts';

export { BASE_URL };
export const SECRET_KEY = 'sk_live_4f9a2c7e1b8d3f60';
export const SPEC_SHA = 'a3f1c9e07b5d2468a3f1c9e07b5d2468a3f1c9e07b5d2468a3f1c9e07b5d2468';
export const NOW = new Date('2025-06-01T12:00:00Z');

/** Content a hostile server might send back, in bodies, headers and messages. */
export const HOSTILE = {
  script: '<script>window.__pwned = 1</script>',
  img: '<img src=x onerror="window.__pwned = 2">',
  cdata: ']]><!-- --> & </testcase>',
  controls: 'bell\u0007 nul\u0000 lone\uD800 surrogate',
  markdown: '[click](javascript:alert(1)) @everyone | ` **bold**',
};

export const found = (j: Judgement, source = `checks/${j.requirement.toLowerCase()}`): Finding => ({
  ...j,
  source,
  at: '2025-06-01T10:00:05.000Z',
});

/** One finding per conformance requirement (a pass, or an observation for INFO), some replaced. */
export function conformance(replace: Record<string, Finding[]> = {}): Finding[] {
  return REQUIREMENTS.filter((q) => q.by === 'conformance').flatMap(
    (q) =>
      replace[q.id] ??
      (q.level === 'INFO'
        ? [found(observe(q.id, q.title, `Observed for ${q.id}: the service answers consistently.`))]
        : [found(judge(q.id, true, q.title, 'as specified'))]),
  );
}

/** Passes of the scenarios the quick profile does not run (sustained, overload, daily) on a plan's key. */
export const fullProfile = (plan = 'free'): Finding[] =>
  (
    [
      ['RL-SUSTAINED-BELOW-CEILING', 'sustained'],
      ['RL-WINDOW-PER-MINUTE', 'overload'],
      ['RL-DAILY-QUOTA', 'daily'],
    ] as const
  ).map(([id, s]) => found(judge(id, true, 'Held', `the ${s} scenario held`), `load: ${s} (${plan}, node engine)`));

interface Options {
  findings: Finding[];
  load?: LoadReport[];
  notes?: string[];
  diagnosis?: string;
  /** Several plans in one run: each plan's result, and the key the conformance run used. */
  plans?: { results: PlanResult[]; conformanceKey: string };
}

/** A report by the real pipeline (buildReport; with plans, finalize across them as the CLI does). */
export function report(o: Options): RunReport {
  const built = buildReport({
    kind: 'certification',
    suiteVersion: '0.1.0',
    specSha256: SPEC_SHA,
    target: { env: 'production', baseUrl: BASE_URL, plan: 'free', embedded: false },
    startedAt: new Date('2025-06-01T10:00:00.000Z'),
    endedAt: new Date('2025-06-01T10:02:00.000Z'),
    requestsSent: 412,
    findings: [...o.findings, ...(o.load ?? []).flatMap(loadFindings)],
    notes: o.notes ?? ['Writes were allowed (ANIMAL_STORE_ALLOW_WRITES=true).'],
    ...(o.load ? { load: o.load } : {}),
    ...(o.diagnosis ? { diagnosis: o.diagnosis } : {}),
  });
  return o.plans ? finalize({ ...built, plans: o.plans.results, conformanceKey: o.plans.conformanceKey }) : built;
}

const getPet: Evidence = {
  request: { method: 'GET', url: `${BASE_URL}/pets/1`, headers: { authorization: 'Bearer [REDACTED]' }, credential: 'key' },
  response: {
    status: 200,
    headers: { 'content-type': 'application/json', 'x-ratelimit-remaining': '41' },
    body: '{"id":1,"name":"Rex","categoryId":3,"status":"available"}',
  },
  expected: 'a Deprecation, Sunset or deprecation Link header',
  actual: 'none of them',
};
export const deprecationWarning = () =>
  found(withEvidence(judge('DEPRECATION-SIGNALLED', false, 'Missing deprecation signal', 'getPet carries no Deprecation header'), getPet));

/** Every MUST exercised and passed; one SHOULD warning. */
export const certifiedReport = (): RunReport =>
  report({ findings: [...conformance({ 'DEPRECATION-SIGNALLED': [deprecationWarning()] }), ...fullProfile()], load: passingLoad() });

/** The quick profile: no MUST failed, but the sustained, overload and daily scenarios did not run. */
export const incompleteReport = (): RunReport => report({ findings: conformance(), load: passingLoad() });

/** The ceiling ran to its cap without a 429: RL-CEILING-429 failed, what a 429 must carry was not judged. */
export const unthrottledReport = (): RunReport => report({ findings: [...conformance(), ...fullProfile()], load: unthrottledLoad() });

export const LONG_BODY = `{"pets":[${Array.from({ length: 60 }, (_, i) => `{"id":"${i}","name":"pet number ${i}"}`).join(',')}],"end":"END-OF-BODY"}`;

function failures(): Record<string, Finding[]> {
  const fail = (id: RequirementId, title: string, message: string, ev: Evidence) => [
    found(withEvidence(judge(id, false, title, message), ev)),
  ];
  return {
    'AUTH-MISSING-401': fail(
      'AUTH-MISSING-401',
      'Unauthenticated request accepted',
      `GET /pets without Authorization answered 200 ${HOSTILE.img}`,
      {
        request: { method: 'GET', url: `${BASE_URL}/pets`, headers: { accept: 'application/json' }, credential: 'none' },
        response: {
          status: 200,
          headers: { 'content-type': 'text/html', 'x-echo': `Bearer ${SECRET_KEY}` },
          body: `<html>${HOSTILE.script}${HOSTILE.cdata} key=${SECRET_KEY}</html>`,
          bodyTruncated: true,
        },
        expected: '401 with an Error body',
        actual: `200 ${HOSTILE.controls}`,
      },
    ),
    'AUTH-WRONG-SCHEME-401': fail('AUTH-WRONG-SCHEME-401', 'Basic credentials accepted', 'Authorization: Basic … answered 200', {
      request: { method: 'GET', url: `${BASE_URL}/pets`, headers: { authorization: 'Basic [REDACTED]' }, credential: 'other' },
      response: { status: 200, headers: { 'content-type': 'application/json' }, body: LONG_BODY },
    }),
    'SCHEMA-PET': fail('SCHEMA-PET', 'Pet schema violation', '/id must be integer', {
      request: {
        method: 'POST',
        url: `${BASE_URL}/pets`,
        headers: { authorization: 'Bearer [REDACTED]', 'content-type': 'application/json' },
        body: `{"name":"Rex's","categoryId":1}`,
        credential: 'key',
      },
      response: { status: 201, headers: { 'content-type': 'application/json' }, body: '{"id":"12","name":"Rex","categoryId":1}' },
      expected: 'id: integer (int64)',
      actual: 'id: "12" (string)',
    }),
    'TRANSPORT-COMPLETE-RESPONSE': fail('TRANSPORT-COMPLETE-RESPONSE', 'Timeout', 'no response within 10000 ms', {
      request: { method: 'GET', url: `${BASE_URL}/pets?limit=100`, headers: {}, credential: 'key' },
      error: 'timeout after 10000 ms',
    }),
    'LIST-LIMIT-FILLS-PAGE': [
      found(
        withEvidence(judge('LIST-LIMIT-FILLS-PAGE', false, 'Short page', `limit=20 returned 7 animals ${HOSTILE.markdown}`), {
          expected: '20 animals',
          actual: '7',
        }),
      ),
    ],
    'GET-NON-INTEGER-ID-4XX': [found(judge('GET-NON-INTEGER-ID-4XX', false, '5xx on a non-integer id', 'GET /pets/abc answered 500'))],
    'CREATE-ID-UNIQUE': [found(skip('CREATE-ID-UNIQUE', 'Writes disabled', 'writes are not allowed on production', '--allow-writes'))],
    'CREATE-400-BAD-BODY': [found(suiteError('CREATE-400-BAD-BODY', 'Check crashed', 'TypeError: body is undefined'))],
  };
}

/**
 * The report compared (by the real compare) with earlier runs, newest first,
 * each given as the statuses that differed from this run's.
 */
export function comparedWith(r: RunReport, ...earlier: Record<string, Status>[]): RunReport {
  const past = earlier.map((change, i) => ({
    file: `reports/runs/${earlier.length - i}/certification.json`,
    startedAt: `2025-05-${31 - i}T10:00:00.000Z`,
    outcome: 'not-conformant' as const,
    statuses: Object.fromEntries(r.requirements.map((q) => [q.id, change[q.id] ?? q.status])),
  }));
  const comparison = compare(r, past);
  return comparison ? { ...r, comparison } : r;
}

/** MUST failures, hostile content, an early 429, a waiver, a suite error, a diagnosis and a comparison. */
export function failingReport(): RunReport {
  const r = report({
    findings: [...conformance(failures()), ...fullProfile()],
    load: earlyThrottleLoad(),
    notes: ['Writes were allowed (ANIMAL_STORE_ALLOW_WRITES=true).', `Server banner: ${HOSTILE.script}`],
    diagnosis: `GET ${BASE_URL}/pets without a key answered 200 text/html: is the base URL an HTML front end?`,
  });
  const waived = applyWaivers(
    r,
    [{ id: 'GET-NON-INTEGER-ID-4XX', reason: `Known gap, fixed in 2.4 ${HOSTILE.script}`, expires: '2099-12-31' }],
    {
      now: NOW,
    },
  );
  return comparedWith(
    waived,
    { 'SCHEMA-PET': 'pass', 'RESP-BODY-JSON': 'fail', 'LIST-LIMIT-FILLS-PAGE': 'pass' },
    { 'SCHEMA-PET': 'pass', 'LIST-LIMIT-FILLS-PAGE': 'warn' },
  );
}

/** Requirements set to a status (findings kept), outcome and counts recomputed. */
export function withStatus(r: RunReport, ids: readonly string[], status: Status): RunReport {
  return finalize({ ...r, requirements: r.requirements.map((q) => (ids.includes(q.id) ? { ...q, status } : q)) });
}

export const interrupted = (r: RunReport): RunReport => finalize({ ...r, interrupted: true, abort: 'interrupted by the user (SIGINT)' });
export const aborted = (r: RunReport, reason = 'target unreachable: ECONNREFUSED'): RunReport => finalize({ ...r, abort: reason });
export const withoutPlan = (r: RunReport): RunReport => ({ ...r, target: { ...r.target, plan: undefined } });
export function conformanceOnly(r: RunReport): RunReport {
  const { load: _load, ...rest } = r;
  return finalize({ ...rest, kind: 'conformance' });
}

/** Every MUST exercised; RESP-CONTENT-TYPE-JSON warned (errors labelled application/problem+json): passed, incomplete. */
export const warnedMustReport = (): RunReport =>
  report({
    findings: [
      ...conformance({
        'RESP-CONTENT-TYPE-JSON': [
          found({
            requirement: 'RESP-CONTENT-TYPE-JSON',
            outcome: 'warn',
            title: 'A +json type instead of application/json',
            message: '401 response labelled "application/problem+json": JSON, but not the application/json the spec names',
            evidence: { expected: 'application/json', actual: 'application/problem+json' },
          }),
        ],
      }),
      ...fullProfile(),
    ],
    load: passingLoad(),
  });

/** The key was refused: every authenticated request answered 401, the run stopped (exit 5). */
export const keyRefusedReport = (): RunReport =>
  finalize({
    ...withStatus(incompleteReport(), ['AUTH-VALID-KEY-ACCEPTED'], 'fail'),
    keyRefused: true,
    abort: 'the API key was refused: all 3 authenticated requests were answered 401',
    diagnosis: 'the API key was refused (every authenticated request was answered 401): check ANIMAL_STORE_API_KEY and the base URL',
  });
