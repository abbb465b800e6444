/**
 * The core's window judgements (overload, sustained, daily) on hand-made sample
 * sequences, the load report and its JUnit, the k6 carriage of judgements, and
 * the scenario table against the catalogue.
 */
import { describe, expect, it } from 'vitest';
import { REQUIREMENTS } from '../../src/core/catalogue.ts';
import { buildLoadReport, timeline } from '../../src/core/load-report.ts';
import { loadJunit } from '../../load/lib/report-text.ts';
import { maxInSpan } from '../../src/core/sections/rate-limit-load/window.ts';
import { SCENARIO_INFO } from '../../src/core/scenarios.ts';
import { scenarioOptions } from '../../load/lib/scenario-options.ts';
import { SCENARIOS } from '../../load/lib/load-shapes.ts';
import { carry, logMessages, readCarriage } from '../../load/lib/k6-log.ts';
import { W, L, T0, o, judgeWindow, judgeSustained, judgeDaily, s, rl, errorBody, find } from '../support/samples.ts';

describe('window verdicts', () => {
  const paced = (times: number[], status = 200) =>
    times.map((t, i) => ({ ...s(i, t, status, rl(0, Math.ceil(((Math.floor(t / W) + 1) * W) / 1000))), phase: 'paced' as const }));
  it('counts successes in any span', () => {
    expect(maxInSpan(paced([0, 10, 20, 30, 1000].map((x) => T0 + x)), 25).count).toBe(3);
  });

  it('passes a fixed window that lets 2 × limit through across a boundary, fails more', () => {
    const ok = paced([...Array(L).keys()].map((i) => T0 + W - 100 + i).concat([...Array(L).keys()].map((i) => T0 + W + i)));
    ok.push({ ...s(ok.length, T0 + W + 50, 429, { ...rl(0), 'retry-after': 60 }), phase: 'paced' as const, body: errorBody });
    expect(find(judgeWindow(ok, o), 'RL-WINDOW-PER-MINUTE')).toEqual(['pass']);
    const bad = paced([...Array(3 * L).keys()].map((i) => T0 + i * 100));
    expect(find(judgeWindow(bad, o), 'RL-WINDOW-PER-MINUTE')).toEqual(['fail']);
  });

  it.each([
    ['a 401 for the valid key', 401],
    ['a 503 with Retry-After', 503],
  ])('claims no window when no request of the overload was served (%s): skipped, never passed', (_, status) => {
    const refused = [...Array(3 * L).keys()].map((i) => ({
      ...s(i, T0 + i * 100, status, { ...rl(0), 'retry-after': 60 }),
      phase: 'paced' as const,
    }));
    const window = judgeWindow(refused, o).filter((j) => j.requirement === 'RL-WINDOW-PER-MINUTE');
    expect(window.map((j) => [j.outcome, j.title])).toEqual([['skip', 'No request served']]);
  });

  it('does not group by Reset when the headers count the day: every success of the day shares one Reset', () => {
    const day = Math.ceil((T0 + 86400000) / 1000);
    const times = [...Array(L).keys()].map((i) => T0 + W - 100 + i).concat([...Array(L).keys()].map((i) => T0 + W + i));
    const seq = times.map((t, i) => ({ ...s(i, t, 200, rl(40 - i, day, 50)), phase: 'paced' as const }));
    seq.push({
      ...s(seq.length, T0 + W + 50, 429, { ...rl(40 - 2 * L, day, 50), 'retry-after': 60 }),
      phase: 'paced' as const,
      body: errorBody,
    });
    expect(find(judgeWindow(seq, o), 'RL-WINDOW-PER-MINUTE')).toEqual(['pass']);
    const perMinute = times.map((t, i) => ({ ...s(i, t, 200, rl(40 - i, day)), phase: 'paced' as const }));
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
    seq.push({ ...s(3, T0 + 5, 429, { ...rl(0), 'retry-after': 10 }), phase: 'paced' as const, body: errorBody });
    const vs = judgeWindow(seq, { ...o, partialView: true });
    expect(find(vs, 'RL-WINDOW-PER-MINUTE')).toEqual(['skip']);
    expect(find(vs, 'RL-NOT-EARLY')).toEqual(['skip']);
    expect(vs.find((v) => v.requirement === 'RL-WINDOW-PER-MINUTE')?.remedy).toMatch(/npm run load:merge/);
  });

  it('fails a 429 that comes before the limit was used in the last window (a shorter window)', () => {
    const seq = paced([0, 1, 2].map((x) => T0 + x));
    seq.push({ ...s(3, T0 + 5, 429, { ...rl(0), 'retry-after': 10 }), phase: 'paced' as const, body: errorBody });
    const vs = judgeWindow(seq, o);
    expect(find(vs, 'RL-WINDOW-PER-MINUTE')).toEqual(['fail']);
    expect(find(vs, 'RL-NOT-EARLY')).toEqual(['pass']);
  });

  it('daily: exact quota passes, more fails, fewer warns, none after the quota fails', () => {
    const day = (n: number) => {
      const seq = paced([...Array(n).keys()].map((i) => T0 + i * 7000));
      seq.push({ ...s(n, T0 + n * 7000, 429, { ...rl(0), 'retry-after': 80000 }), phase: 'paced' as const, body: errorBody });
      return seq;
    };
    expect(find(judgeDaily(day(50), o), 'RL-DAILY-QUOTA')).toEqual(['pass']);
    expect(find(judgeDaily(day(51), o), 'RL-DAILY-QUOTA')).toEqual(['fail']);
    expect(find(judgeDaily(day(40), o), 'RL-DAILY-QUOTA')).toEqual(['warn']);
    expect(find(judgeDaily(paced([...Array(61).keys()].map((i) => T0 + i * 7000)), o), 'RL-DAILY-QUOTA')).toEqual(['fail']);
  });

  it('daily: a quota not reached is not judged, and the remedy names what would reach it (not the flag that already ran it)', () => {
    const [quota] = SCENARIOS.daily
      .judge(paced([...Array(30).keys()].map((i) => T0 + i * 7000)), o, 'scenario complete')
      .filter((v) => v.requirement === 'RL-DAILY-QUOTA');
    expect(quota).toMatchObject({ outcome: 'skip', title: 'Daily quota not reached' });
    for (const flag of ['--deadline-ms', '--max-requests', '--day-ms', '--rpd']) expect(quota.remedy).toContain(flag);
    expect(quota.remedy).not.toMatch(/--allow-daily/);
  });
});

