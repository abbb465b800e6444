/**
 * The daily scenario's judgement (RL-DAILY-QUOTA): a pure function of its
 * recorded samples and of what the run knows about the key before it — how many
 * requests it had already sent on the key (the conformance run, the exploration
 * phase, earlier scenarios), and whether the scenario started on a fresh quota
 * day of a server whose days are known (the embedded reference server).
 *
 * A refusal for the day after S successes is consistent with the quota Q when
 *   Q − E − T ≤ S ≤ Q + T,
 * E being this run's earlier requests on the key that may count in the same day
 * (0 on a known fresh day) and T the requests in flight together with the
 * refused one (the order the server counted them in cannot be seen). Above: the
 * quota is exceeded (fail). Below: on a known fresh day nothing else used the key
 * (fail); otherwise the run cannot explain it — someone may have used the key
 * earlier that day (warn, with that question).
 */
import { bySeq, fmtMs, isSuccess, signals } from './signals.ts';
import type { Judgement } from '../../sections/define.ts';
import { RATE_LIMIT_LOAD } from './requirements.ts';
import type { JudgeOptions, Sample } from '../../sample.ts';
import { judgeTransport } from './samples.ts';
import { isDailyThrottle, n } from './spans.ts';
import { firstOtherThrottle, judgeOtherThrottle } from './other-throttle.ts';

const ID = 'RL-DAILY-QUOTA';

/** Other requests in flight while `s` was: sent before its response came, answered after it was sent. */
function inFlightWith(all: readonly Sample[], s: Sample): number {
  return all.filter((x) => x !== s && x.sentAt < s.t && x.t > s.sentAt).length;
}

/** This run's earlier requests on the key that may count in the scenario's quota day (none on a known fresh day). */
const earlierInDay = (o: JudgeOptions): number => (o.freshQuotaDay ? 0 : Math.max(0, o.earlierRequests || 0));

/** What the run knew of the key before the scenario, in words ('' when it sent nothing on it before). */
function earlierText(o: JudgeOptions): string {
  const e = o.earlierRequests || 0;
  if (o.freshQuotaDay)
    return e ? `; it started on a fresh quota day, after this run's ${e} earlier requests on the key` : '; it started on a fresh quota day';
  return e
    ? `; this run sent up to ${e} requests on the key before the daily scenario (conformance, exploration, earlier scenarios), which count against the same quota if they fell in its day`
    : '';
}

/** The judgement of a refusal for the day after `s` successes (the quota `q`). */
function refusal(all: readonly Sample[], daily: Sample, { s, q }: { s: number; q: number }, o: JudgeOptions): Judgement {
  const e = earlierInDay(o);
  const t = inFlightWith(all, daily);
  const wait = signals(daily).waitMs;
  const head = `${n(daily)} was refused for the day after ${s} successes (quota ${q}; ${wait !== undefined ? `Retry-After ${fmtMs(wait)}` : 'no Retry-After'})`;
  const inFlight = t ? `; ${t} other requests were in flight with it (the order the server counted them in cannot be seen)` : '';
  const msg = `${head}${earlierText(o)}${inFlight}`;
  const low = Math.max(0, q - e - t);
  const evidence = {
    expected:
      low === q + t
        ? `${q} successes before the first refusal for the day`
        : `between ${low} and ${q + t} successes before the first refusal for the day`,
    actual: `${s}`,
  };
  if (s > q + t) return RATE_LIMIT_LOAD.judge(ID, { ok: false, fail: 'exceeded', message: msg, evidence });
  if (s >= q - t) return RATE_LIMIT_LOAD.judge(ID, { ok: true, message: msg, evidence });
  if (s >= low)
    return RATE_LIMIT_LOAD.judge(ID, {
      ok: true,
      pass: 'with-earlier',
      message: `${msg}: consistent with the quota once the ${q - s} not reached are taken as this run's earlier requests`,
      evidence,
    });
  if (o.freshQuotaDay)
    return RATE_LIMIT_LOAD.judge(ID, {
      ok: false,
      fail: 'low',
      message: `${msg}: ${q - s} fewer than the quota, on a quota day nothing else used the key`,
      evidence,
    });
  const explained = e ? ", even counting this run's earlier requests" : '';
  // Fewer than the quota on a day the key may have served others: a doubt the run cannot settle, never a failure.
  return RATE_LIMIT_LOAD.judge(ID, {
    outcome: 'warn',
    title: 'early',
    message: `${msg}: fewer than the plan allows${explained} — was the key used earlier today? (use a dedicated key on a fresh day)`,
    evidence,
  });
}

export function judgeDaily(samples: readonly Sample[], o: JudgeOptions, stopped?: string): Judgement[] {
  const all = bySeq(samples);
  const out: Judgement[] = judgeTransport(samples, o);
  const D = o.perDay;
  if (D === undefined)
    return out.concat(
      RATE_LIMIT_LOAD.judge(ID, {
        outcome: 'skip',
        title: 'unknown',
        message: `plan ${o.plan} has no per-day number configured (ANIMAL_STORE_RPD)`,
      }),
    );
  // A refusal for the day answered with another status (a 503 with Retry-After): RL-CEILING-429 fails it by name, and
  // the quota is judged on it all the same (the count it came after is the quota's question).
  const other = firstOtherThrottle(all);
  const byStatus = other ? [judgeOtherThrottle(other, o)] : [];
  const dayLong = (s: Sample) => (signals(s).waitMs ?? 0) > o.windowMs + o.toleranceMs;
  const daily = all.find((s) => isDailyThrottle(s, o)) ?? (other && dayLong(other) ? other : undefined);
  // Count within one quota day: days are taken as aligned on the epoch (UTC midnight for the spec's day), so a run
  // that crosses a day boundary counts only the successes of the day it ended in — never a false "exceeded".
  const last = daily || all.filter(isSuccess).pop();
  const dayStart = last ? Math.floor(last.sentAt / o.dayMs) * o.dayMs : 0;
  const S = (daily ? all.filter((x) => x.seq < daily.seq) : all).filter((x) => isSuccess(x) && x.sentAt >= dayStart).length;
  if (daily) return out.concat(byStatus, refusal(all, daily, { s: S, q: D }, o));
  if (S > D)
    return out.concat(
      byStatus,
      RATE_LIMIT_LOAD.judge(ID, {
        ok: false,
        fail: 'not-enforced',
        message: `${S} requests succeeded within one day, more than plan ${o.plan}'s ${D}, and none was refused for the day`,
      }),
    );
  return out.concat(
    byStatus,
    RATE_LIMIT_LOAD.judge(ID, {
      outcome: 'skip',
      title: 'not-reached',
      message: `${S} successes of ${D} before the run stopped (${stopped || 'stopped'})`,
      remedy: `the daily scenario must spend a whole quota day: a --deadline-ms and --max-requests that let it, on a key not used earlier that day (a server with a shortened day: its --day-ms, and --rpd for enterprise)`,
    }),
  );
}
