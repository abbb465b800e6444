import { describe, expect, it } from 'vitest';
import { html, joinHtml, raw } from '../../src/results/writers/html-safe.ts';
import { renderHtml } from '../../src/results/writers/html.ts';
import type { RunReport } from '../../src/results/types.ts';
import { aborted, comparedWith, failingReport, HOSTILE } from '../support/report-fixtures.ts';
import { mixedPlans } from './plan-fixtures.ts';

/** What a hostile server puts in its error messages, headers and bodies. */
const PAYLOAD = `${HOSTILE.script}${HOSTILE.img}`;

/**
 * Every string of the report with the payload appended — the server's bodies,
 * headers, messages, URLs, and every other text a writer might print — except
 * the closed vocabularies the writers branch on (a status is never the server's).
 */
const CLOSED = new Set([
  'status',
  'outcome',
  'level',
  'verdict',
  'kind',
  'engine',
  'plan',
  'scenario',
  'requirement',
  'id',
  'startedAt',
  'endedAt',
  'at',
]);
function poisoned<T>(value: T, key = ''): T {
  if (typeof value === 'string') return (CLOSED.has(key) ? value : value + PAYLOAD) as T;
  if (Array.isArray(value)) return value.map((v) => poisoned(v, key)) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'headers' ? poisonedHeaders(v) : poisoned(v, k)])) as T;
  return value;
}
/** Header names as well as values: a server chooses both. */
const poisonedHeaders = (h: Record<string, string>) =>
  Object.fromEntries(Object.entries(h ?? {}).map(([k, v]) => [k + PAYLOAD, v + PAYLOAD]));

/** A run with every section present: plans, a comparison, not-exercised MUSTs, suite errors, load, notes, an abort. */
function hostileReport(): RunReport {
  const failing = failingReport();
  const base = comparedWith(aborted(mixedPlans(), 'stopped'), { 'SCHEMA-PET': 'pass', 'RESP-BODY-JSON': 'fail' });
  return poisoned({ ...base, suiteErrors: failing.suiteErrors, notes: failing.notes, diagnosis: failing.diagnosis });
}

/** The markup of the element that carries this data-testid (to its matching close tag). */
function section(page: string, testid: string): string {
  const at = page.indexOf(`data-testid="${testid}"`);
  expect(at, testid).toBeGreaterThan(0);
  const start = page.lastIndexOf('<', at);
  const tag = /^<(\w+)/.exec(page.slice(start))![1];
  let depth = 0;
  const re = new RegExp(`<(/?)${tag}\\b`, 'g');
  re.lastIndex = start;
  for (let m = re.exec(page); m; m = re.exec(page)) {
    depth += m[1] ? -1 : 1;
    if (!depth) return page.slice(start, m.index);
  }
  throw new Error(`${testid} is not closed`);
}

/** The tags of some markup, attribute values emptied (a value's text is not markup). */
const tags = (markup: string) => markup.replace(/="[^"]*"/g, '=""').match(/<[^>]*>/g) ?? [];
/** Tags a payload would have made: its elements, or an event handler on any element. */
const injected = (markup: string) => tags(markup).filter((t) => /^<(script|img)\b/i.test(t) || /\son\w+=/i.test(t));

/** The sections of index.html that print what the run saw, and the one that prints only counts. */
const SECTIONS = ['banner', 'comparison', 'plan-matrix', 'suite-errors', 'not-exercised', 'requirements', 'load', 'notes', 'footer'];

describe('index.html escapes by default', () => {
  const page = renderHtml(hostileReport());

  it.each(SECTIONS)('A script payload in what the server sent is shown as text, never as markup, in the %s section.', (testid) => {
    const part = section(page, testid);
    expect(part).toContain('&lt;script&gt;window.__pwned = 1&lt;/script&gt;');
    expect(injected(part)).toEqual([]);
  });

  it('The whole page has one script element (its own) and no element or event handler the server chose.', () => {
    const body = page.slice(page.indexOf('<body>'), page.lastIndexOf('<script>'));
    expect(page.match(/<script/g)).toHaveLength(1);
    expect(injected(body)).toEqual([]);
    expect(section(page, 'counts')).not.toContain('pwned');
  });

  it('The html tag escapes text and attribute values, inserts its own markup as it is, and joins arrays.', () => {
    const v = '<b title="x">\n';
    expect(String(html`<p title="${v}">${v}</p>`)).toBe(
      '<p title="&lt;b title=&quot;x&quot;&gt;&#10;">&lt;b title=&quot;x&quot;&gt;\n</p>',
    );
    expect(String(html`<ul>${['<a>', html`<li>${'&'}</li>`]}</ul>`)).toBe('<ul>&lt;a&gt;<li>&amp;</li></ul>');
    expect(String(html`<i>${undefined}${null}${false}${0}</i>`)).toBe('<i>0</i>');
    expect(String(joinHtml([html`<br>`, '<'], ' '))).toBe('<br> &lt;');
    expect(String(html`<style>${raw('a>b{}')}</style>`)).toBe('<style>a>b{}</style>');
  });
});
