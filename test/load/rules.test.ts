/**
 * The core's rate-limit judgements on hand-made sample sequences (each
 * scenario's judge = its own judgements plus the per-response rules on every
 * sample), the load report and its JUnit, the k6 carriage of judgements, and
 * the scenario table against the catalogue.
 */
import { describe, expect, it } from 'vitest';
import { REQUIREMENTS } from '../../src/core/catalogue.ts';
import { buildLoadReport, loadJunit, timeline } from '../../src/core/load-report.ts';
import { ceilingFacts } from '../../src/core/rules/ceiling-facts.ts';
import { judgeResponses } from '../../src/core/rules/samples.ts';
import { maxInSpan } from '../../src/core/rules/window.ts';
import { SCENARIO_INFO } from '../../src/core/scenarios.ts';
import { scenarioOptions } from '../../load/lib/config.ts';
import { SCENARIOS } from '../../load/lib/scenarios.ts';
import type { Sample } from '../../load/lib/types.ts';
import { carry, readCarriage } from '../../load/k6/summary.ts';

const W = 60000;
const L = 10;
const T0 = Date.UTC(2030, 0, 1, 12, 0, 0);
const o = scenarioOptions({ plan: 'enterprise', perMinute: L, perDay: 50, windowMs: W });
/** A scenario's whole judgement of the samples (its own judgements and the per-response rules). */
const judgeCeiling = (seq: readonly Sample[], opts = o) => SCENARIOS.ceiling.judge(seq, opts, undefined);
const judgeWindow = (seq: readonly Sample[], opts = o) => SCENARIOS.overload.judge(seq, opts, undefined);
const judgeSustained = (seq: readonly Sample[], opts = o) => SCENARIOS.sustained.judge(seq, opts, undefined);
const judgeDaily = (seq: readonly Sample[], opts = o) => SCENARIOS.daily.judge(seq, opts, undefined);

function s(
  seq: number,
  at: number,
  status: number,
  h: Record<string, string | number | undefined> = {},
  phase: Sample['phase'] = 'ceiling',
  body?: string,
): Sample {
  const headers: Record<string, string> = { date: new Date(at).toUTCString() };
  for (const [k, v] of Object.entries(h)) if (v !== undefined) headers[k] = String(v);
  return { seq, phase, sentAt: at - 5, t: at, status, headers, ...(body !== undefined ? { body } : {}) };
}
const rl = (remaining: number | undefined, reset = Math.ceil((T0 + W) / 1000), limit = L) => ({
  'x-ratelimit-limit': limit,
  'x-ratelimit-remaining': remaining,
  'x-ratelimit-reset': reset,
});
const errorBody = JSON.stringify({ code: 'rate_limited', message: 'slow down', status: 429 });
/** A fresh window: L successes then a 429. */
function ceilingRun(extra429: Record<string, string | number | undefined> = {}, body = errorBody): Sample[] {
  const out: Sample[] = [];
  for (let i = 0; i < L; i++) out.push(s(i, T0 + 10 * i, 200, rl(L - 1 - i)));
  out.push(s(L, T0 + 10 * L, 429, { ...rl(0), 'retry-after': 60, ...extra429 }, 'ceiling', body));
  return out;
}
const find = (vs: { requirement: string; outcome: string }[], req: string) => vs.filter((v) => v.requirement === req).map((v) => v.outcome);

