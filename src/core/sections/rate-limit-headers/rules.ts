/**
 * The per-response rate-limit rules, written once: X-RateLimit-Limit / Remaining /
 * Reset on every response, the plan's limit, and what every 429 must carry
 * (Retry-After, Remaining 0, an Error body, a Reset that is the real reset).
 * The conformance check registry calls them on every exchange; both load engines
 * call them on every sample. Pure (bundled for k6).
 */
import type { Judgement } from '../../sections/define.ts';
import { PLAN_CHOICES, PLANS, type PlanLimits, type PlanName } from '../../plans.ts';
import { header, judgeReset, parseRetryAfter, readRateLimit, serverDate, type HeaderBag } from '../../ratelimit.ts';
import { RATE_LIMIT_HEADERS } from './requirements.ts';

/** One response as the rules see it. */
export interface ResponseFacts {
  status: number;
  headers: HeaderBag;
  /** First bytes of the body (the 429 body is judged). */
  body?: string;
  /** Epoch ms the response was received (local clock). */
  t: number;
  /** Epoch ms the request was sent (local clock): the server decided somewhere between the two. */
  sentAt?: number;
  /** The request carried the configured key (else 401 is the expected answer). */
  withKey: boolean;
  /** How messages name the response, e.g. "listPets 200" or "request #12". */
  label: string;
}

export interface RuleContext {
  /** The configured plan's limits; undefined when no plan was given (never guessed). */
  limits?: PlanLimits;
  /** The quota window (ms): a Reset may lie at most one day ahead. */
  dayMs: number;
  /** The per-minute window (ms): a Reset beside the minute's Limit lies at most one window ahead; none: not judged. */
  windowMs?: number;
}

export const PLAN_REMEDY = `give the plan of the key: --plan ${PLAN_CHOICES} (or ANIMAL_STORE_PLAN)`;
export const RPM_REMEDY = 'give the enterprise limits: --rpm N (and --rpd N), or ANIMAL_STORE_RPM / ANIMAL_STORE_RPD';

/** Clock skew allowed against the response's Date header (1 s resolution), and without one. */
const SKEW_WITH_DATE_S = 2;
const SKEW_WITHOUT_DATE_S = 60;

/** Do these headers count the plan's per-day quota ("the request limit in force") rather than the minute? */
export function countsDay(limit: number | undefined, limits: PlanLimits | undefined): boolean {
  return limit !== undefined && !!limits && limits.perDay !== undefined && limit === limits.perDay && limits.perDay !== limits.perMinute;
}

/** The plans whose per-minute or per-day number an X-RateLimit-Limit matches. */
export function plansMatching(limit: number): string[] {
  const out: string[] = [];
  for (const name of Object.keys(PLANS) as Exclude<PlanName, 'enterprise'>[]) {
    if (PLANS[name].perMinute === limit) out.push(`${name} (${limit} per minute)`);
    else if (PLANS[name].perDay === limit) out.push(`${name} (${limit} per day)`);
  }
  return out;
}

