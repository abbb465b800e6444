/**
 * The core's ceiling judgements on hand-made sample sequences (each scenario's
 * judge = its own judgements plus the per-response rules on every sample): a
 * fixed window, a key refused at once, and refilling limiters.
 */
import { describe, expect, it } from 'vitest';
import { ceilingFacts } from '../../src/core/sections/rate-limit-load/ceiling-facts.ts';
import { judgeResponses } from '../../src/core/sections/rate-limit-load/samples.ts';
import { scenarioOptions } from '../../load/lib/scenario-options.ts';
import type { Sample } from '../../load/lib/types.ts';
import { W, L, T0, o, judgeCeiling, s, rl, errorBody, ceilingRun, find } from '../support/samples.ts';

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
    seq.push({ ...s(L + 1, T0 + 10 * L, 429, { ...rl(0, next), 'retry-after': 60 }), body: errorBody });
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
    seq.push({ ...s(7, T0 + 80, 429, { ...rl(0), 'retry-after': 60 }), body: errorBody });
    const vs = judgeCeiling(seq, o);
    expect(vs.filter((v) => v.outcome !== 'pass' && v.outcome !== 'observe')).toEqual([]);
    expect(vs.find((v) => v.requirement === 'RL-CEILING-429')!.message).toContain('another client');
  });

  it('does not credit a server that counts every request twice', () => {
    const seq = [8, 6, 4, 2, 0].map((r, i) => s(i, T0 + 10 * i, 200, rl(r)));
    seq.push({ ...s(5, T0 + 60, 429, { ...rl(0), 'retry-after': 60 }), body: errorBody });
    expect(find(judgeCeiling(seq, o), 'RL-REMAINING-DECREMENTS')).toEqual(['fail']);
  });

  it('accepts headers that count the day: Limit is the per-day quota, the 429 comes after the per-minute limit', () => {
    const day = Math.ceil((T0 + 86400000) / 1000);
    const seq = Array.from({ length: L }, (_, i) => s(i, T0 + 10 * i, 200, rl(40 - i, day, 50)));
    seq.push({ ...s(L, T0 + 10 * L, 429, { ...rl(40 - L, day, 50), 'retry-after': 60 }), body: errorBody });
    const vs = judgeCeiling(seq, o);
    expect(vs.filter((v) => v.outcome === 'fail' || v.outcome === 'warn')).toEqual([]);
    for (const r of ['RL-LIMIT-PLAN', 'RL-CEILING-429', 'RL-NOT-EARLY', 'RL-RESET-UNIX-SECONDS']) expect(find(vs, r)).toEqual(['pass']);
  });

  it('warns about a 429 whose Reset is its own Date while Retry-After asks to wait a minute: the two contradict each other (the window may end within that second, so Reset alone is no failure)', () => {
    const now = Math.floor(T0 / 1000) + 1;
    const seq = ceilingRun({ 'x-ratelimit-reset': now, date: new Date(now * 1000).toUTCString() });
    expect(find(judgeCeiling(seq, o), 'RL-RESET-UNIX-SECONDS')).toEqual(['pass']);
    expect(find(judgeCeiling(seq, o), 'RL-RETRY-AFTER-CONSISTENT')).toEqual(['warn']);
  });

  it('fails a 429 whose Reset had passed seconds before its own Date', () => {
    const now = Math.floor(T0 / 1000) + 3;
    const seq = ceilingRun({ 'x-ratelimit-reset': now - 2, date: new Date(now * 1000).toUTCString() });
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
    seq.push({ ...s(6, T0 + 60, 429, { ...rl(4), 'retry-after': 60 }), body: errorBody });
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
    seq.push({ ...s(8, T0 + 9, 429, { ...rl(0, undefined, 8), 'retry-after': 60 }), body: errorBody });
    const vs = judgeCeiling(seq, o);
    expect(find(vs, 'RL-LIMIT-PLAN')).toEqual(['fail']);
    expect(find(vs, 'RL-NOT-EARLY')).toEqual(['fail']); // Remaining said 0, but the plan allows 10
    expect(find(vs, 'RL-CEILING-429')).toEqual(['fail']);
  });

  it("judges X-RateLimit-Limit against the per-day quota the run was given (the embedded server's), not the published one", () => {
    const pro = scenarioOptions({ plan: 'pro', perMinute: 300, perDay: 3600, windowMs: W });
    const answer = (limit: number) => judgeResponses([s(0, T0, 200, rl(limit - 1, undefined, limit))], pro);
    expect(find(answer(300), 'RL-LIMIT-PLAN')).toEqual(['pass']);
    expect(find(answer(3600), 'RL-LIMIT-PLAN')).toEqual(['pass']);
    expect(find(answer(10000), 'RL-LIMIT-PLAN')).toEqual(['fail']);
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
    seq.push({ ...s(6 + L, T0 + W + 50, 429, { ...rl(0, r2), 'retry-after': 60 }), body: errorBody });
    const vs = judgeCeiling(seq, o);
    expect(vs.filter((v) => v.outcome !== 'pass' && v.outcome !== 'observe')).toEqual([]);
  });

  it('splits windows at a rollover: a new window is not an unpredicted success', () => {
    const seq = ceilingRun().slice(0, 5);
    const next = Math.ceil((T0 + 2 * W) / 1000);
    for (let i = 0; i < L; i++) seq.push(s(5 + i, T0 + W + i, 200, rl(L - 1 - i, next)));
    seq.push({ ...s(5 + L, T0 + W + 50, 429, { ...rl(0, next), 'retry-after': 60 }), body: errorBody });
    const vs = judgeCeiling(seq, o);
    expect(vs.filter((v) => v.outcome === 'fail')).toEqual([]);
  });
});

