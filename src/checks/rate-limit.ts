/**
 * The rate-limit response checks: a thin adapter over the core's per-response
 * rules (src/core/sections/rate-limit-headers/rules.ts — the same rules both load engines apply to
 * every sample), plus RL-LIMIT-CONSTANT, which needs the run's memory.
 */
import { readRateLimit } from '../core/ratelimit.ts';
import { limitConstantRule, responseRules, type ResponseFacts } from '../core/sections/rate-limit-headers/rules.ts';
import type { ApiExchange } from '../http/client.ts';
import type { ResponseCheck } from './types.ts';

export function responseFacts(ex: ApiExchange): ResponseFacts | undefined {
  const res = ex.response;
  if (!res) return undefined;
  return {
    status: res.status,
    headers: res.headers,
    body: res.bodyText,
    t: ex.startedAt + ex.durationMs,
    sentAt: ex.startedAt,
    withKey: (ex.api.auth ?? 'valid') === 'valid',
    label: `${res.status} response to ${ex.api.operation}`,
  };
}

const rules: ResponseCheck = {
  name: 'rate-limit-headers',
  requirements: [
    'RL-HEADERS-PRESENT',
    'RL-HEADERS-INTEGER',
    'RL-REMAINING-LE-LIMIT',
    'RL-RESET-UNIX-SECONDS',
    'RL-LIMIT-PLAN',
    'RL-SCOPE',
    'RL-429-RETRY-AFTER',
    'RL-429-REMAINING-ZERO',
    'RL-429-ERROR-BODY',
  ],
  run({ ex, session, report }) {
    const facts = responseFacts(ex);
    if (!facts) return;
    for (const j of responseRules(facts, { limits: session.limits, dayMs: session.dayMs, windowMs: session.windowMs })) report(j);
  },
};

const constant: ResponseCheck = {
  name: 'rate-limit-constant',
  requirements: ['RL-LIMIT-CONSTANT'],
  run({ ex, session, report }) {
    const res = ex.response;
    const limit = res ? readRateLimit(res.headers).limit : undefined;
    if (!res || limit === undefined || res.status === 401 || (ex.api.auth ?? 'valid') !== 'valid') return;
    if (session.firstLimit === undefined) session.firstLimit = limit;
    report(limitConstantRule(session.firstLimit, limit, session.limits));
  },
};

export const rateLimitChecks: readonly ResponseCheck[] = [rules, constant];
