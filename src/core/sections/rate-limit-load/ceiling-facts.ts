/**
 * What the ceiling phase showed, per window: the first 429, the successes
 * before it, how Remaining fell step by step, and the successes a refilling
 * limiter (sliding log, token bucket) explains. Windows are split where
 * Remaining went back up with a later Reset. Pure functions of the recorded
 * samples; ceiling.ts judges them.
 */
import type { JudgeOptions, Sample } from '../../sample.ts';
import type { Step } from '../rate-limit-headers/decrements.ts';
import { bySeq, isRelease, isRollover, isSuccess, isThrottled, movingReset, refillAllowance, serverOrder, signals } from './signals.ts';

const rem = (s: Sample) => signals(s).remaining;

/** What the ceiling phase showed, per window (split where Remaining went back up with a later Reset). */
export interface CeilingFacts {
  seq: Sample[];
  /** A 429 on the first request, after which nothing was sent for a full window (CeilingPhase); `seq` starts after it. */
  refusedFirst?: Sample;
  first429?: Sample;
  /** Successes in the window of the first 429 (or the last window). */
  inWindow: number;
  /** Did that window start fresh (highest Remaining = Limit - 1)? */
  fresh: boolean;
  /** The success that said Remaining 0 in that window (the prediction). */
  zero?: Sample;
  /** Lowest Remaining seen in that window. */
  minRemaining?: number;
  /** Consecutive Remaining values (sorted, per window), for the decrement verdict. */
  steps: Step[];
  /** Pairs of those values that are not one apart. */
  badSteps: Array<[Sample, Sample]>;
  /** In that window, requests Remaining counted beyond one per step (another client, if the decrements are sound). */
  extra: number;
  /** A success sent after a response had said Remaining 0 (and not explained by a refilling limiter). */
  unpredicted?: Sample;
  /** In that window, successes a refilling limiter (sliding log, token bucket) explains beyond the limit. */
  refilled: number;
  /** A window showed a limiter that refills (a Reset that moves, slots free again after Remaining 0). */
  refilling?: boolean;
  other?: Sample;
}

function windowFacts(win: Sample[], f: CeilingFacts, o: JudgeOptions): void {
  const zero = win.filter((x) => rem(x) === 0).sort((a, b) => a.t - b.t)[0];
  const after = (x: Sample) => zero !== undefined && x.seq > zero.seq && x.sentAt >= zero.t; // sent once Remaining 0 was known
  // A refilling limiter frees slots within the window: releases before Remaining 0, refills after it.
  const sent = bySeq(win);
  let releases = 0;
  let afterZero = 0;
  f.refilled = 0;
  // A Reset that moves within the window (a token bucket's "full again", a sliding log's oldest request), or a success after
  // Remaining 0 that says slots are free again, shows a refilling limiter too.
  const moving = movingReset(win) || win.some((x) => after(x) && (rem(x) ?? 0) > 0);
  const before = win.filter((x) => !after(x)).length;
  if (moving) f.refilling = true;
  let lastZero = zero;
  for (let i = 1; i < sent.length; i++) {
    const x = sent[i];
    if (rem(sent[i - 1]) === 0 && after(sent[i - 1])) lastZero = sent[i - 1];
    if (after(x) && (rem(x) ?? 0) > 0)
      f.refilled++; // the server says slots are free again: within the limit by its own count
    else if (after(x)) {
      if (++afterZero <= refillAllowance({ refilling: releases > 0 || moving, before }, { zero, later: x, lastZero }, o)) f.refilled++;
      else if (!f.unpredicted) f.unpredicted = x;
    } else if (isRelease(sent[i - 1], x)) {
      releases++;
      f.refilled++;
    }
  }
  const counted = win.filter((x) => !after(x) && rem(x) !== undefined).sort((a, b) => (rem(b) as number) - (rem(a) as number));
  f.extra = 0;
  for (let i = 1; i < counted.length; i++) {
    const step = { from: rem(counted[i - 1]) as number, to: rem(counted[i]) as number };
    f.steps.push(step);
    if (step.from - step.to !== 1) f.badSteps.push([counted[i - 1], counted[i]]);
    if (step.from - step.to > 1) f.extra += step.from - step.to - 1;
  }
  f.zero = zero;
  f.inWindow = win.length;
  f.minRemaining = counted.length ? rem(counted[counted.length - 1]) : undefined;
  const head = counted[0];
  const cap = head && signals(head).limit !== undefined ? (signals(head).limit as number) : o.limit;
  f.fresh = !!head && rem(head) === cap - 1;
}

/** The ceiling's first request, if it was refused and the next one was sent only after a full window without sending. */
export function refusedFirst(seq: readonly Sample[], o: JudgeOptions): Sample | undefined {
  const [first, next] = seq;
  return first && next && isThrottled(first) && next.sentAt >= first.t + o.windowMs ? first : undefined;
}

export function ceilingFacts(samples: readonly Sample[], o: JudgeOptions): CeilingFacts {
  const all = bySeq(samples.filter((s) => s.phase === 'ceiling'));
  const refused = refusedFirst(all, o);
  const seq = refused ? all.slice(1) : all;
  const f: CeilingFacts = {
    seq,
    inWindow: 0,
    fresh: false,
    steps: [],
    badSteps: [],
    extra: 0,
    refilled: 0,
    ...(refused ? { refusedFirst: refused } : {}),
  };
  const before: Sample[] = [];
  for (const s of seq) {
    if (isThrottled(s)) {
      f.first429 = s;
      break;
    }
    if (isSuccess(s)) before.push(s);
    else if (s.status !== 0 && !f.other) f.other = s;
  }
  let last: Sample | undefined;
  let win: Sample[] = [];
  for (const s of serverOrder(before)) {
    if (last && isRollover(last, s)) {
      windowFacts(win, f, o);
      win = [];
    }
    win.push(s);
    last = s;
  }
  windowFacts(win, f, o);
  return f;
}
