/**
 * Does X-RateLimit-Remaining fall by exactly one per request? A pure verdict over
 * the Remaining values of sequential requests on one key.
 * - A rise is a window rollover (or a sliding window releasing old requests): not judged.
 * - An unchanged value is a sliding-window release; a drop of more than one is
 *   another client spending the same key. Both are tolerated as long as some
 *   steps fall by exactly one, which shows the server counts one per request.
 * - No step of exactly one — only drops of two or more, or no drop at all — fails.
 * Pure module (no Node built-ins).
 */
import type { Judgement } from '../define.ts';
import { RATE_LIMIT_HEADERS } from './requirements.ts';

export interface Step {
  from: number;
  to: number;
}

export interface DecrementVerdict {
  ok: boolean;
  judged: number;
  message: string;
}

export function judgeDecrements(steps: readonly Step[]): DecrementVerdict {
  const judged = steps.filter((s) => s.to <= s.from);
  if (judged.length === 0) return { ok: true, judged: 0, message: 'every step was a window rollover' };
  const drops = judged.map((s) => s.from - s.to);
  const ones = drops.filter((d) => d === 1).length;
  const bigs = drops.filter((d) => d > 1);
  const flat = drops.filter((d) => d === 0).length;
  if (ones === 0)
    return {
      ok: false,
      judged: judged.length,
      message: bigs.length
        ? `Remaining fell by ${bigs.join(', ')} between sequential requests: each request is counted more than once`
        : `Remaining did not fall across ${judged.length} sequential requests`,
    };
  const notes = [
    flat ? `${flat} unchanged (sliding-window release)` : '',
    bigs.length ? `${bigs.length} fell by more than one (another client may be using this key)` : '',
  ].filter(Boolean);
  return {
    ok: true,
    judged: judged.length,
    message: `${ones} of ${judged.length} steps fell by exactly one${notes.length ? `; ${notes.join('; ')}` : ''}`,
  };
}

/**
 * RL-REMAINING-DECREMENTS over the X-RateLimit-Remaining of sequential requests on one key (`remaining`, in order):
 * judged by judgeDecrements, the whole sequence shown; fewer than two values, not judged.
 */
export function judgeSequentialDecrements(remaining: readonly number[]): Judgement {
  if (remaining.length < 2)
    return RATE_LIMIT_HEADERS.judge('RL-REMAINING-DECREMENTS', {
      outcome: 'skip',
      title: 'not-judged',
      message: 'fewer than two responses carried X-RateLimit-Remaining',
    });
  const verdict = judgeDecrements(remaining.slice(1).map((to, i) => ({ from: remaining[i], to })));
  const sequence = remaining.join(' → ');
  return RATE_LIMIT_HEADERS.judge('RL-REMAINING-DECREMENTS', {
    ok: verdict.ok,
    fail: 'sequential',
    message: `${verdict.message}; sequence ${sequence}`,
    ...(verdict.ok ? {} : { evidence: { expected: 'a drop of exactly one per request', actual: sequence } }),
  });
}

/**
 * What a failing sequence repeats, as a signature for the burst sent again (./confirm.ts): every step that did not rise
 * fell by the same amount ("every step by 2", "every step by 0") — a count per request; undefined when the drops vary
 * (another client spending the key between some of the steps).
 */
export function decrementSignature(remaining: readonly number[]): string | undefined {
  const drops = remaining
    .slice(1)
    .map((to, i) => remaining[i] - to)
    .filter((d) => d >= 0);
  return drops.length && drops.every((d) => d === drops[0]) ? `every step by ${drops[0]}` : undefined;
}
