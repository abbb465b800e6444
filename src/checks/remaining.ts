/**
 * Does X-RateLimit-Remaining fall by exactly one per request? A pure verdict over
 * the Remaining values of sequential requests on one key. A rise is a window
 * rollover (or a sliding window releasing old requests) and is not judged; an
 * unchanged value is tolerated as a sliding-window release as long as some steps
 * fall by one; a drop of two or more, or no drop at all, is a failure.
 */

export interface Step {
  from: number;
  to: number;
}

export function judgeDecrements(steps: readonly Step[]): { ok: boolean; judged: number; message: string } {
  const judged = steps.filter((s) => s.to <= s.from); // rises are rollovers
  const bad = judged.filter((s) => s.from - s.to > 1);
  const ones = judged.filter((s) => s.from - s.to === 1).length;
  const flat = judged.length - bad.length - ones;
  if (judged.length === 0) return { ok: true, judged: 0, message: 'every step was a window rollover' };
  if (bad.length) return { ok: false, judged: judged.length, message: `Remaining fell by ${bad.map((s) => s.from - s.to).join(', ')} between sequential requests (${bad.map((s) => `${s.from}→${s.to}`).join(', ')})` };
  if (ones === 0) return { ok: false, judged: judged.length, message: `Remaining did not fall across ${judged.length} sequential requests` };
  return { ok: true, judged: judged.length, message: `${ones} steps of exactly one${flat ? `, ${flat} unchanged (sliding window release)` : ''}` };
}

