/**
 * Judgements of the paced scenarios (sustained, overload; daily: daily.ts): pure functions of
 * the recorded samples. Windows are judged so that both a fixed window (aligned
 * anywhere, so up to twice the limit may succeed within any span of one window)
 * and a sliding window pass, while a limit enforced over a shorter window — or a
 * day without a quota — is caught.
 */
import { bySeq, countsTheDay, freesBeforeReset, fmtMs, isSuccess, isThrottled } from './signals.ts';
import type { Judgement } from '../../sections/define.ts';
import { RATE_LIMIT_LOAD } from './requirements.ts';
import type { JudgeOptions, Sample } from '../../sample.ts';
import { judgeForeign } from './dedicated-key.ts';
import { about, judgeConsistency, judgeTransport, startOf } from './samples.ts';
import { isDailyThrottle, maxInSpan, MERGE_REMEDY, n } from './spans.ts';
import { firstOtherThrottle, judgeOtherThrottle } from './other-throttle.ts';
import { earlyThrottles, notEarlyVerdict, overflows, windowVerdict } from './window-facts.ts';

export { isDailyThrottle, maxInSpan, successesBetween } from './spans.ts';
export { judgeDaily } from './daily.ts';

const perWindow = (count: number, ms: number, o: JudgeOptions) => (ms > 0 ? (count * o.windowMs) / ms : 0);

/** A paced scenario that sent no paced request: its requirement skipped, with why the run stopped. */
const pacedNotRun = (id: 'RL-SUSTAINED-BELOW-CEILING' | 'RL-WINDOW-PER-MINUTE', stopped?: string): Judgement =>
  RATE_LIMIT_LOAD.judge(id, {
    outcome: 'skip',
    title: 'paced-not-run',
    message: `no request of the paced phase was sent (${stopped || 'stopped'})`,
  });

export function judgeSustained(samples: readonly Sample[], o: JudgeOptions, stopped?: string): Judgement[] {
  const paced = bySeq(samples.filter((s) => s.phase === 'paced'));
  const out = judgeTransport(samples, o);
  if (!paced.length) return out.concat(pacedNotRun('RL-SUSTAINED-BELOW-CEILING', stopped));
  out.push(sustainedJudgement(paced, o, stopped));
  // On a key nothing else uses (plans side by side), the steady pace also shows whether another key's requests count on it.
  if (o.dedicatedKey && !o.partialView) out.push(judgeForeign(paced));
  return out;
}

/** RL-SUSTAINED-BELOW-CEILING on the paced requests: no 429 at the sustained rate, judged once a whole window ran at it. */
function sustainedJudgement(paced: readonly Sample[], o: JudgeOptions, stopped?: string): Judgement {
  const target = Math.floor(o.limit * o.sustainedFraction);
  const span = paced[paced.length - 1].sentAt - paced[0].sentAt;
  const achieved = perWindow(paced.length - 1, span, o);
  // A 429 refusing the day (the per-day quota ran out) is not the per-minute ceiling: it ends what can be judged.
  const dayOver = paced.find((s) => isDailyThrottle(s, o));
  const throttled = paced.filter((s) => isThrottled(s) && !isDailyThrottle(s, o) && (!dayOver || s.seq < dayOver.seq));
  const rate = `${target} per ${fmtMs(o.windowMs)} window (${Math.round(o.sustainedFraction * 100)}% of ${o.limit}; achieved ${achieved.toFixed(1)})`;
  const id = 'RL-SUSTAINED-BELOW-CEILING';
  if (!throttled.length && dayOver && dayOver.sentAt - paced[0].sentAt < o.windowMs)
    return RATE_LIMIT_LOAD.judge(id, {
      outcome: 'skip',
      title: 'day-over',
      message: `${n(dayOver)} was refused for the day ${fmtMs(dayOver.sentAt - paced[0].sentAt)} into the run, before a whole window at ${rate}`,
      remedy: "run it on a key with its day's quota left (a dedicated key, a fresh day)",
    });
  if (throttled.length) {
    const f = throttled[0];
    const message = `${throttled.length} of ${paced.length} requests at ${rate} were answered 429; the first, ${n(f)}, ${fmtMs(f.sentAt - paced[0].sentAt)} into the run`;
    return about(RATE_LIMIT_LOAD.judge(id, { ok: false, message }), f, o, paced[0].sentAt);
  }
  if (o.partialView)
    // A share of a distributed run: no 429 on its own requests says nothing of the others'.
    return RATE_LIMIT_LOAD.judge(id, {
      outcome: 'skip',
      title: 'share',
      message: `this share's ${paced.length} requests over ${fmtMs(span)} got no 429; whether the key's whole pace of ${rate.split(' (')[0]} was ever throttled shows only across every share`,
      remedy: MERGE_REMEDY,
    });
  if (span + o.windowMs / target < o.windowMs * 0.98)
    return RATE_LIMIT_LOAD.judge(id, {
      outcome: 'skip',
      title: 'short-run',
      message: `only ${paced.length} requests over ${fmtMs(span)} at ${rate}, less than one full window (${stopped || 'stopped'})`,
    });
  if (achieved < target * 0.8)
    return RATE_LIMIT_LOAD.judge(id, {
      outcome: 'skip',
      title: 'rate-not-reached',
      message: `${paced.length} requests at ${rate} over ${fmtMs(span)}: none was answered 429, but the load generator stayed well below the rate (if responses are slow: run it after another scenario on the key, whose latency sizes the k6 VUs, or with --engine node)`,
    });
  return RATE_LIMIT_LOAD.judge(id, {
    ok: true,
    message: `${paced.length} requests at ${rate} over ${fmtMs(span)}: none was answered 429`,
  });
}