describe('ceiling verdicts', () => {
  it('fails one success too many in a window even when the last requests were in flight together and counted out of order', () => {
    // A busy machine: the last three requests went out at once; the server counted the last one sent first (Remaining 1).
    const seq: Sample[] = [];
    for (let i = 0; i < L - 2; i++) seq.push(s(i, T0 + 10 * i, 200, rl(L - 1 - i)));
    const at = T0 + 10 * L;
    seq.push({ ...s(L - 2, at + 100, 200, rl(0)), sentAt: at });
    seq.push({ ...s(L - 1, at + 110, 200, rl(0)), sentAt: at });
    seq.push({ ...s(L, at + 90, 200, rl(1)), sentAt: at });
    expect(find(judgeCeiling(seq), 'RL-CEILING-429')).toEqual(['fail']);
  });

  it('passes a 429 exactly after Remaining 0 with every header, body and a consistent Reset', () => {
    const vs = judgeCeiling(ceilingRun(), o);
    expect(vs.filter((v) => v.outcome !== 'pass' && v.outcome !== 'observe')).toEqual([]);
    for (const r of [
      'RL-CEILING-429',
      'RL-NOT-EARLY',
      'RL-LIMIT-PLAN',
      'RL-REMAINING-DECREMENTS',
      'RL-429-RETRY-AFTER',
      'RL-429-REMAINING-ZERO',
      'RL-429-ERROR-BODY',
      'RL-HEADERS-PRESENT',
      'RL-RESET-UNIX-SECONDS',
      'RL-RETRY-AFTER-CONSISTENT',
    ])
      expect(find(vs, r)).toEqual(['pass']);
  });

  it('passes a window that rolls over right after the first request (Remaining equal, Reset later)', () => {
    const next = Math.ceil((T0 + W) / 1000);
    const seq = [s(0, T0 - 10, 200, rl(L - 1, next - W / 1000))];
    for (let i = 0; i < L; i++) seq.push(s(i + 1, T0 + 10 * i, 200, rl(L - 1 - i, next)));
    seq.push(s(L + 1, T0 + 10 * L, 429, { ...rl(0, next), 'retry-after': 60 }, 'ceiling', errorBody));
    const vs = judgeCeiling(seq, o);
    expect(vs.filter((v) => v.outcome !== 'pass' && v.outcome !== 'observe')).toEqual([]);
  });

  it('still fails Remaining that does not fall while Reset stays put', () => {
    const seq = ceilingRun().map((x, i) => (i < L ? s(i, x.t, 200, rl(L)) : x));
    expect(find(judgeCeiling(seq, o), 'RL-REMAINING-DECREMENTS')).toEqual(['fail']);
  });

  it('credits another client on the key: Remaining falls by more than one at some steps, the 429 comes at Remaining 0', () => {
    // 7 of this scenario's requests and 3 of another client's fill the window of 10.
    const rems = [9, 8, 6, 5, 4, 2, 0];
    const seq = rems.map((r, i) => s(i, T0 + 10 * i, 200, rl(r)));
    seq.push(s(7, T0 + 80, 429, { ...rl(0), 'retry-after': 60 }, 'ceiling', errorBody));
    const vs = judgeCeiling(seq, o);
    expect(vs.filter((v) => v.outcome !== 'pass' && v.outcome !== 'observe')).toEqual([]);
    expect(vs.find((v) => v.requirement === 'RL-CEILING-429')!.message).toContain('another client');
  });

  it('does not credit a server that counts every request twice', () => {
    const seq = [8, 6, 4, 2, 0].map((r, i) => s(i, T0 + 10 * i, 200, rl(r)));
    seq.push(s(5, T0 + 60, 429, { ...rl(0), 'retry-after': 60 }, 'ceiling', errorBody));
    expect(find(judgeCeiling(seq, o), 'RL-REMAINING-DECREMENTS')).toEqual(['fail']);
  });

  it('accepts headers that count the day: Limit is the per-day quota, the 429 comes after the per-minute limit', () => {
    const day = Math.ceil((T0 + 86400000) / 1000);
    const seq = Array.from({ length: L }, (_, i) => s(i, T0 + 10 * i, 200, rl(40 - i, day, 50)));
    seq.push(s(L, T0 + 10 * L, 429, { ...rl(40 - L, day, 50), 'retry-after': 60 }, 'ceiling', errorBody));
    const vs = judgeCeiling(seq, o);
    expect(vs.filter((v) => v.outcome === 'fail' || v.outcome === 'warn')).toEqual([]);
    for (const r of ['RL-LIMIT-PLAN', 'RL-CEILING-429', 'RL-NOT-EARLY', 'RL-RESET-UNIX-SECONDS']) expect(find(vs, r)).toEqual(['pass']);
  });

  it('fails a 429 whose Reset is its own Date while Retry-After asks to wait', () => {
    const now = Math.floor(T0 / 1000) + 1;
    const seq = ceilingRun({ 'x-ratelimit-reset': now, date: new Date(now * 1000).toUTCString() });
    expect(find(judgeCeiling(seq, o), 'RL-RESET-UNIX-SECONDS')).toEqual(['fail']);
  });

  it('accepts Retry-After as an HTTP-date, measured against the Date header', () => {
    const at = new Date(Math.ceil((T0 + W) / 1000) * 1000).toUTCString();
    const vs = judgeCeiling(ceilingRun({ 'retry-after': at }), o);
    expect(find(vs, 'RL-429-RETRY-AFTER')).toEqual(['pass']);
    expect(find(vs, 'RL-RETRY-AFTER-CONSISTENT')).toEqual(['pass']);
  });

  it('fails throttling while Remaining > 0 as early (RL-NOT-EARLY)', () => {
    const seq = ceilingRun().slice(0, 6);
    seq.push(s(6, T0 + 60, 429, { ...rl(4), 'retry-after': 60 }, 'ceiling', errorBody));
    const vs = judgeCeiling(seq, o);
    expect(find(vs, 'RL-NOT-EARLY')).toEqual(['fail']);
    expect(find(vs, 'RL-429-REMAINING-ZERO')).toEqual(['warn']);
  });

  it('fails a success after Remaining 0 (RL-CEILING-429) without blaming the decrement', () => {
    const seq = ceilingRun().slice(0, L);
    seq.push(s(L, T0 + 200, 200, rl(0)));
    const vs = judgeCeiling(seq, o);
    expect(find(vs, 'RL-CEILING-429')).toEqual(['fail']);
    expect(find(vs, 'RL-REMAINING-DECREMENTS')).toEqual(['pass']);
  });

  it('fails a Remaining that does not fall and attributes it to RL-REMAINING-DECREMENTS', () => {
    const seq = ceilingRun().map((x) => (x.status === 200 ? { ...x, headers: { ...x.headers, 'x-ratelimit-remaining': String(L) } } : x));
    const vs = judgeCeiling(seq, o);
    expect(find(vs, 'RL-REMAINING-DECREMENTS')).toEqual(['fail']);
    expect(find(vs, 'RL-NOT-EARLY')).toEqual(['pass']);
  });

  it('warns on SHOULD problems of the 429: Remaining above 0, a non-Error body, Retry-After beyond Reset', () => {
    const vs = judgeCeiling(
      ceilingRun({ 'x-ratelimit-remaining': 1, 'retry-after': 45, 'x-ratelimit-reset': Math.ceil(T0 / 1000) + 30 }, '{"message":"no"}'),
      o,
    );
    expect(find(vs, 'RL-429-REMAINING-ZERO')).toEqual(['warn']);
    expect(find(vs, 'RL-429-ERROR-BODY')).toEqual(['warn']);
    expect(find(vs, 'RL-RETRY-AFTER-CONSISTENT')).toEqual(['warn']);
  });

  it('fails a missing or invalid Retry-After and a Reset in milliseconds', () => {
    expect(find(judgeCeiling(ceilingRun({ 'retry-after': undefined }), o), 'RL-429-RETRY-AFTER')).toEqual(['fail']);
    expect(find(judgeCeiling(ceilingRun({ 'retry-after': 'soon' }), o), 'RL-429-RETRY-AFTER')).toEqual(['fail']);
    const ms = judgeResponses([ceilingRun({ 'x-ratelimit-reset': T0 + W })[L]], o);
    expect(find(ms, 'RL-RESET-UNIX-SECONDS')).toEqual(['fail']);
  });

  it('flags a Limit other than the plan and throttling before the plan count on a fresh window', () => {
    const seq: Sample[] = [];
    for (let i = 0; i < 8; i++) seq.push(s(i, T0 + i, 200, rl(7 - i, undefined, 8)));
    seq.push(s(8, T0 + 9, 429, { ...rl(0, undefined, 8), 'retry-after': 60 }, 'ceiling', errorBody));
    const vs = judgeCeiling(seq, o);
    expect(find(vs, 'RL-LIMIT-PLAN')).toEqual(['fail']);
    expect(find(vs, 'RL-NOT-EARLY')).toEqual(['fail']); // Remaining said 0, but the plan allows 10
    expect(find(vs, 'RL-CEILING-429')).toEqual(['fail']);
  });

  it('tolerates responses that arrive out of order while pipelined', () => {
    const seq = ceilingRun();
    [seq[3].headers['x-ratelimit-remaining'], seq[4].headers['x-ratelimit-remaining']] = [
      seq[4].headers['x-ratelimit-remaining'],
      seq[3].headers['x-ratelimit-remaining'],
    ];
    const f = ceilingFacts(seq, o);
    expect(f.badSteps).toEqual([]);
    expect(find(judgeCeiling(seq, o), 'RL-CEILING-429')).toEqual(['pass']);
  });

  it('orders requests that crossed a window boundary out of send order by the window they were counted in', () => {
    // #5 reached the server just after the boundary, #6 (sent right after it) just before.
    const r1 = Math.ceil((T0 + W) / 1000);
    const r2 = Math.ceil((T0 + 2 * W) / 1000);
    const seq = [0, 1, 2, 3, 4].map((i) => s(i, T0 + W - 50 + i, 200, rl(5 - i, r1)));
    seq.push(s(5, T0 + W + 5, 200, rl(L - 1, r2)), s(6, T0 + W + 5, 200, rl(0, r1)));
    for (let i = 1; i < L; i++) seq.push(s(6 + i, T0 + W + 10 + i, 200, rl(L - 1 - i, r2)));
    seq.push(s(6 + L, T0 + W + 50, 429, { ...rl(0, r2), 'retry-after': 60 }, 'ceiling', errorBody));
    const vs = judgeCeiling(seq, o);
    expect(vs.filter((v) => v.outcome !== 'pass' && v.outcome !== 'observe')).toEqual([]);
  });

  it('splits windows at a rollover: a new window is not an unpredicted success', () => {
    const seq = ceilingRun().slice(0, 5);
    const next = Math.ceil((T0 + 2 * W) / 1000);
    for (let i = 0; i < L; i++) seq.push(s(5 + i, T0 + W + i, 200, rl(L - 1 - i, next)));
    seq.push(s(5 + L, T0 + W + 50, 429, { ...rl(0, next), 'retry-after': 60 }, 'ceiling', errorBody));
    const vs = judgeCeiling(seq, o);
    expect(vs.filter((v) => v.outcome === 'fail')).toEqual([]);
  });
});

