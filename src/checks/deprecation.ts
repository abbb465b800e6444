/**
 * Deprecation of getPet: a Sunset (RFC 8594), if sent, is the announced date,
 * 5 December 2030; a Deprecation (RFC 9745), if sent, is `@<epoch-seconds>` and
 * not after the Sunset; no signal at all is a warning, never a failure (the spec
 * says the operation is deprecated but not how that is signalled).
 */
import LinkHeader from 'http-link-header';
import { header, parseHttpDate } from '../core/ratelimit.ts';
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

export const deprecationCheck: ResponseCheck = {
  name: 'deprecation-headers',
  requirements: [
    'DEPRECATION-SIGNALLED',
    'DEPRECATION-SUNSET-DATE',
    'DEPRECATION-HEADER-VALID',
    'DEPRECATION-BEFORE-SUNSET',
    'DEPRECATION-SUCCESSOR-LINK',
  ],
  run({ ex, emit }) {
    const res = ex.response;
    if (ex.api.operation !== 'getPet' || !res || res.status === 401 || res.status === 429 || res.status >= 500) return;
    const sunsetRaw = header(res.headers, 'sunset');
    const deprecationRaw = header(res.headers, 'deprecation');
    const link = header(res.headers, 'link');
    const depLinks = linksWithRel(link, 'deprecation');

    let sunsetAt: number | undefined;
    if (sunsetRaw !== undefined) {
      sunsetAt = parseHttpDate(sunsetRaw);
      if (sunsetAt === undefined)
        emit('DEPRECATION-SUNSET-DATE', 'fail', 'Sunset is not an HTTP-date', `Sunset ${JSON.stringify(sunsetRaw)}`, {
          expected: 'Thu, 05 Dec 2030 00:00:00 GMT',
          actual: sunsetRaw,
        });
      else if (sunsetAt < SUNSET_EARLIEST || sunsetAt > SUNSET_LATEST)
        emit('DEPRECATION-SUNSET-DATE', 'fail', 'Sunset is not the announced removal date', `Sunset ${sunsetRaw} is not 5 December 2030`, {
          expected: 'Thu, 05 Dec 2030 00:00:00 GMT',
          actual: sunsetRaw,
        });
      else emit('DEPRECATION-SUNSET-DATE', 'pass', 'Sunset is the announced date', sunsetRaw);
    } else
      emit(
        'DEPRECATION-SUNSET-DATE',
        'observe',
        'No Sunset header',
        'getPet sent no Sunset header (allowed: the spec does not require one)',
      );

    let deprecatedAt: number | undefined;
    if (deprecationRaw !== undefined) {
      const m = /^\s*@(-?\d{1,15})\s*$/.exec(deprecationRaw);
      if (m) {
        deprecatedAt = Number(m[1]) * 1000;
        emit('DEPRECATION-HEADER-VALID', 'pass', 'Deprecation is an RFC 9745 date', deprecationRaw);
      } else
        emit(
          'DEPRECATION-HEADER-VALID',
          'fail',
          'Deprecation is not an RFC 9745 date',
          `Deprecation ${JSON.stringify(deprecationRaw)}; RFC 9745 wants a Structured Field Date such as @1735689600`,
          { expected: '@<epoch-seconds>', actual: deprecationRaw },
        );
    }
    if (deprecatedAt !== undefined && sunsetAt !== undefined) {
      if (deprecatedAt > sunsetAt)
        emit(
          'DEPRECATION-BEFORE-SUNSET',
          'fail',
          'Deprecation is after the Sunset',
          `Deprecation ${new Date(deprecatedAt).toISOString()} is after Sunset ${new Date(sunsetAt).toISOString()}`,
        );
      else
        emit(
          'DEPRECATION-BEFORE-SUNSET',
          'pass',
          'Deprecation precedes the Sunset',
          `${new Date(deprecatedAt).toISOString()} ≤ ${new Date(sunsetAt).toISOString()}`,
        );
    }

    if (res.status === 200) {
      const signals = deprecationSignals(res.headers);
      if (signals.length) emit('DEPRECATION-SIGNALLED', 'pass', 'Deprecation is signalled', signals.join(', '));
      else
        emit(
          'DEPRECATION-SIGNALLED',
          'fail',
          'No deprecation signal',
          'getPet is deprecated (removal 5 December 2030) but its response carries no Deprecation, Sunset or deprecation Link header',
          { expected: 'Deprecation / Sunset / Link rel="deprecation"', actual: '(none)' },
        );
    }
    const successor = linksWithRel(link, 'successor-version');
    if (successor.length || depLinks.length)
      emit(
        'DEPRECATION-SUCCESSOR-LINK',
        'observe',
        'Deprecation links observed',
        `successor-version: ${successor.join(' ') || '-'}; deprecation: ${depLinks.join(' ') || '-'}`,
      );
  },
};
