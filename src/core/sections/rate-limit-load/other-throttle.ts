/**
 * A throttle answered with another status than 429 (nginx's limit_req answers 503 by default; some gateways 403 or
 * 420): RL-CEILING-429 fails by name in every scenario that meets one, instead of reading it as "limit not reached".
 * A response counts as such a throttle when it refuses (4xx or 5xx, not 429) and either says so itself — a
 * Retry-After, or X-RateLimit-Remaining 0 — or comes where the 429 was predicted: sent once a success of the key
 * had said Remaining 0. Any other error is what it is (a 500 mid-window is no throttle). Pure.
 */
import type { Judgement } from '../../sections/define.ts';
import type { JudgeOptions, Sample } from '../../sample.ts';
import { RATE_LIMIT_LOAD } from './requirements.ts';
import { sampleEvidence } from './samples.ts';
import { describeRetryAfter, signals } from './signals.ts';

/** `predicted`: a success of the key said Remaining 0 before this request was sent. */
export function isOtherThrottle(s: Sample, predicted = false): boolean {
  if (s.status < 400 || s.status === 429 || s.status > 599) return false;
  const sig = signals(s);
  return predicted || sig.retryAfter.kind !== 'absent' || sig.remaining === 0;
}

/** The first throttle answered with another status among these samples (sent order), if any. */
export function firstOtherThrottle(samples: readonly Sample[]): Sample | undefined {
  let zeroAt: number | undefined;
  for (const s of samples.slice().sort((a, b) => a.seq - b.seq)) {
    if (isOtherThrottle(s, zeroAt !== undefined && s.sentAt >= zeroAt)) return s;
    if (s.status >= 200 && s.status < 300 && signals(s).remaining === 0 && zeroAt === undefined) zeroAt = s.t;
  }
  return undefined;
}

/** RL-CEILING-429 failed by a throttle answered `s.status`: the spec's status at the limit is 429. */
export function judgeOtherThrottle(s: Sample, o: JudgeOptions, startedAt?: number): Judgement {
  const sig = signals(s);
  const said = [describeRetryAfter(sig.retryAfter), `Remaining ${sig.remaining === undefined ? 'absent' : sig.remaining}`].join(', ');
  return RATE_LIMIT_LOAD.judge('RL-CEILING-429', {
    ok: false,
    fail: 'other-status',
    args: { status: s.status },
    message: `request #${s.seq + 1} was throttled with ${s.status} (${said}), the spec says 429: "A request exceeding the limit receives 429 Too Many Requests"`,
    evidence: { ...sampleEvidence(s, o, startedAt), expected: '429 Too Many Requests', actual: `${s.status} with ${said}` },
  });
}