describe('a key refused at once', () => {
  const twice = (retryAfter: number) => [
    s(0, T0, 429, { ...rl(0), 'retry-after': 1 }, 'ceiling', errorBody),
    s(1, T0 + W + 2000, 429, { ...rl(0), 'retry-after': retryAfter }, 'ceiling', errorBody),
  ];
  it('fails RL-NOT-EARLY when the key is refused again after a full idle window with an ordinary wait', () => {
    expect(find(judgeCeiling(twice(1), o), 'RL-NOT-EARLY')).toEqual(['fail']);
  });
  it('does not judge RL-NOT-EARLY when the second 429 asks to wait longer than a window (a temporary ban)', () => {
    expect(find(judgeCeiling(twice(600), o), 'RL-NOT-EARLY')).toEqual(['skip']);
  });
});

describe('window verdicts', () => {
  const paced = (times: number[], status = 200) =>
    times.map((t, i) => s(i, t, status, rl(0, Math.ceil(((Math.floor(t / W) + 1) * W) / 1000)), 'paced'));
  it('counts successes in any span', () => {
    expect(maxInSpan(paced([0, 10, 20, 30, 1000].map((x) => T0 + x)), 25).count).toBe(3);
  });

  it('passes a fixed window that lets 2 × limit through across a boundary, fails more', () => {
    const ok = paced([...Array(L).keys()].map((i) => T0 + W - 100 + i).concat([...Array(L).keys()].map((i) => T0 + W + i)));
    ok.push(s(ok.length, T0 + W + 50, 429, { ...rl(0), 'retry-after': 60 }, 'paced', errorBody));
    expect(find(judgeWindow(ok, o), 'RL-WINDOW-PER-MINUTE')).toEqual(['pass']);
    const bad = paced([...Array(3 * L).keys()].map((i) => T0 + i * 100));
    expect(find(judgeWindow(bad, o), 'RL-WINDOW-PER-MINUTE')).toEqual(['fail']);
  });

  it('does not group by Reset when the headers count the day: every success of the day shares one Reset', () => {
    const day = Math.ceil((T0 + 86400000) / 1000);
    const times = [...Array(L).keys()].map((i) => T0 + W - 100 + i).concat([...Array(L).keys()].map((i) => T0 + W + i));
    const seq = times.map((t, i) => s(i, t, 200, rl(40 - i, day, 50), 'paced'));
    seq.push(s(seq.length, T0 + W + 50, 429, { ...rl(40 - 2 * L, day, 50), 'retry-after': 60 }, 'paced', errorBody));
    expect(find(judgeWindow(seq, o), 'RL-WINDOW-PER-MINUTE')).toEqual(['pass']);
    const perMinute = times.map((t, i) => s(i, t, 200, rl(40 - i, day), 'paced'));
    expect(find(judgeWindow(perMinute, o), 'RL-WINDOW-PER-MINUTE')).toEqual(['fail']);
  });

  it('sustained: no 429 at the target rate for a window passes; far below the rate it is not judged; any 429 fails', () => {
    const at = (count: number) => paced([...Array(count).keys()].map((i) => T0 + Math.round((i * W) / (count - 1))));
    expect(find(judgeSustained(at(9), o), 'RL-SUSTAINED-BELOW-CEILING')).toEqual(['pass']);
    expect(find(judgeSustained(at(4), o), 'RL-SUSTAINED-BELOW-CEILING')).toEqual(['skip']);
    const throttled = at(9);
    throttled[5] = { ...throttled[5], status: 429 };
    expect(find(judgeSustained(throttled, o), 'RL-SUSTAINED-BELOW-CEILING')).toEqual(['fail']);
  });

  it('does not fail a server the load never reached: no 429 with at most twice the limit offered in a window is not judged', () => {
    const slow = paced([...Array(2 * L).keys()].map((i) => T0 + i * 6000));
    expect(find(judgeWindow(slow, o), 'RL-WINDOW-PER-MINUTE')).toEqual(['skip']);
    const flood = paced([...Array(3 * L).keys()].map((i) => T0 + i * 1900)).map((x) => ({
      ...x,
      headers: { ...x.headers, 'x-ratelimit-reset': String(Math.ceil((x.t + W) / 1000)) },
    }));
    expect(find(judgeWindow(flood, o), 'RL-WINDOW-PER-MINUTE')).toEqual(['fail']);
  });

  it('on a share of a distributed run, a 429 after few successes of its own is not judged as a shorter window: the merge judges it', () => {
    const seq = paced([0, 1, 2].map((x) => T0 + x));
    seq.push(s(3, T0 + 5, 429, { ...rl(0), 'retry-after': 10 }, 'paced', errorBody));
    const vs = judgeWindow(seq, { ...o, partialView: true });
    expect(find(vs, 'RL-WINDOW-PER-MINUTE')).toEqual(['skip']);
    expect(find(vs, 'RL-NOT-EARLY')).toEqual(['skip']);
    expect(vs.find((v) => v.requirement === 'RL-WINDOW-PER-MINUTE')?.remedy).toMatch(/npm run load:merge/);
  });

  it('fails a 429 that comes before the limit was used in the last window (a shorter window)', () => {
    const seq = paced([0, 1, 2].map((x) => T0 + x));
    seq.push(s(3, T0 + 5, 429, { ...rl(0), 'retry-after': 10 }, 'paced', errorBody));
    const vs = judgeWindow(seq, o);
    expect(find(vs, 'RL-WINDOW-PER-MINUTE')).toEqual(['fail']);
    expect(find(vs, 'RL-NOT-EARLY')).toEqual(['pass']);
  });

  it('daily: exact quota passes, more fails, fewer warns, none after the quota fails', () => {
    const day = (n: number) => {
      const seq = paced([...Array(n).keys()].map((i) => T0 + i * 7000));
      seq.push(s(n, T0 + n * 7000, 429, { ...rl(0), 'retry-after': 80000 }, 'paced', errorBody));
      return seq;
    };
    expect(find(judgeDaily(day(50), o), 'RL-DAILY-QUOTA')).toEqual(['pass']);
    expect(find(judgeDaily(day(51), o), 'RL-DAILY-QUOTA')).toEqual(['fail']);
    expect(find(judgeDaily(day(40), o), 'RL-DAILY-QUOTA')).toEqual(['warn']);
    expect(find(judgeDaily(paced([...Array(61).keys()].map((i) => T0 + i * 7000)), o), 'RL-DAILY-QUOTA')).toEqual(['fail']);
  });
});

