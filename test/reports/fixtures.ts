/**
 * Report fixtures built from the real catalogue: a passing certification run, a
 * failing one (with hostile server content in its evidence), and helpers to
 * derive variants (interrupted, aborted, conformance-only).
 */
import { REQUIREMENTS, type Requirement } from '../../src/core/catalogue.ts';
import type { Finding, Outcome, RequirementResult, RunReport, Status } from '../../src/results/types.ts';
import type { LoadRun, TimelinePoint } from '../../src/results/writers/load-runs.ts';

export const SECRET_KEY = 'sk_live_4f9a2c7e1b8d3f60';
export const SPEC_SHA = 'a3f1c9e07b5d2468a3f1c9e07b5d2468a3f1c9e07b5d2468a3f1c9e07b5d2468';

/** Content a hostile server might send back, in bodies, headers and messages. */
export const HOSTILE = {
  script: '<script>window.__pwned = 1</script>',
  img: '<img src=x onerror="window.__pwned = 2">',
  cdata: ']]><!-- --> & </testcase>',
  controls: 'bell\u0007 nul\u0000 lone\uD800 surrogate',
  markdown: '[click](javascript:alert(1)) @everyone | ` **bold**',
};

const counts = (o: Partial<Record<Outcome, number>> = {}): Record<Outcome, number> => ({ pass: 0, fail: 0, warn: 0, skip: 0, observe: 0, ...o });

function result(q: Requirement, status: Status, findings: Finding[], observations: string[] = []): RequirementResult {
  const c = counts();
  for (const f of findings) c[f.outcome]++;
  if (status === 'pass' && c.pass === 0 && q.level !== 'INFO') c.pass = 1;
  return { id: q.id, level: q.level, title: q.title, section: q.section, quote: q.quote, area: q.area, status, counts: c, findings, observations };
}

const passFinding = (q: Requirement): Finding => ({ requirement: q.id, outcome: 'pass', title: q.title, message: 'as specified', source: 'fixture' });

export function finding(id: string, outcome: Outcome, title: string, message: string, evidence?: Finding['evidence']): Finding {
  return { requirement: id, outcome, title, message, source: `checks/${id.toLowerCase()}`, at: '2025-06-01T10:00:05.000Z', ...(evidence ? { evidence } : {}) };
}

function baseResult(q: Requirement): RequirementResult {
  if (q.id === 'RL-DAILY-QUOTA') return result(q, 'skip', [finding(q.id, 'skip', 'Opt-in scenario', 'the daily scenario was not requested')]);
  if (q.level === 'INFO') return result(q, 'pass', [], [`Observed for ${q.id}: the service answers consistently.`]);
  return result(q, 'pass', [passFinding(q)]);
}

export function recount(report: RunReport): RunReport {
  const c: Record<Status, number> = { pass: 0, fail: 0, warn: 0, skip: 0, waived: 0 };
  for (const r of report.requirements) c[r.status]++;
  const fail = report.requirements.some((r) => r.level === 'MUST' && r.status === 'fail');
  return { ...report, counts: c, verdict: fail || report.abort ? 'fail' : 'pass' };
}

/** Timeline of the ceiling scenario on a plan of `limit` per minute: 429 after `at` requests. */
export function ceilingTimeline(limit: number, at: number, retryAfter = 30): TimelinePoint[] {
  const reset = 1_748_772_060;
  const points: TimelinePoint[] = [];
  for (let i = 0; i < at; i++) points.push({ t: i * 100, status: 200, remaining: limit - 1 - i, limit, reset });
  points.push({ t: at * 100, status: 429, remaining: 0, limit, reset, retryAfter });
  points.push({ t: at * 100 + retryAfter * 1000 + 50, status: 200, remaining: limit - 1, limit, reset: reset + 60 });
  return points;
}

export function loadRun(scenario: string, verdict: 'pass' | 'fail', timeline: TimelinePoint[], verdicts: LoadRun['verdicts']): LoadRun {
  return {
    scenario, plan: 'free', engine: 'node', target: 'https://api.animal-store.example/v1',
    startedAt: '2025-06-01T10:01:00.000Z', endedAt: '2025-06-01T10:01:40.000Z', verdict,
    requestsSent: timeline.length, verdicts, timeline,
    stoppedBecause: verdict === 'pass' ? 'done' : 'request cap reached', notes: [],
  };
}

function base(kind: RunReport['kind'] = 'certification'): RunReport {
  return recount({
    kind, suiteVersion: '0.1.0', specSha256: SPEC_SHA,
    target: { env: 'production', baseUrl: 'https://api.animal-store.example/v1', plan: 'free', embedded: false },
    startedAt: '2025-06-01T10:00:00.000Z', endedAt: '2025-06-01T10:02:00.000Z',
    interrupted: false, verdict: 'pass', counts: { pass: 0, fail: 0, warn: 0, skip: 0, waived: 0 },
    requestsSent: 412, requirements: REQUIREMENTS.map(baseResult), notes: ['Writes were allowed (ANIMAL_STORE_ALLOW_WRITES=true).'],
  });
}

/** Replace some requirements' results (by id) and recount. */
export function withResults(report: RunReport, changes: Record<string, (r: RequirementResult) => RequirementResult>): RunReport {
  return recount({ ...report, requirements: report.requirements.map((r) => (changes[r.id] ? changes[r.id](r) : r)) });
}