/** X-RateLimit-* on any response: present, integers, Remaining ≤ Limit, Reset in Unix seconds, the plan's Limit. */
export function rateLimitHeaderRules(r: ResponseFacts, ctx: RuleContext): Judgement[] {
  const out: Judgement[] = [];
  const rl = readRateLimit(r.headers);
  const missing = [
    rl.limitRaw === undefined && 'X-RateLimit-Limit',
    rl.remainingRaw === undefined && 'X-RateLimit-Remaining',
    rl.resetRaw === undefined && 'X-RateLimit-Reset',
  ].filter((x): x is string => !!x);
  out.push(
    RATE_LIMIT_HEADERS.judge('RL-HEADERS-PRESENT', {
      ok: !missing.length,
      message: missing.length ? `${r.label} lacks ${missing.join(', ')}` : r.label,
    }),
  );
  if (missing.length < 3)
    out.push(
      RATE_LIMIT_HEADERS.judge('RL-SCOPE', {
        outcome: 'observe',
        title: 'rate-limited',
        message: 'the animal endpoints carry X-RateLimit-* headers',
      }),
    );

  const bad: string[] = [];
  if (rl.limitRaw !== undefined && (rl.limit === undefined || rl.limit === 0)) bad.push(`X-RateLimit-Limit ${JSON.stringify(rl.limitRaw)}`);
  if (rl.remainingRaw !== undefined && rl.remaining === undefined) bad.push(`X-RateLimit-Remaining ${JSON.stringify(rl.remainingRaw)}`);
  if (bad.length || rl.limitRaw !== undefined || rl.remainingRaw !== undefined)
    out.push(
      RATE_LIMIT_HEADERS.judge('RL-HEADERS-INTEGER', {
        ok: !bad.length,
        message: bad.length ? `${r.label}: ${bad.join(', ')}` : `${r.label}: Limit ${rl.limitRaw}, Remaining ${rl.remainingRaw}`,
      }),
    );

  if (rl.limit !== undefined && rl.remaining !== undefined)
    out.push(
      RATE_LIMIT_HEADERS.judge('RL-REMAINING-LE-LIMIT', {
        ok: rl.remaining <= rl.limit,
        message:
          rl.remaining > rl.limit
            ? `${r.label}: X-RateLimit-Remaining ${rl.remaining} > X-RateLimit-Limit ${rl.limit}`
            : `${r.label}: ${rl.remaining} ≤ ${rl.limit}`,
      }),
    );

  const reset = resetRule(r, ctx);
  if (reset) out.push(reset);
  const plan = limitPlanRule(r, ctx);
  if (plan) out.push(...plan);
  return out;
}

/**
 * RL-RESET-UNIX-SECONDS: Unix seconds, not before the response, at most one day
 * after it (the per-day quota may be the limit in force, so its end is a valid
 * Reset); on a 429, the real reset. Seconds-until, milliseconds and the past fail.
 *
 * The server's clocks are compared allowing for the exchange: its limiter decided somewhere between the moment the
 * request left and the moment the response came back, and its Date (1 s resolution) was stamped when the response
 * left — up to the exchange's duration after the decision. Reset and Retry-After may each be rounded either way.
 */
function resetRule(r: ResponseFacts, ctx: RuleContext): Judgement | undefined {
  const rl = readRateLimit(r.headers);
  if (rl.resetRaw === undefined) return undefined;
  const date = serverDate(r.headers);
  const ref = date !== undefined ? date : r.t;
  const windowS = Math.ceil(ctx.dayMs / 1000);
  const exchangeS = Math.ceil(exchangeMs(r) / 1000);
  const v = judgeReset(rl.resetRaw, ref, windowS, (date !== undefined ? SKEW_WITH_DATE_S : SKEW_WITHOUT_DATE_S) + exchangeS);
  // A Date far from the moment the response arrived may be stale (a server reusing one Date per connection): a Reset
  // that holds against the arrival time, with the skew allowed without a Date, is no fault of the Reset.
  const staleDate = date !== undefined && Math.abs(date - r.t) > SKEW_WITHOUT_DATE_S * 1000;
  if (!v.ok && staleDate && judgeReset(rl.resetRaw, r.t, windowS, SKEW_WITHOUT_DATE_S + exchangeS).ok)
    return RATE_LIMIT_HEADERS.judge('RL-RESET-UNIX-SECONDS', {
      ok: true,
      message: `${r.label}: ${rl.resetRaw}, judged against the time the response arrived (${Math.floor(r.t / 1000)}): its Date is ${Math.round((r.t - date) / 1000)} s off it`,
    });
  if (!v.ok)
    return RATE_LIMIT_HEADERS.judge('RL-RESET-UNIX-SECONDS', { ok: false, args: { reason: v.reason }, message: `${r.label}: ${v.detail}` });
  const stale = date !== undefined ? staleResetOn429(r, ctx, date) : undefined;
  if (stale) return RATE_LIMIT_HEADERS.judge('RL-RESET-UNIX-SECONDS', { ok: false, fail: 'stale', message: `${r.label}: ${stale}` });
  const late = date !== undefined ? lateMinuteReset(r, ctx, date) : undefined;
  if (late) return RATE_LIMIT_HEADERS.judge('RL-RESET-UNIX-SECONDS', { ok: false, fail: 'late', message: `${r.label}: ${late}` });
  return RATE_LIMIT_HEADERS.judge('RL-RESET-UNIX-SECONDS', {
    ok: true,
    message: `${r.label}: ${rl.resetRaw} (response time ${Math.floor(ref / 1000)})`,
  });
}