describe('reports', () => {
  const v = { requirement: 'RL-CEILING-429', outcome: 'fail' as const, title: 'No 429 — at all', message: 'a <b> & "c" key=secretkey123' };
  it('carries judgements, the key state and the timeline through k6 check names', () => {
    const got = readCarriage([
      { name: carry({ kind: 'judgement', value: v }) },
      { name: carry({ kind: 'key', value: { blockedUntil: 5, lastResponseAt: 3 } }) },
      { name: carry({ kind: 'key', value: { blockedUntil: 9 } }) },
      { name: carry({ kind: 'timeline', value: [{ t: 2, status: 200 }] }) },
      { name: "somebody else's check" },
    ]);
    expect(got.judgements).toEqual([v]);
    expect(got.key).toEqual({ blockedUntil: 9, lastResponseAt: 3 });
    expect(got.timeline).toEqual([{ t: 2, status: 200 }]);
  });

  it('writes escaped JUnit and redacts the key everywhere', () => {
    const r = buildLoadReport(
      {
        scenario: 'ceiling',
        plan: 'free',
        engine: 'node',
        target: 'http://x/v1?k=secretkey123',
        startedAt: T0,
        endedAt: T0 + 1000,
        requestsSent: 3,
        judgements: [v],
      },
      (t) => t.split('secretkey123').join('[REDACTED]'),
    );
    expect(JSON.stringify(r)).not.toContain('secretkey123');
    expect(r.verdict).toBe('fail');
    const x = loadJunit(r);
    expect(x).toContain('failures="1"');
    expect(x).toContain('&lt;b&gt; &amp; &quot;c&quot;');
  });

  it('is incomplete, not passed, when a MUST requirement of the scenario was not judged', () => {
    const skip = { requirement: 'RL-RECOVERY', outcome: 'skip' as const, title: 'Not judgeable', message: 'no usable Retry-After' };
    const pass = { requirement: 'RL-CEILING-429', outcome: 'pass' as const, title: 'ok', message: 'ok' };
    const r = buildLoadReport({
      scenario: 'recovery',
      plan: 'free',
      engine: 'node',
      target: 'x',
      startedAt: T0,
      endedAt: T0,
      requestsSent: 1,
      judgements: [pass, skip],
    });
    expect(r.verdict).toBe('incomplete');
  });

  it('caps the timeline, keeps every non-2xx point and numbers the requests', () => {
    const many = [...Array(10000).keys()].map((i) => s(i, T0 + i, i % 1000 === 0 ? 429 : 200, rl(1), 'paced'));
    const tl = timeline(many, T0, 3000);
    expect(tl.length).toBeLessThanOrEqual(3000);
    expect(tl.filter((p) => p.status === 429)).toHaveLength(10);
    expect(tl[0].seq).toBe(1);
  });
});

