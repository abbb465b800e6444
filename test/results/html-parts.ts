/**
 * Pieces of a rendered index.html the HTML tests look into: attribute values,
 * a requirement's row, a scenario's card, one drawing of a chart.
 */
import { expect } from 'vitest';

/** Every value of an attribute (or of the last attribute of a longer pattern), in document order. */
export const attrs = (html: string, name: string) => [...html.matchAll(new RegExp(`${name}="([^"]*)"`, 'g'))].map((m) => m[1]);

/** Where an element with this data-testid starts (-1 when absent). */
export const position = (html: string, testid: string) => html.indexOf(`data-testid="${testid}"`);

/** The markup of one requirement's <article>. */
export function requirementRow(html: string, id: string): string {
  const at = html.indexOf(`data-requirement="${id}" data-status`);
  expect(at, id).toBeGreaterThan(0);
  return html.slice(html.lastIndexOf('<article', at), html.indexOf('</article>', at));
}

/** The markup of one scenario's card in the load section. */
export function scenarioCard(html: string, scenario: string): string {
  const at = html.indexOf(`data-testid="load-run" data-scenario="${scenario}"`);
  expect(at, scenario).toBeGreaterThan(0);
  return html.slice(at, html.indexOf('</article>', at));
}

/** The markup of one drawing (wide or narrow) of a chart. */
export function drawing(chart: string, layout: 'wide' | 'narrow'): string {
  const at = chart.indexOf(`data-layout="${layout}"`);
  expect(at, layout).toBeGreaterThan(0);
  return chart.slice(at, chart.indexOf('</svg>', at));
}
