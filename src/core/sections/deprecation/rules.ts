/**
 * The rules of getPet's deprecation, written once: a Sunset (RFC 8594), if sent, is the announced date, 5 December
 * 2030; a Deprecation (RFC 9745), if sent, is `@<epoch-seconds>` and not after the Sunset; no signal at all is a
 * warning, never a failure (the spec says the operation is deprecated but not how that is signalled: a SHOULD, whose
 * violation the section's judge makes a warning). The check registry (src/checks/deprecation.ts) reads the headers —
 * the Link header through its RFC 8288 parser — and calls these on every getPet response. Pure.
 */
import { parseHttpDate } from '../../ratelimit.ts';
import type { Judgement } from '../define.ts';
import { DEPRECATION } from './requirements.ts';

/** 5 December 2030 in any time zone (UTC−12 … UTC+14). */
const SUNSET_EARLIEST = Date.UTC(2030, 11, 4, 10, 0, 0);
const SUNSET_LATEST = Date.UTC(2030, 11, 6, 12, 0, 0);
const SUNSET_EXPECTED = 'Thu, 05 Dec 2030 00:00:00 GMT';

/** What the rules read of a getPet response: its status, its Sunset and Deprecation headers, its deprecation signals and links. */
export interface DeprecationFacts {
  status: number;
  sunset?: string;
  deprecation?: string;
  /** The signals it carries: Deprecation, Sunset, Link rel=deprecation, Link rel=sunset. */
  signals: readonly string[];
  /** The targets of its Link header's rel=successor-version and rel=deprecation entries. */
  links: { successor: readonly string[]; deprecation: readonly string[] };
}

/** DEPRECATION-SUNSET-DATE, and the Sunset's time when it is an HTTP-date. */
function judgeSunset(raw: string | undefined): { at?: number; judgement: Judgement } {
  const id = 'DEPRECATION-SUNSET-DATE';
  if (raw === undefined)
    return {
      judgement: DEPRECATION.judge(id, {
        outcome: 'observe',
        title: 'absent',
        message: 'getPet sent no Sunset header (allowed: the spec does not require one)',
      }),
    };
  const at = parseHttpDate(raw);
  const evidence = { expected: SUNSET_EXPECTED, actual: raw };
  if (at === undefined)
    return { judgement: DEPRECATION.judge(id, { ok: false, fail: 'not-http-date', message: `Sunset ${JSON.stringify(raw)}`, evidence }) };
  const ok = at >= SUNSET_EARLIEST && at <= SUNSET_LATEST;
  return {
    at,
    judgement: DEPRECATION.judge(id, {
      ok,
      message: ok ? raw : `Sunset ${raw} is not 5 December 2030`,
      evidence: ok ? undefined : evidence,
    }),
  };
}

/** DEPRECATION-HEADER-VALID (when a Deprecation is sent), and its time when it is an RFC 9745 date. */
function judgeDeprecation(raw: string): { at?: number; judgement: Judgement } {
  const m = /^\s*@(-?\d{1,15})\s*$/.exec(raw);
  const judgement = DEPRECATION.judge('DEPRECATION-HEADER-VALID', {
    ok: m !== null,
    message: m ? raw : `Deprecation ${JSON.stringify(raw)}; RFC 9745 wants a Structured Field Date such as @1735689600`,
    evidence: m ? undefined : { expected: '@<epoch-seconds>', actual: raw },
  });
  return m ? { at: Number(m[1]) * 1000, judgement } : { judgement };
}

/** DEPRECATION-BEFORE-SUNSET: the Deprecation date is not after the Sunset. */
function judgeOrder(deprecatedAt: number, sunsetAt: number): Judgement {
  const [d, s] = [new Date(deprecatedAt).toISOString(), new Date(sunsetAt).toISOString()];
  const ok = deprecatedAt <= sunsetAt;
  return DEPRECATION.judge('DEPRECATION-BEFORE-SUNSET', { ok, message: ok ? `${d} ≤ ${s}` : `Deprecation ${d} is after Sunset ${s}` });
}

/** DEPRECATION-SIGNALLED on a 200: a Deprecation, a Sunset or a deprecation Link. */
function judgeSignalled(signals: readonly string[]): Judgement {
  return DEPRECATION.judge('DEPRECATION-SIGNALLED', {
    ok: signals.length > 0,
    message: signals.length
      ? signals.join(', ')
      : 'getPet is deprecated (removal 5 December 2030) but its response carries no Deprecation, Sunset or deprecation Link header',
    evidence: signals.length ? undefined : { expected: 'Deprecation / Sunset / Link rel="deprecation"', actual: '(none)' },
  });
}

/** Every deprecation rule a getPet response is judged by (none for a 401, a 429 or a 5xx: no answer of the operation). */
export function judgeGetPetDeprecation(f: DeprecationFacts): Judgement[] {
  if (f.status === 401 || f.status === 429 || f.status >= 500) return [];
  const sunset = judgeSunset(f.sunset);
  const out = [sunset.judgement];
  const deprecation = f.deprecation === undefined ? undefined : judgeDeprecation(f.deprecation);
  if (deprecation) out.push(deprecation.judgement);
  if (deprecation?.at !== undefined && sunset.at !== undefined) out.push(judgeOrder(deprecation.at, sunset.at));
  if (f.status === 200) out.push(judgeSignalled(f.signals));
  const { successor, deprecation: links } = f.links;
  if (successor.length || links.length)
    out.push(
      DEPRECATION.judge('DEPRECATION-SUCCESSOR-LINK', {
        outcome: 'observe',
        title: 'observed',
        message: `successor-version: ${successor.join(' ') || '-'}; deprecation: ${links.join(' ') || '-'}`,
      }),
    );
  return out;
}

/** DEPRECATION-SIGNALLED not judged: no pet to fetch (the list was empty or failed), so no getPet 200 was seen. */
export function judgeSignalledUnseen(): Judgement {
  return DEPRECATION.judge('DEPRECATION-SIGNALLED', {
    outcome: 'skip',
    title: 'not-judged',
    message: 'no pet to fetch: the list was empty or failed',
  });
}