describe('a key refused at once', () => {
  const twice = (retryAfter: number) => [
    { ...s(0, T0, 429, { ...rl(0), 'retry-after': 1 }), body: errorBody },
    { ...s(1, T0 + W + 2000, 429, { ...rl(0), 'retry-after': retryAfter }), body: errorBody },
  ];
  it('fails RL-NOT-EARLY when the key is refused again after a full idle window with an ordinary wait', () => {
    expect(find(judgeCeiling(twice(1), o), 'RL-NOT-EARLY')).toEqual(['fail']);
  });
  it('does not judge RL-NOT-EARLY when the second 429 asks to wait longer than a window (a temporary ban)', () => {
    expect(find(judgeCeiling(twice(600), o), 'RL-NOT-EARLY')).toEqual(['skip']);
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
    out.push({ ...s(rems.length, t, 429, { ...rl(0, Math.ceil((t + L * P) / 1000)), 'retry-after': P / 1000 }), body: errorBody });
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

describe('a Reset computed as "now + seconds left" (found against @fastify/rate-limit with a Unix Reset added by the team)', () => {
  const r = Math.ceil((T0 + W) / 1000);
  /** One fixed window whose Reset, rounded per response, reads one second later in the middle of the burst. */
  const jittered = Array.from({ length: L }, (_, i) => s(i, T0 + 10 * i, 200, rl(L - 1 - i, i === 0 || i >= L - 3 ? r : r + 1)));
  const refused = { ...s(L, T0 + 10 * L + 50, 429, { ...rl(0, r), 'retry-after': 60 }), body: errorBody };
  /** The plugin's own header: seconds until the reset, falling from 3 to 2 during the burst. */
  const secondsLeft = ceilingRun().map((x, i) => ({ ...x, headers: { ...x.headers, 'x-ratelimit-reset': i < 6 ? '3' : '2' } }));

  it('passes one window whose Reset reads as two neighbouring seconds: Remaining never repeats, so it is one window', () => {
    const vs = judgeCeiling([...jittered, refused], o);
    expect(vs.filter((v) => v.outcome === 'fail' || v.outcome === 'warn')).toEqual([]);
    expect(find(vs, 'RL-CEILING-429')).toEqual(['pass']);
  });

  it('still fails a success after Remaining 0 in such a window', () => {
    const vs = judgeCeiling([...jittered, s(L, T0 + 10 * L, 200, rl(0, r))], o);
    expect(find(vs, 'RL-CEILING-429')).toEqual(['fail']);
  });

  it('fails only the Reset when it counts the seconds until the reset, not the ceiling the limiter kept', () => {
    const vs = judgeCeiling(secondsLeft, o);
    expect(find(vs, 'RL-RESET-UNIX-SECONDS')).toEqual(['fail']);
    expect(vs.filter((v) => v.outcome === 'fail' && v.requirement !== 'RL-RESET-UNIX-SECONDS')).toEqual([]);
    for (const req of ['RL-CEILING-429', 'RL-NOT-EARLY']) expect(find(vs, req)).toEqual(['pass']);
  });
});

describe('no X-RateLimit-Remaining at all (found against hono-rate-limiter, which sends only the draft RateLimit-* headers)', () => {
  const bare = (successes: number) => [
    ...Array.from({ length: successes }, (_, i) => s(i, T0 + 10 * i, 200, {})),
    { ...s(successes, T0 + 10 * successes, 429, { 'retry-after': 60 }), body: errorBody },
  ];
  it('fails the missing headers, and passes a 429 that came after exactly the limit of successes', () => {
    const vs = judgeCeiling(bare(L), o);
    expect(find(vs, 'RL-HEADERS-PRESENT')).toEqual(['fail']);
    expect(find(vs, 'RL-CEILING-429')).toEqual(['pass']);
  });
  it('does not judge a 429 after another number of successes: where the window began cannot be told', () => {
    for (const n of [L - 3, L + 2]) expect(find(judgeCeiling(bare(n), o), 'RL-CEILING-429')).toEqual(['skip']);
  });
});

describe('a sliding log met one window after a burst (its slots free as fast as the burst took them)', () => {
  /** Successes 2 ms apart whose Remaining falls with releases, then stays 0 while each freed slot is taken (the run stopped there). */
  function slidingRun(resetOf: (at: number) => number): Sample[] {
    const rems = [6, 5, 5, 4, 3, 3, 2, 2, 1, 0, 0, 0];
    // One request at a time on a 1 ms round trip: each sent after the previous response.
    const at = (i: number) => T0 + 300 + 2 * i;
    return rems.map((r, i) => ({ ...s(i, at(i), 200, rl(r, resetOf(at(i)))), sentAt: at(i) - 1 }));
  }

  it('never fails the ceiling when its Reset, the oldest entry’s expiry, is within the second: each success at Remaining 0 took a freed slot', () => {
    expect(find(judgeCeiling(slidingRun((at) => Math.ceil(at / 1000))), 'RL-CEILING-429')).toEqual(['skip']);
  });

  it('still fails successes at Remaining 0 when the Reset is a window away: nothing says a slot was free', () => {
    expect(find(judgeCeiling(slidingRun(() => Math.ceil((T0 + W) / 1000))), 'RL-CEILING-429')).toEqual(['fail']);
  });
});
