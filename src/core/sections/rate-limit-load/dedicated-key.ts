/**
 * Requests counted on a dedicated key that its own scenario did not send. When
 * several plans run side by side, each on a key nothing else uses, X-RateLimit-
 * Remaining between two of the scenario's successes can fall by at most one per
 * request: a fixed window counts one, a sliding log or token bucket may free
 * slots (Remaining falls less, or rises), a rollover starts again. A bigger fall
 * is another key's requests counted in this key's bucket — minus the scenario's
 * own requests whose response said nothing (an error, a missing header), which
 * the server may have counted unseen. Pure.
 */
import type { Judgement } from '../../sections/define.ts';
import { RATE_LIMIT_HEADERS } from '../rate-limit-headers/requirements.ts';
import type { Sample } from '../../sample.ts';
import { isRollover, isSuccess, serverOrder, signals } from './signals.ts';

export interface Foreign {
  /** Requests counted beyond the scenario's own. */
  extra: number;
  /** The first pair of successes between which Remaining fell by more than one. */
  example?: [Sample, Sample];
}

const rem = (s: Sample) => signals(s).remaining as number;

export function foreignRequests(samples: readonly Sample[]): Foreign {
  const counted = samples.filter((s) => isSuccess(s) && signals(s).remaining !== undefined);
  const unseen = samples.length - counted.length;
  let extra = 0;
  let example: [Sample, Sample] | undefined;
  let prev: Sample | undefined;
  for (const s of serverOrder(counted)) {
    if (prev && !isRollover(prev, s) && rem(prev) - rem(s) > 1) {
      extra += rem(prev) - rem(s) - 1;
      if (!example) example = [prev, s];
    }
    prev = s;
  }
  return { extra: Math.max(0, extra - unseen), ...(example ? { example } : {}) };
}

/** RL-REMAINING-DECREMENTS on a dedicated key, from the requests of one paced phase. */
export function judgeForeign(samples: readonly Sample[]): Judgement {
  const f = foreignRequests(samples);
  const n = (s: Sample) => `request #${s.seq + 1}`;
  if (f.extra > 0 && f.example) {
    const [a, b] = f.example;
    return RATE_LIMIT_HEADERS.judge('RL-REMAINING-DECREMENTS', {
      ok: false,
      fail: 'foreign',
      message: `${f.extra} request(s) were counted that this scenario did not send, on a key used by nothing else: the server counts another key's (plan's) requests in this key's bucket; e.g. ${n(a)} said ${rem(a)}, ${n(b)} said ${rem(b)}`,
    });
  }
  return RATE_LIMIT_HEADERS.judge('RL-REMAINING-DECREMENTS', {
    ok: true,
    pass: 'own-only',
    message: `over ${samples.length} requests on a key used by nothing else, Remaining never fell by more than one per request`,
  });
}
