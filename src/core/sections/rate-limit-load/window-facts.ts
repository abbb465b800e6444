/**
 * The overload scenario's facts and verdicts (judgeWindow, window.ts): the
 * successes no window allows, the 429s that came before the window's limit was
 * used, and RL-WINDOW-PER-MINUTE and RL-NOT-EARLY from them. Pure functions.
 */
import type { Judgement } from '../../sections/define.ts';
import { RATE_LIMIT_LOAD } from './requirements.ts';
import type { JudgeOptions, Sample } from '../../sample.ts';
import { fmtMs, isSuccess, signals } from './signals.ts';
import { maxInSpan, MERGE_REMEDY, n, successesBetween } from './spans.ts';

/** Successes beyond what any window allows: more than twice the limit in one span, or more than the limit under one Reset. */
export function overflows(all: readonly Sample[], o: JudgeOptions, daily: boolean): string[] {
  const L = o.limit;
  const w = fmtMs(o.windowMs);
  const span = maxInSpan(all, o.windowMs);
  const problems: string[] = [];
  if (span.count > 2 * L)
    problems.push(
      `${span.count} requests succeeded within one ${w} span (limit ${L}; even a fixed window allows at most ${2 * L} across a boundary)`,
    );
  // Fixed windows: successes announcing the same Reset belong to one window
  // (not when the headers count the day: then every success of the day shares a Reset).
  const groups: Record<string, Sample[]> = {};
  for (const s of daily ? [] : all.filter(isSuccess)) {
    const r = signals(s).resetRaw;
    if (r !== undefined) (groups[r] = groups[r] || []).push(s);
  }
  const crowded = Object.keys(groups).find((r) => {
    const g = groups[r];
    return g.length > L && g[g.length - 1].sentAt - g[0].sentAt <= o.windowMs + o.toleranceMs;
  });
  if (crowded !== undefined)
    problems.push(`${groups[crowded].length} successes announced the same X-RateLimit-Reset ${crowded}, more than the limit ${L}`);
  return problems;
}

/**
 * The 429s that came before the window's limit was used: `early` while
 * Remaining still said more (RL-NOT-EARLY), `short` otherwise (a window shorter
 * than announced).
 */
export function earlyThrottles(
  all: readonly Sample[],
  throttled: readonly Sample[],
  o: JudgeOptions,
): { early: string[]; short: string[] } {
  const w = fmtMs(o.windowMs);
  const early: string[] = [];
  const short: string[] = [];
  for (const s of throttled) {
    const before = all.filter((x) => x.seq < s.seq && isSuccess(x));
    const prev = before[before.length - 1];
    const pr = prev ? signals(prev).remaining : undefined;
    const used = successesBetween(all, s.sentAt - o.windowMs, s.sentAt);
    if (pr !== undefined && pr > 0 && used < o.limit)
      early.push(`${n(s)} after ${used} successes in the last ${w}, while Remaining said ${pr}`);
    else if (used < o.limit) short.push(`${n(s)} after only ${used} successes in the last ${w}`);
  }
  return { early, short };
}

/** What the overload phase showed, and whether it reached the limit at all. */
export interface WindowFacts {
  problems: string[];
  /** The run's shape, in words. */
  shape: string;
  /** No 429, but never more than twice the limit offered in one window: the limit was not put to the test. */
  tooLow: boolean;
  /** A share of a distributed run (it does not see the other shares' successes). */
  partial: boolean;
  /** How many of the scenario's requests succeeded: none, and a limit on successes was not put to the test. */
  served: number;
}

/** RL-WINDOW-PER-MINUTE from the facts. */
export function windowVerdict({ problems, shape, tooLow, partial, served }: WindowFacts, o: JudgeOptions): Judgement {
  const share = partial
    ? '; this run saw only its share of the requests, so whether each 429 came after the window was used up is not judged'
    : `; every 429 came after ${o.limit} successes in the window`;
  if (problems.length) return RATE_LIMIT_LOAD.judge('RL-WINDOW-PER-MINUTE', { ok: false, message: `${problems.join('; ')}. ${shape}` });
  if (partial)
    return RATE_LIMIT_LOAD.judge('RL-WINDOW-PER-MINUTE', {
      outcome: 'skip',
      title: 'share',
      message: `${shape}${share}`,
      remedy: MERGE_REMEDY,
    });
  if (tooLow)
    return RATE_LIMIT_LOAD.judge('RL-WINDOW-PER-MINUTE', {
      outcome: 'skip',
      title: 'not-reached',
      message: `${shape}: never more than twice the limit was offered within one window, so the limit was not put to the test (if responses are slow: run it with --engine node, whose requests in flight share one guard)`,
    });
  if (!served)
    // Every request refused (a 401 for the valid key, a 5xx): no success to count, so nothing shows the limit is per minute.
    return RATE_LIMIT_LOAD.judge('RL-WINDOW-PER-MINUTE', {
      outcome: 'skip',
      title: 'none-served',
      message: `${shape}: no request succeeded, so whether the limit counts successes per minute was not put to the test`,
    });
  return RATE_LIMIT_LOAD.judge('RL-WINDOW-PER-MINUTE', { ok: true, message: `${shape}${share}` });
}

/** RL-NOT-EARLY: no 429 while Remaining was above 0 (not judged on a share, under which Remaining moves). */
export function notEarlyVerdict(early: readonly string[], throttled: readonly Sample[], partial: boolean): Judgement {
  if (partial && throttled.length)
    return RATE_LIMIT_LOAD.judge('RL-NOT-EARLY', {
      outcome: 'skip',
      title: 'share',
      message: 'this run saw only its share of the requests on the key: Remaining moved under it',
      remedy: MERGE_REMEDY,
    });
  return RATE_LIMIT_LOAD.judge('RL-NOT-EARLY', {
    ok: !early.length,
    message: early.length
      ? `${early.length} 429s came while Remaining was above 0, e.g. ${early[0]}`
      : `no 429 while Remaining was above 0 (${throttled.length} 429s)`,
  });
}
