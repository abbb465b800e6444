/**
 * The response checks of hygiene and security (ADVISORY), run on every exchange: each reads what a response shows and
 * calls the section's rules (src/core/sections/hygiene/rules.ts). Each warning is reported once per run and place (the
 * first response that shows it, with redacted evidence), not once per response; every clean response counts as a pass.
 */
import { header } from '../core/ratelimit.ts';
import {
  credentialSecrets,
  judgeDeprecationElsewhere,
  judgeNotReflected,
  judgeReflection,
  reflections,
  UNDEPRECATED,
} from '../core/sections/hygiene/rules.ts';
import { deprecationSignals } from './deprecation.ts';
import type { CheckSession, ResponseCheck } from './types.ts';

const CREDENTIAL = 'HYGIENE-CREDENTIAL-NOT-REFLECTED';
const DEPRECATION = 'HYGIENE-DEPRECATION-ONLY-GETPET';

/** True the first time a key is seen in this run (the warnings reported once per run and place). */
function firstTime(session: CheckSession, key: string): boolean {
  const seen = (session.reported ??= new Set<string>());
  if (seen.has(key)) return false;
  seen.add(key);
  return true;
}

export const credentialReflectionCheck: ResponseCheck = {
  name: 'credential-not-reflected',
  requirements: [CREDENTIAL],
  run({ ex, session, report }) {
    const res = ex.response;
    const authorization = header(ex.request.headers ?? {}, 'authorization');
    if (!res || authorization === undefined) return;
    const secrets = credentialSecrets(authorization);
    if (!secrets.length) return;
    const answered = { operation: ex.api.operation, status: res.status };
    const hits = reflections(res, secrets);
    if (!hits.length) report(judgeNotReflected(answered));
    const own = ex.api.auth === undefined || ex.api.auth === 'valid';
    for (const h of hits) if (firstTime(session, `${CREDENTIAL} ${h.where} ${own}`)) report(judgeReflection(answered, h, own));
  },
};

export const deprecationElsewhereCheck: ResponseCheck = {
  name: 'deprecation-only-getpet',
  requirements: [DEPRECATION],
  run({ ex, session, report }) {
    const res = ex.response;
    if (!res || !UNDEPRECATED.has(ex.api.operation)) return;
    const signals = deprecationSignals(res.headers);
    if (!signals.length || firstTime(session, `${DEPRECATION} ${ex.api.operation}`))
      report(judgeDeprecationElsewhere({ operation: ex.api.operation, status: res.status }, signals));
  },
};

export const hygieneChecks: readonly ResponseCheck[] = [credentialReflectionCheck, deprecationElsewhereCheck];
