/**
 * Hand-made sample sequences for the core's rate-limit judgements: one sample
 * (`s`), the rate-limit headers of a response (`rl`), a fresh window ending in
 * a 429 (`ceilingRun`), and each scenario's whole judgement of a sequence
 * (its own judgements plus the per-response rules on every sample).
 */
import { scenarioOptions } from '../../load/lib/scenario-options.ts';
import { SCENARIOS } from '../../load/lib/load-shapes.ts';
import type { Sample } from '../../load/lib/types.ts';

export const W = 60000;
export const L = 10;
export const T0 = Date.UTC(2030, 0, 1, 12, 0, 0);
export const o = scenarioOptions({ plan: 'enterprise', perMinute: L, perDay: 50, windowMs: W });
/** A scenario's whole judgement of the samples (its own judgements and the per-response rules). */
export const judgeCeiling = (seq: readonly Sample[], opts = o) => SCENARIOS.ceiling.judge(seq, opts, undefined);
export const judgeWindow = (seq: readonly Sample[], opts = o) => SCENARIOS.overload.judge(seq, opts, undefined);
export const judgeSustained = (seq: readonly Sample[], opts = o) => SCENARIOS.sustained.judge(seq, opts, undefined);
export const judgeDaily = (seq: readonly Sample[], opts = o) => SCENARIOS.daily.judge(seq, opts, undefined);

/** A sample of the ceiling's phase: request `seq` answered at `at` with `status` and headers `h` (`{ ...s(…), body }` adds a body). */
export function s(seq: number, at: number, status: number, h: Record<string, string | number | undefined> = {}): Sample {
  const headers: Record<string, string> = { date: new Date(at).toUTCString() };
  for (const [k, v] of Object.entries(h)) if (v !== undefined) headers[k] = String(v);
  return { seq, phase: 'ceiling', sentAt: at - 5, t: at, status, headers };
}
export const rl = (remaining: number | undefined, reset = Math.ceil((T0 + W) / 1000), limit = L) => ({
  'x-ratelimit-limit': limit,
  'x-ratelimit-remaining': remaining,
  'x-ratelimit-reset': reset,
});
export const errorBody = JSON.stringify({ code: 'rate_limited', message: 'slow down', status: 429 });
/** A fresh window: L successes then a 429. */
export function ceilingRun(extra429: Record<string, string | number | undefined> = {}, body = errorBody): Sample[] {
  const out: Sample[] = [];
  for (let i = 0; i < L; i++) out.push(s(i, T0 + 10 * i, 200, rl(L - 1 - i)));
  out.push({ ...s(L, T0 + 10 * L, 429, { ...rl(0), 'retry-after': 60, ...extra429 }), body });
  return out;
}
export const find = (vs: { requirement: string; outcome: string }[], req: string) =>
  vs.filter((v) => v.requirement === req).map((v) => v.outcome);