describe('reports', () => {
  const v = {
    requirement: 'RL-CEILING-429' as const,
    outcome: 'fail' as const,
    title: 'No 429 — at all',
    message: 'a <b> & "c" key=secretkey123',
  };
  it('carries judgements, the key state and the timeline through lines of k6 log', () => {
    const got = readCarriage([
      carry({ kind: 'judgement', value: v }),
      carry({ kind: 'key', value: { blockedUntil: 5, lastResponseAt: 3 } }),
      carry({ kind: 'key', value: { blockedUntil: 9 } }),
      carry({ kind: 'timeline', value: [{ t: 2, status: 200 }] }),
      carry({ kind: 'note', value: 'another plan', plan: 'pro' }),
      "somebody else's log line",
    ]);
    expect(got.judgements).toEqual([v]);
    expect(got.key).toEqual({ blockedUntil: 9, lastResponseAt: 3 });
    expect(got.timeline).toEqual([{ t: 2, status: 200 }]);
    expect(got.notes).toEqual([]);
  });

  it("reads the carried lines back from k6's output in its JSON, text and raw log formats", () => {
    const line = carry({ kind: 'judgement', value: v });
    const text = `time="2030-01-01T12:00:00Z" level=info msg=${JSON.stringify(line).replace(/</g, '\\x3c')} source=console`;
    const output = [
      JSON.stringify({ level: 'info', msg: line, source: 'console', time: '2030-01-01T12:00:00Z' }),
      'time="2030-01-01T12:00:00Z" level=warning msg="Request Failed" error="connection refused"',
      text,
      line,
    ].join('\n');
    expect(logMessages(output)).toEqual([line, line, line]);
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
    const skip = {
      requirement: 'RL-RECOVERY' as const,
      outcome: 'skip' as const,
      title: 'Not judgeable',
      message: 'no usable Retry-After',
    };
    const pass = { requirement: 'RL-CEILING-429' as const, outcome: 'pass' as const, title: 'ok', message: 'ok' };
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
    const many = [...Array(10000).keys()].map((i) => ({ ...s(i, T0 + i, i % 1000 === 0 ? 429 : 200, rl(1)), phase: 'paced' as const }));
    const tl = timeline(many, T0, 3000);
    expect(tl.length).toBeLessThanOrEqual(3000);
    expect(tl.filter((p) => p.status === 429)).toHaveLength(10);
    expect(tl[0].seq).toBe(1);
  });
});

describe('scenarios and catalogue', () => {
  it('judges only catalogue requirements, and every load requirement is judged by some scenario', () => {
    const ids = new Set<string>(REQUIREMENTS.map((q) => q.id));
    const covered = new Set<string>(Object.values(SCENARIO_INFO).flatMap((d) => d.requirements));
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