/**
 * A Reset more than one window, and at most two, after the response while X-RateLimit-Limit is the plan's per-minute
 * number: whichever limiter counts the minute (a fixed window, a sliding log, a token bucket), its limit is whole again
 * within a window of the response, so "the Unix timestamp at which the limit resets" cannot lie further (fault
 * reset-one-window-late: the end of the next window). Left out: a 429 (a key banned, or out of its day's quota, may be
 * told the end of that while its Limit still names the minute), headers counting the day (the day's Limit), a response
 * without a Date (its clock unknown: the day's bound only), and a Reset further than two windows or on a day's boundary
 * (epoch-aligned): where the day's quota binds first, Reset may be the day's end while Limit names the minute.
 */
function lateMinuteReset(r: ResponseFacts, ctx: RuleContext, date: number): string | undefined {
  const rl = readRateLimit(r.headers);
  const { windowMs, limits } = ctx;
  if (!windowMs || r.status === 429 || rl.reset === undefined || limits?.perMinute === undefined) return undefined;
  if (rl.limit !== limits.perMinute || limits.perDay === limits.perMinute || (rl.reset * 1000) % ctx.dayMs === 0) return undefined;
  const ahead = rl.reset - Math.floor(date / 1000);
  // The limiter decides before the Date is stamped, so a correct Reset (rounded up) is less than a window and a second
  // after the Date's second: allowed, a second more (the skew allowed against a Date) and the time the exchange took.
  const slackMs = windowMs + SKEW_WITH_DATE_S * 1000 + exchangeMs(r);
  if (ahead * 1000 <= slackMs || ahead * 1000 > windowMs + slackMs) return undefined;
  return `X-RateLimit-Reset ${rl.resetRaw} is ${ahead} s after the response's Date, while X-RateLimit-Limit ${rl.limitRaw} is the per-minute limit, whose window is ${windowMs / 1000} s: the limit resets within a window`;
}

/** How long the exchange took on the local clock (0 when the sending time is unknown). */
const exchangeMs = (r: ResponseFacts): number => (r.sentAt !== undefined ? Math.max(0, r.t - r.sentAt) : 0);

/**
 * A 429 whose Reset had passed before the limiter could have decided to refuse it: the decision came no earlier than
 * the response's own Date minus the time the exchange took, and the limit had not reset then (it refused), so the
 * Reset — rounded down at worst — must lie after that moment's second began. A Reset at the response's own second is
 * no proof: the window may end within it. (A Retry-After longer than Reset is RL-RETRY-AFTER-CONSISTENT's concern: a
 * server may ask to wait longer than the limit needs.) With the server's own Date there is no clock skew to allow for.
 */
function staleResetOn429(r: ResponseFacts, ctx: RuleContext, date: number): string | undefined {
  const rl = readRateLimit(r.headers);
  if (r.status !== 429 || countsDay(rl.limit, ctx.limits) || rl.reset === undefined) return undefined;
  const exchange = exchangeMs(r);
  if (rl.reset * 1000 + 1000 > date - exchange) return undefined;
  const took = exchange ? ` (the exchange took ${exchange} ms)` : '';
  return `X-RateLimit-Reset ${rl.resetRaw} had passed ${Math.round((date - exchange - rl.reset * 1000) / 1000)} s before the earliest moment the server could have decided to refuse this request${took}: the limit cannot reset before it refuses`;
}

