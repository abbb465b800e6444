/**
 * badge.svg: a shields-like flat badge, "animal-store | certified · <plan> · <date>"
 * in green only for a certified run; "not conformant" in red (a MUST failed, even
 * in a run that stopped); "passed, incomplete (N MUSTs not exercised)",
 * "interrupted" or "stopped early" in amber; "key refused" (exit 5) in its outcome's
 * colour. The words are the headline of every
 * other writer. A run over several plans counts them: "4 plans certified" (green),
 * "3 of 4 plans certified" (red when a plan is not conformant, else amber), after
 * "interrupted", "stopped early" or "key refused" when the run did not complete. Widths are
 * computed from the text with Verdana 11px metrics.
 */
import type { RunReport } from '../types.ts';
import { dateOf, escapeXml, headline, plansCertified, plansOf, toneOf, type Tone } from './common.ts';

export const BADGE_GREEN = '#2e9e47';
export const BADGE_RED = '#d73a2f';
/** Passed what it exercised, but not complete: never the certified green. */
export const BADGE_AMBER = '#b08800';
const LABEL_GREY = '#555';
const COLOR: Record<Tone, string> = { certified: BADGE_GREEN, incomplete: BADGE_AMBER, 'not-conformant': BADGE_RED };

/** Approximate advance widths of Verdana at 11px (shields uses the same font). */
const WIDTHS: Record<string, number> = {
  ' ': 3.9,
  '.': 3.9,
  ',': 3.9,
  ':': 4.6,
  ';': 4.6,
  '·': 3.9,
  '-': 4.6,
  _: 7,
  '/': 4.9,
  '|': 4.9,
  '(': 4.6,
  ')': 4.6,
  a: 6.7,
  b: 6.9,
  c: 5.8,
  d: 6.9,
  e: 6.7,
  f: 3.9,
  g: 6.9,
  h: 7,
  i: 3,
  j: 3.8,
  k: 6.5,
  l: 3,
  m: 10.7,
  n: 7,
  o: 6.7,
  p: 6.9,
  q: 6.9,
  r: 4.7,
  s: 5.7,
  t: 4.3,
  u: 7,
  v: 6.5,
  w: 9,
  x: 6.5,
  y: 6.5,
  z: 5.8,
  I: 4.3,
  J: 5,
  M: 9.2,
  W: 10.9,
};

export function textWidth(text: string): number {
  let w = 0;
  for (const ch of text) {
    const known = WIDTHS[ch];
    if (known !== undefined) w += known;
    else if (/[0-9]/.test(ch)) w += 7;
    else if (/[A-Z]/.test(ch)) w += 7.6;
    else w += 7.2;
  }
  return Math.ceil(w);
}

/** The headline in lower case (the badge says what every other writer says), with how many MUSTs an incomplete run left out. */
export function badgeMessage(report: RunReport): string {
  const n = report.notExercised.length;
  const h = headline(report);
  const plans = plansOf(report);
  if (plans) {
    const stopped = h === 'INTERRUPTED' || h === 'STOPPED EARLY' || h === 'KEY REFUSED' ? `${h.toLowerCase()} · ` : '';
    return `${stopped}${plansCertified(report, plans)} · ${dateOf(report.endedAt || report.startedAt)}`;
  }
  const state = h === 'PASSED, INCOMPLETE' && n ? `passed, incomplete (${n} MUST${n === 1 ? '' : 's'} not exercised)` : h.toLowerCase();
  return `${state} · ${report.target.plan ?? 'plan not given'} · ${dateOf(report.endedAt || report.startedAt)}`;
}

export function renderBadge(report: RunReport): string {
  const label = 'animal-store';
  const message = badgeMessage(report);
  const color = COLOR[toneOf(report)];
  const lw = textWidth(label) + 12;
  const mw = textWidth(message) + 12;
  const w = lw + mw;
  const l = escapeXml(label);
  const m = escapeXml(message);
  // ids unique per badge text, so two badges inlined in one page do not share a clip path
  const id = `b${[...message].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7).toString(36)}`;
  const text = (x: number, s: string) =>
    `<text x="${x}" y="15" fill="#010101" fill-opacity=".3">${s}</text><text x="${x}" y="14">${s}</text>`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="20" role="img" aria-label="${l}: ${m}">`,
    `<title>${l}: ${m}</title>`,
    `<linearGradient id="${id}s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>`,
    `<clipPath id="${id}r"><rect width="${w}" height="20" rx="3" fill="#fff"/></clipPath>`,
    `<g clip-path="url(#${id}r)"><rect width="${lw}" height="20" fill="${LABEL_GREY}"/><rect x="${lw}" width="${mw}" height="20" fill="${color}"/><rect width="${w}" height="20" fill="url(#${id}s)"/></g>`,
    '<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" text-rendering="geometricPrecision" font-size="11">',
    text(lw / 2, l),
    text(lw + mw / 2, m),
    '</g>',
    '</svg>',
    '',
  ].join('\n');
}
