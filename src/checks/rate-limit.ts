/**
 * Response checks of the rate-limit headers (X-RateLimit-Limit / Remaining /
 * Reset on every response) and of every 429 (Retry-After, Remaining 0).
 */
import { header, judgeReset, parseRetryAfter, readRateLimit, serverDate } from '../core/ratelimit.ts';
import type { ResponseCheck } from './registry.ts';

/** Clock skew allowed against the response's Date header (1 s resolution) and without one. */
const SKEW_WITH_DATE_S = 2;
const SKEW_WITHOUT_DATE_S = 60;
const MINUTE_S = 60;
const DAY_S = 86_400;

const headersCheck: ResponseCheck = {
  name: 'rate-limit-headers',
  requirements: [
    'RL-HEADERS-PRESENT',
    'RL-HEADERS-INTEGER',
    'RL-REMAINING-LE-LIMIT',
    'RL-RESET-UNIX-SECONDS',
    'RL-LIMIT-PLAN',
    'RL-LIMIT-CONSTANT',
    'RL-SCOPE',
  ],
  run({ ex, session, emit }) {
    const res = ex.response;
    if (!res) return;
    const rl = readRateLimit(res.headers);
    const missing = [
      rl.limitRaw === undefined && 'X-RateLimit-Limit',
      rl.remainingRaw === undefined && 'X-RateLimit-Remaining',
      rl.resetRaw === undefined && 'X-RateLimit-Reset',
    ].filter(Boolean);
    if (missing.length)
      emit(
        'RL-HEADERS-PRESENT',
        'fail',
        'Rate-limit header missing',
        `${res.status} response to ${ex.api.operation} lacks ${missing.join(', ')}`,
        { expected: 'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset', actual: `missing ${missing.join(', ')}` },
      );
    else emit('RL-HEADERS-PRESENT', 'pass', 'Rate-limit headers present', `${res.status} ${ex.api.operation}`);
    if (ex.api.operation && missing.length < 3)
      emit('RL-SCOPE', 'observe', 'Animal endpoints carry rate-limit headers', `${ex.api.operation} responses carry X-RateLimit-* headers`);

    const malformed: string[] = [];
    if (rl.limitRaw !== undefined && (rl.limit === undefined || rl.limit === 0))
      malformed.push(`X-RateLimit-Limit ${JSON.stringify(rl.limitRaw)}`);
    if (rl.remainingRaw !== undefined && rl.remaining === undefined)
      malformed.push(`X-RateLimit-Remaining ${JSON.stringify(rl.remainingRaw)}`);
    if (malformed.length)
      emit('RL-HEADERS-INTEGER', 'fail', 'Rate-limit header is not a non-negative integer', malformed.join(', '), {
        expected: 'a non-negative integer (Limit > 0)',
        actual: malformed.join(', '),
      });
    else if (rl.limitRaw !== undefined || rl.remainingRaw !== undefined)
      emit('RL-HEADERS-INTEGER', 'pass', 'Integer rate-limit headers', `Limit ${rl.limitRaw}, Remaining ${rl.remainingRaw}`);

    if (rl.limit !== undefined && rl.remaining !== undefined) {
      if (rl.remaining > rl.limit)
        emit(
          'RL-REMAINING-LE-LIMIT',
          'fail',
          'Remaining exceeds Limit',
          `X-RateLimit-Remaining ${rl.remaining} > X-RateLimit-Limit ${rl.limit}`,
          { expected: `≤ ${rl.limit}`, actual: String(rl.remaining) },
        );
      else emit('RL-REMAINING-LE-LIMIT', 'pass', 'Remaining within Limit', `${rl.remaining} ≤ ${rl.limit}`);
    }

    const withKey = (ex.api.auth ?? 'valid') === 'valid';
    const { perMinute, perDay } = session.limits;
    const daily = rl.limit !== undefined && perDay !== undefined && rl.limit === perDay && perDay !== perMinute;
    if (rl.resetRaw !== undefined) {
      const date = serverDate(res.headers);
      const ref = date ?? ex.startedAt + ex.durationMs;
      const windowS = !withKey ? DAY_S : daily ? DAY_S : MINUTE_S;
      const v = judgeReset(rl.resetRaw, ref, windowS, date !== undefined ? SKEW_WITH_DATE_S : SKEW_WITHOUT_DATE_S);
      if (v.ok)
        emit(
          'RL-RESET-UNIX-SECONDS',
          'pass',
          'Reset is a Unix timestamp in seconds',
          `${rl.resetRaw} (response time ${Math.floor(ref / 1000)})`,
        );
      else
        emit('RL-RESET-UNIX-SECONDS', 'fail', `Reset is not a Unix timestamp in seconds (${v.reason})`, v.detail, {
          expected: `Unix seconds between ${Math.floor(ref / 1000)} and ${Math.floor(ref / 1000) + windowS}`,
          actual: rl.resetRaw,
        });
    }

    if (!withKey || rl.limit === undefined || res.status === 401) return;
    if (perMinute === undefined)
      emit(
        'RL-LIMIT-PLAN',
        'observe',
        'Limit observed for a custom plan',
        `X-RateLimit-Limit ${rl.limit} (set ANIMAL_STORE_RPM to judge it)`,
      );
    else if (rl.limit === perMinute || daily)
      emit(
        'RL-LIMIT-PLAN',
        'pass',
        'Limit matches the plan',
        `X-RateLimit-Limit ${rl.limit} (${session.limits.plan}: ${perMinute}/min, ${perDay ?? '?'}/day)`,
      );
    else
      emit(
        'RL-LIMIT-PLAN',
        'fail',
        'Limit differs from the plan',
        `X-RateLimit-Limit ${rl.limit}, but the ${session.limits.plan} plan allows ${perMinute} requests per minute`,
        { expected: `${perMinute}${perDay ? ` (or ${perDay} per day)` : ''}`, actual: String(rl.limit) },
      );

    if (session.firstLimit === undefined) session.firstLimit = rl.limit;
    else if (session.firstLimit !== rl.limit)
      emit('RL-LIMIT-CONSTANT', 'fail', 'Limit changed during the run', `X-RateLimit-Limit was ${session.firstLimit}, now ${rl.limit}`, {
        expected: String(session.firstLimit),
        actual: String(rl.limit),
      });
    else emit('RL-LIMIT-CONSTANT', 'pass', 'Limit unchanged', String(rl.limit));
  },
};