/** RL-LIMIT-PLAN on an authenticated answer: never guessed — without a plan it only observes which plan the Limit matches. */
function limitPlanRule(r: ResponseFacts, ctx: RuleContext): Judgement[] | undefined {
  const rl = readRateLimit(r.headers);
  if (!r.withKey || rl.limit === undefined || r.status === 401) return undefined;
  const limits = ctx.limits;
  if (!limits) {
    const match = plansMatching(rl.limit);
    return [
      RATE_LIMIT_HEADERS.judge('RL-LIMIT-PLAN', {
        outcome: 'observe',
        title: 'no-plan',
        message: `X-RateLimit-Limit ${rl.limit} ${match.length ? `matches the ${match.join(', ')} plan` : 'matches no plan of the spec (an enterprise plan?)'}`,
      }),
      RATE_LIMIT_HEADERS.judge('RL-LIMIT-PLAN', {
        outcome: 'skip',
        title: 'plan-not-given',
        message: 'the plan of the key was not given, so X-RateLimit-Limit was not judged',
        remedy: PLAN_REMEDY,
      }),
    ];
  }
  if (limits.perMinute === undefined)
    return [
      RATE_LIMIT_HEADERS.judge('RL-LIMIT-PLAN', { outcome: 'observe', title: 'custom-plan', message: `X-RateLimit-Limit ${rl.limit}` }),
      RATE_LIMIT_HEADERS.judge('RL-LIMIT-PLAN', {
        outcome: 'skip',
        title: 'limits-not-given',
        message: 'the enterprise plan has custom limits, which were not given',
        remedy: RPM_REMEDY,
      }),
    ];
  const ok = rl.limit === limits.perMinute || countsDay(rl.limit, limits);
  return [
    RATE_LIMIT_HEADERS.judge('RL-LIMIT-PLAN', {
      ok,
      message: ok
        ? `X-RateLimit-Limit ${rl.limit} (${limits.plan}: ${limits.perMinute}/min, ${limits.perDay !== undefined ? limits.perDay : '?'}/day)`
        : `X-RateLimit-Limit ${rl.limit}, but the ${limits.plan} plan allows ${limits.perMinute} requests per minute`,
    }),
  ];
}

/** What every 429 must carry: a usable Retry-After, Remaining 0, an Error body. */
export function tooManyRequestsRules(r: ResponseFacts, ctx: RuleContext): Judgement[] {
  if (r.status !== 429) return [];
  const out: Judgement[] = [];
  const ra = parseRetryAfter(header(r.headers, 'retry-after'));
  out.push(
    RATE_LIMIT_HEADERS.judge('RL-429-RETRY-AFTER', {
      ok: ra.kind !== 'absent' && ra.kind !== 'invalid',
      fail: ra.kind === 'invalid' ? 'malformed' : 'fail',
      message:
        ra.kind === 'absent'
          ? `${r.label}: the 429 has no Retry-After header`
          : ra.kind === 'invalid'
            ? `${r.label}: Retry-After ${JSON.stringify(ra.raw)} is neither delay-seconds nor an HTTP-date (RFC 9110 §10.2.3)`
            : `${r.label}: Retry-After: ${ra.raw}`,
    }),
  );
  const rl = readRateLimit(r.headers);
  if (countsDay(rl.limit, ctx.limits))
    out.push(
      RATE_LIMIT_HEADERS.judge('RL-429-REMAINING-ZERO', {
        outcome: 'skip',
        title: 'counts-day',
        message: `${r.label}: the rate-limit headers count the day, whose quota is not used up`,
      }),
    );
  else if (rl.remaining !== undefined)
    out.push(
      RATE_LIMIT_HEADERS.judge('RL-429-REMAINING-ZERO', {
        ok: rl.remaining === 0,
        message: `${r.label}: X-RateLimit-Remaining ${rl.remaining}${rl.remaining > 0 ? ' on a 429' : ''}`,
      }),
    );
  out.push(errorBody429(r));
  return out;
}