export function judgeWindow(samples: readonly Sample[], o: JudgeOptions, stopped?: string): Judgement[] {
  const all = bySeq(samples);
  const paced = all.filter((s) => s.phase === 'paced');
  const out = judgeTransport(samples, o);
  if (!paced.length) return out.concat(pacedNotRun('RL-WINDOW-PER-MINUTE', stopped));
  const L = o.limit;
  const w = fmtMs(o.windowMs);
  const throttled = paced.filter((s) => isThrottled(s) && !isDailyThrottle(s, o));
  const daily = countsTheDay(all, o);
  const problems = overflows(all, o, daily);
  // Every throttle must come after the window's limit was used: else the window is shorter than announced.
  // A share of a distributed run does not see the other shares' successes: not judged there.
  const partial = o.partialView === true;
  const { early, short } = earlyThrottles(all, partial ? [] : throttled, o);
  if (short.length)
    problems.push(
      `${short.length} 429s came before the limit of ${L} per ${w} was used (e.g. ${short[0]}): the limit is enforced over a shorter window`,
    );
  // No 429 at all is a failure only when more than twice the limit was offered within one window span:
  // such a span overlaps at most two fixed windows, so one of them was offered more than the limit.
  // Fewer means the load generator fell short (too few VUs for the latency), not the server.
  const offered = maxInSpan(paced, o.windowMs, () => true).count;
  const tooLow = !throttled.length && offered <= 2 * L;
  // Throttled with another status (a 503): RL-CEILING-429 says so by name; the window is judged by its successes.
  const other = firstOtherThrottle(paced);
  if (!throttled.length && !tooLow && !other) problems.push(`no 429 at ${o.overloadFactor}× the limit`);
  const shape = `${paced.length} requests offered at ${Math.round(L * o.overloadFactor)} per ${w} (at most ${offered} in any ${w} span); at most ${maxInSpan(all, o.windowMs).count} successes in any ${w} span; ${throttled.length} 429s, each waited out`;
  const served = all.filter(isSuccess).length;
  out.push(windowVerdict({ problems, shape, tooLow, partial, served }, o), notEarlyVerdict(early, throttled, partial));
  if (other) out.push(judgeOtherThrottle(other, o, startOf(all)));
  if (throttled.length)
    out.push(
      daily
        ? RATE_LIMIT_LOAD.judge('RL-RETRY-AFTER-CONSISTENT', {
            outcome: 'skip',
            title: 'counts-day',
            message: 'X-RateLimit-Reset announces the end of the day, Retry-After the end of the window',
          })
        : judgeConsistency(throttled[0], o, freesBeforeReset(all, o.toleranceMs), startOf(all)),
    );
  return out;
}