const tooManyRequests: ResponseCheck = {
  name: 'rate-limit-429',
  requirements: ['RL-429-RETRY-AFTER', 'RL-429-REMAINING-ZERO'],
  run({ ex, emit }) {
    const res = ex.response;
    if (!res || res.status !== 429) return;
    const ra = parseRetryAfter(header(res.headers, 'retry-after'));
    if (ra.kind === 'absent')
      emit('RL-429-RETRY-AFTER', 'fail', '429 without Retry-After', 'The 429 response has no Retry-After header', {
        expected: 'Retry-After: delay-seconds or HTTP-date',
        actual: '(none)',
      });
    else if (ra.kind === 'invalid')
      emit(
        'RL-429-RETRY-AFTER',
        'fail',
        'Retry-After is malformed',
        `Retry-After ${JSON.stringify(ra.raw)} is neither delay-seconds nor an HTTP-date`,
        { expected: 'delay-seconds or HTTP-date', actual: ra.raw },
      );
    else emit('RL-429-RETRY-AFTER', 'pass', 'Retry-After present', ra.raw);
    const remaining = readRateLimit(res.headers).remaining;
    if (remaining !== undefined && remaining > 0)
      emit('RL-429-REMAINING-ZERO', 'fail', '429 with Remaining above zero', `X-RateLimit-Remaining ${remaining} on a 429`, {
        expected: '0',
        actual: String(remaining),
      });
    else if (remaining === 0) emit('RL-429-REMAINING-ZERO', 'pass', '429 with Remaining 0', '0');
  },
};

export const rateLimitChecks: readonly ResponseCheck[] = [headersCheck, tooManyRequests];