const warned = (title: string, message: string, evidence?: Finding['evidence']) => (r: RequirementResult): RequirementResult =>
  ({ ...r, status: 'warn', counts: counts({ warn: 1, pass: 3 }), findings: [finding(r.id, 'warn', title, message, evidence)] });

export function passingReport(): RunReport {
  const r = withResults(base(), { 'DEPRECATION-SIGNALLED': warned('Missing deprecation signal', 'getPet responses carry no Deprecation, Sunset or Link header', {
    request: { method: 'GET', url: 'https://api.animal-store.example/v1/pets/1', headers: { authorization: 'Bearer [REDACTED]' } },
    response: { status: 200, headers: { 'content-type': 'application/json', 'x-ratelimit-remaining': '41' }, body: '{"id":1,"name":"Rex","categoryId":3,"status":"available"}' },
    expected: 'a Deprecation, Sunset or deprecation Link header', actual: 'none of them',
  }) });
  return {
    ...r,
    load: [
      loadRun('ceiling', 'pass', ceilingTimeline(60, 60), [
        { requirement: 'RL-CEILING-429', outcome: 'pass', title: '429 at the ceiling', message: 'request 61 was answered 429' },
        { requirement: 'RL-NOT-EARLY', outcome: 'pass', title: 'No early throttling', message: '60 requests accepted' },
      ]),
      loadRun('recovery', 'pass', ceilingTimeline(60, 60, 12), [
        { requirement: 'RL-RECOVERY', outcome: 'pass', title: 'Recovered after Retry-After', message: 'next request 200' },
      ]),
    ],
  };
}

/** A failing run whose evidence carries hostile content and an echo of the API key. */
export function failingReport(): RunReport {
  const failed = (title: string, message: string, ev: Finding['evidence']) => (r: RequirementResult): RequirementResult =>
    ({ ...r, status: 'fail', counts: counts({ fail: 2, pass: 5 }), findings: [finding(r.id, 'fail', title, message, ev)] });
  const r = withResults(base(), {
    'AUTH-MISSING-401': failed('Unauthenticated request accepted', `GET /pets without Authorization answered 200 ${HOSTILE.img}`, {
      request: { method: 'GET', url: 'https://api.animal-store.example/v1/pets', headers: { accept: 'application/json' } },
      response: { status: 200, headers: { 'content-type': 'text/html', 'x-echo': `Bearer ${SECRET_KEY}` }, body: `<html>${HOSTILE.script}${HOSTILE.cdata} key=${SECRET_KEY}</html>`, bodyTruncated: true },
      expected: '401 with an Error body', actual: `200 ${HOSTILE.controls}`,
    }),
    'SCHEMA-PET': failed('Pet schema violation', '/id must be integer', {
      request: { method: 'POST', url: 'https://api.animal-store.example/v1/pets', headers: { authorization: 'Bearer [REDACTED]', 'content-type': 'application/json' }, body: '{"name":"Rex","categoryId":1}' },
      response: { status: 201, headers: { 'content-type': 'application/json' }, body: '{"id":"12","name":"Rex","categoryId":1}' },
      expected: 'id: integer (int64)', actual: 'id: "12" (string)',
    }),
    'TRANSPORT-COMPLETE-RESPONSE': failed('Timeout', 'no response within 10000 ms', { request: { method: 'GET', url: 'https://api.animal-store.example/v1/pets?limit=100', headers: {} }, error: 'timeout after 10000 ms' }),
    'RL-NOT-EARLY': failed('Throttled early', `429 while X-RateLimit-Remaining was 10 ${HOSTILE.markdown}`, { expected: 'no 429 while Remaining > 0', actual: '429 at Remaining 10' }),
    'LIST-LIMIT-FILLS-PAGE': warned('Short page', 'limit=20 returned 7 animals although 30 exist', { expected: '20 animals', actual: '7 animals' }),
    'GET-NON-INTEGER-ID-4XX': (x) => ({ ...warned('5xx on a non-integer id', 'GET /pets/abc answered 500')(x), status: 'waived', waiver: { reason: `Known gap, fixed in 2.4 ${HOSTILE.script}`, expires: '2099-12-31' } }),
    'CREATE-ID-UNIQUE': (x) => ({ ...x, status: 'skip', counts: counts({ skip: 1 }), findings: [finding(x.id, 'skip', 'Writes disabled', 'writes are not allowed on production')] }),
  });
  const early: TimelinePoint[] = ceilingTimeline(60, 50).map((p, i) => (i === 50 ? { ...p, remaining: 10 } : p));
  early.splice(20, 0, { t: 2050, status: 500, remaining: 40, limit: 60 });
  return {
    ...r,
    notes: [...r.notes, `Server banner: ${HOSTILE.script}`],
    load: [
      loadRun('ceiling', 'fail', early, [
        { requirement: 'RL-NOT-EARLY', outcome: 'fail', title: 'Throttled early', message: `429 at Remaining 10 ${HOSTILE.img}` },
        { requirement: 'RL-CEILING-429', outcome: 'pass', title: '429 at the ceiling', message: 'a 429 came' },
      ]),
    ],
  };
}

export const interrupted = (r: RunReport): RunReport => ({ ...r, interrupted: true, abort: 'interrupted by the user (SIGINT)', verdict: 'fail' });
export const aborted = (r: RunReport, reason = 'target unreachable: ECONNREFUSED'): RunReport => ({ ...r, abort: reason, verdict: 'fail' });
export const conformanceOnly = (r: RunReport): RunReport => {
  const { load: _load, ...rest } = r;
  return { ...rest, kind: 'conformance' };
};
