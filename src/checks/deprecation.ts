/**
 * The deprecation of getPet, checked on every getPet response: its headers read here (the Link header through
 * http-link-header, RFC 8288's grammar), judged by the section's rules (src/core/sections/deprecation/rules.ts).
 */
import LinkHeader from 'http-link-header';
import { header } from '../core/ratelimit.ts';
import { judgeGetPetDeprecation } from '../core/sections/deprecation/rules.ts';
import type { ResponseCheck } from './types.ts';

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
  run({ ex, report }) {
    const res = ex.response;
    if (ex.api.operation !== 'getPet' || !res) return;
    const link = header(res.headers, 'link');
    const facts = {
      status: res.status,
      sunset: header(res.headers, 'sunset'),
      deprecation: header(res.headers, 'deprecation'),
      signals: deprecationSignals(res.headers),
      links: { successor: linksWithRel(link, 'successor-version'), deprecation: linksWithRel(link, 'deprecation') },
    };
    for (const j of judgeGetPetDeprecation(facts)) report(j);
  },
};
