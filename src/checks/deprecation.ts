/**
 * Deprecation of getPet: a Sunset (RFC 8594), if sent, is the announced date,
 * 5 December 2030; a Deprecation (RFC 9745), if sent, is `@<epoch-seconds>` and
 * not after the Sunset; no signal at all is a warning, never a failure (the spec
 * says the operation is deprecated but not how that is signalled: a SHOULD, whose
 * violation the section's judge makes a warning).
 */
import LinkHeader from 'http-link-header';
import { header, parseHttpDate } from '../core/ratelimit.ts';
import type { Judgement } from '../core/spec/define.ts';
import { DEPRECATION } from '../core/spec/deprecation/requirements.ts';
import type { ResponseCheck } from './types.ts';

/** 5 December 2030 in any time zone (UTC−12 … UTC+14). */
const SUNSET_EARLIEST = Date.UTC(2030, 11, 4, 10, 0, 0);
const SUNSET_LATEST = Date.UTC(2030, 11, 6, 12, 0, 0);

/**
 * The targets of the Link header's entries with a given rel (rel may list
 * several tokens), parsed by RFC 8288's grammar: a quoted parameter may hold a
 * `,` or a `;`. A header that does not parse carries no link.
 */
export function linksWithRel(link: string | undefined, rel: string): string[] {
  if (!link) return [];
  try {
    return LinkHeader.parse(link)
      .rel(rel)
      .map((ref) => ref.uri);
  } catch {
    return [];
  }
}

/** The deprecation signals a response carries: Deprecation (RFC 9745), Sunset (RFC 8594), a Link rel=deprecation or rel=sunset. */
export function deprecationSignals(headers: Record<string, string>): string[] {
  const link = header(headers, 'link');
  return [
    header(headers, 'deprecation') !== undefined && 'Deprecation',
    header(headers, 'sunset') !== undefined && 'Sunset',
    linksWithRel(link, 'deprecation').length > 0 && 'Link rel=deprecation',
    linksWithRel(link, 'sunset').length > 0 && 'Link rel=sunset',
  ].filter((s): s is string => !!s);
}

const SUNSET_EXPECTED = 'Thu, 05 Dec 2030 00:00:00 GMT';

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
function judgeSignalled(headers: Record<string, string>): Judgement {
  const signals = deprecationSignals(headers);
  return DEPRECATION.judge('DEPRECATION-SIGNALLED', {
    ok: signals.length > 0,
    message: signals.length
      ? signals.join(', ')
      : 'getPet is deprecated (removal 5 December 2030) but its response carries no Deprecation, Sunset or deprecation Link header',
    evidence: signals.length ? undefined : { expected: 'Deprecation / Sunset / Link rel="deprecation"', actual: '(none)' },
  });
}

export const deprecationCheck: ResponseCheck = {
  name: 'deprecation-headers',
  requirements: [
    'DEPRECATION-SIGNALLED',
    'DEPRECATION-SUNSET-DATE',
    'DEPRECATION-HEADER-VALID',
    'DEPRECATION-BEFORE-SUNSET',
    'DEPRECATION-SUCCESSOR-LINK',
  ],
  run({ ex, report }) {
    const res = ex.response;
    if (ex.api.operation !== 'getPet' || !res || res.status === 401 || res.status === 429 || res.status >= 500) return;
    const sunset = judgeSunset(header(res.headers, 'sunset'));
    report(sunset.judgement);
    const deprecationRaw = header(res.headers, 'deprecation');
    const deprecation = deprecationRaw === undefined ? undefined : judgeDeprecation(deprecationRaw);
    if (deprecation) report(deprecation.judgement);
    if (deprecation?.at !== undefined && sunset.at !== undefined) report(judgeOrder(deprecation.at, sunset.at));
    if (res.status === 200) report(judgeSignalled(res.headers));
    const link = header(res.headers, 'link');
    const successor = linksWithRel(link, 'successor-version');
    const deprecationLinks = linksWithRel(link, 'deprecation');
    if (successor.length || deprecationLinks.length)
      report(
        DEPRECATION.judge('DEPRECATION-SUCCESSOR-LINK', {
          outcome: 'observe',
          title: 'observed',
          message: `successor-version: ${successor.join(' ') || '-'}; deprecation: ${deprecationLinks.join(' ') || '-'}`,
        }),
      );
  },
};