/**
 * RL-429-ERROR-BODY (SHOULD: the 429 body is "not shown"): an Error whose status
 * is 429. Its media type is not judged: a text body (express-rate-limit's
 * default) is already a warning here, never a failure.
 */
export function errorBody429(r: ResponseFacts): Judgement {
  const problems: string[] = [];
  let v: unknown;
  let parsed = true;
  try {
    v = JSON.parse(r.body || '');
  } catch {
    parsed = false;
  }
  if (!parsed) problems.push(`not JSON (${JSON.stringify((r.body || '').slice(0, 80))})`);
  else if (v === null || typeof v !== 'object' || Array.isArray(v)) problems.push('not a JSON object');
  else {
    const o = v as { code?: unknown; message?: unknown; status?: unknown };
    if (typeof o.code !== 'string') problems.push('no string code');
    if (typeof o.message !== 'string') problems.push('no string message');
    if (o.status !== 429) problems.push(`status is ${JSON.stringify(o.status)}, not 429`);
  }
  return RATE_LIMIT_HEADERS.judge('RL-429-ERROR-BODY', {
    ok: !problems.length,
    message: problems.length ? `${r.label}: the 429 body is ${problems.join(', ')}` : `${r.label}: an Error with status 429`,
  });
}

/**
 * RL-LIMIT-CONSTANT: X-RateLimit-Limit stays the limit in force for the key. A server may show whichever of the plan's
 * two limits is in force — the minute's, or the day's once its quota is what refuses (RL-LIMIT-PLAN accepts either) —
 * so a move between the plan's per-minute and per-day numbers is no change of limit; any other change is.
 */
export function limitConstantRule(first: number, limit: number, limits: PlanLimits | undefined): Judgement {
  if (limit === first) return RATE_LIMIT_HEADERS.judge('RL-LIMIT-CONSTANT', { ok: true, message: String(limit) });
  const plans: { perMinute?: number; perDay?: number }[] = limits ? [limits] : Object.values(PLANS);
  const p = plans.find((x) => [x.perMinute, x.perDay].includes(first) && [x.perMinute, x.perDay].includes(limit));
  if (p)
    return RATE_LIMIT_HEADERS.judge('RL-LIMIT-CONSTANT', {
      ok: true,
      pass: 'per-day',
      message: `X-RateLimit-Limit was ${first}, now ${limit}: the plan's ${limit === p.perDay ? 'per-day' : 'per-minute'} limit is the one in force`,
    });
  return RATE_LIMIT_HEADERS.judge('RL-LIMIT-CONSTANT', {
    ok: false,
    message: `X-RateLimit-Limit was ${first}, now ${limit}`,
    evidence: { expected: String(first), actual: String(limit) },
  });
}

/** RL-HEADERS-PRESENT not judged on a `status` response: the request meant to produce one was answered `shown`. */
export function judgeNoStatusToInspect(status: number, shown: string): Judgement {
  return RATE_LIMIT_HEADERS.judge('RL-HEADERS-PRESENT', {
    outcome: 'skip',
    title: 'no-status',
    args: { status },
    message: `expected a ${status}, got ${shown}`,
  });
}

/** RL-SCOPE, observed: the X-RateLimit-* values a `status` response carried, as sent ('-' for one absent). */
export function judgeHeadersByStatus(status: number, headers: HeaderBag): Judgement {
  const rl = readRateLimit(headers);
  return RATE_LIMIT_HEADERS.judge('RL-SCOPE', {
    outcome: 'observe',
    title: 'by-status',
    message: `${status}: Limit ${rl.limitRaw ?? '-'}, Remaining ${rl.remainingRaw ?? '-'}, Reset ${rl.resetRaw ?? '-'}`,
  });
}

/** Every per-response rate-limit rule. */
export function responseRules(r: ResponseFacts, ctx: RuleContext): Judgement[] {
  return rateLimitHeaderRules(r, ctx).concat(tooManyRequestsRules(r, ctx));
}