describe('scenarios and catalogue', () => {
  it('judges only catalogue requirements, and every load requirement is judged by some scenario', () => {
    const ids = new Set(REQUIREMENTS.map((q) => q.id));
    const covered = new Set(Object.values(SCENARIO_INFO).flatMap((d) => d.requirements));
    for (const id of covered) expect(ids.has(id), id).toBe(true);
    for (const r of REQUIREMENTS.filter((q) => q.by === 'load')) expect(covered.has(r.id), r.id).toBe(true);
  });

  it('makes only the daily scenario opt-in, with a cost warning; the ceiling and recovery stay on one VU', () => {
    expect(
      Object.values(SCENARIO_INFO)
        .filter((d) => d.optIn)
        .map((d) => d.name),
    ).toEqual(['daily']);
    expect(SCENARIOS.daily.warning?.(scenarioOptions({ plan: 'free', perMinute: 60, perDay: 1000 }))).toMatch(/1000/);
    expect(SCENARIOS.ceiling.singleVu && SCENARIOS.recovery.singleVu).toBe(true);
    expect(() => scenarioOptions({ plan: 'free', perMinute: 60 }, { overloadFactor: 2 })).toThrow(/above 2/);
  });
});

describe('refilling limiters (token bucket: Remaining may rise mid-window, Reset is when the bucket is full again)', () => {
  const P = W / L; // one token
  /** A burst slower than one token per request: Remaining stays flat once, reaches 0, a refill lets one more through, then the 429. */
  function bucketRun(): Sample[] {
    const out: Sample[] = [];
    const rems = [9, 8, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0];
    rems.forEach((r, i) => out.push(s(i, T0 + i * (P / 2), 200, rl(r, Math.ceil((T0 + i * (P / 2) + (L - r) * P) / 1000)))));
    const t = T0 + rems.length * (P / 2);
    out.push(s(rems.length, t, 429, { ...rl(0, Math.ceil((t + L * P) / 1000)), 'retry-after': P / 1000 }, 'ceiling', errorBody));
    return out;
  }

  it('passes the ceiling: releases and a refill after Remaining 0 are explained, and Retry-After names the next token', () => {
    const vs = judgeCeiling(bucketRun(), o);
    expect(vs.filter((v) => v.outcome !== 'pass' && v.outcome !== 'observe')).toEqual([]);
    expect(find(vs, 'RL-RETRY-AFTER-CONSISTENT')).toEqual(['pass']);
  });

  it('still fails a fixed window that serves one more after Remaining 0 (no release to explain it)', () => {
    const seq = ceilingRun().slice(0, L);
    seq.push(s(L, T0 + 200, 200, rl(0))); // the ceiling phase stops here: the success was not explained
    expect(find(judgeCeiling(seq, o), 'RL-CEILING-429')).toEqual(['fail']);
  });

  it('takes a Retry-After shorter than Reset as the next free slot (RL-RECOVERY checks it), and warns on one beyond Reset', () => {
    expect(find(judgeCeiling(ceilingRun({ 'retry-after': 5 }), o), 'RL-RETRY-AFTER-CONSISTENT')).toEqual(['pass']);
    expect(
      find(judgeCeiling(ceilingRun({ 'retry-after': 45, 'x-ratelimit-reset': Math.ceil(T0 / 1000) + 30 }), o), 'RL-RETRY-AFTER-CONSISTENT'),
    ).toEqual(['warn']);
  });
});
