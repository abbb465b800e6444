import { describe, expect, it } from 'vitest';
import { escapeMarkdown, renderSummary, SUMMARY_LIST_CAP } from '../../src/results/writers/markdown.ts';
import type { RunReport } from '../../src/results/types.ts';
import { aborted, failingReport, HOSTILE, interrupted, passingReport, withResults } from './fixtures.ts';

describe('summary.md', () => {
  const verdicts: [string, RunReport, string][] = [
    ['passing', passingReport(), '## ✅ animal-store certification: **CERTIFIED**'],
    ['failing', failingReport(), '## ❌ animal-store certification: **NOT CONFORMANT**'],
    ['interrupted', interrupted(passingReport()), '## ⚠️ animal-store certification: **INTERRUPTED**'],
    ['aborted', aborted(passingReport()), '## ⛔ animal-store certification: **ABORTED**'],
  ];
  it.each(verdicts)('The %s run starts with its verdict line.', (_name, report, line) => {
    expect(renderSummary(report).split('\n')[0]).toBe(line);
  });

  it('It names the target, plan, suite version and spec hash.', () => {
    const md = renderSummary(passingReport());
    expect(md).toContain('- **Target:** `https://api.animal-store.example/v1` (production)');
    expect(md).toContain('- **Plan:** free');
    expect(md).toMatch(/- \*\*Suite:\*\* 0\\?\.1\\?\.0 · spec sha256 `a3f1c9e07b5d`/);
  });

  it('It has a counts table.', () => {
    expect(renderSummary(failingReport())).toContain('| pass | fail | warn | skip | waived |\n| ---: | ---: | ---: | ---: | ---: |\n| 54 | 4 | 1 | 2 | 1 |');
  });

  it('It lists every failed MUST with a one-line reason.', () => {
    const md = renderSummary(failingReport());
    expect(md).toContain('### ❌ Failed MUST requirements (4)');
    expect(md).toMatch(/^- \*\*SCHEMA-PET\*\* \(MUST\): Pet schema violation: \/id must be integer$/m);
  });

  it(`The warnings list is capped at ${SUMMARY_LIST_CAP} with a count of the rest.`, () => {
    const ids = passingReport().requirements.filter((r) => r.level !== 'MUST').map((r) => r.id).slice(0, SUMMARY_LIST_CAP + 3);
    const changes = Object.fromEntries(ids.map((id) => [id, (r: RunReport['requirements'][number]) => ({ ...r, status: 'warn' as const })]));
    const md = renderSummary(withResults(passingReport(), changes));
    const section = md.slice(md.indexOf('### ⚠️ Warnings'));
    expect(section.match(/^- \*\*/gm)).toHaveLength(SUMMARY_LIST_CAP);
    expect(section).toMatch(/^- … and \d+ more \(see index.html\)$/m);
  });

  it('It points to index.html.', () => {
    expect(renderSummary(passingReport())).toContain('`index.html`');
  });

  it('Hostile content cannot inject HTML, links or mentions into a PR comment.', () => {
    const md = renderSummary(failingReport());
    expect(md).not.toContain('<script');
    expect(md).not.toContain('<img');
    expect(md).not.toContain('@everyone');
    expect(md).not.toContain('](javascript:');
  });

  const escapes: [string, string, string][] = [
    ['HTML', '<b>x</b>', '&lt;b\\>x&lt;/b\\>'],
    ['a link', '[a](http://x)', '\\[a\\]\\(http&#58;//x\\)'],
    ['a mention', '@org/team', '&#64;org/team'],
    ['a table pipe and emphasis', 'a | *b*', 'a \\| \\*b\\*'],
    ['line breaks', 'one\ntwo', 'one two'],
  ];
  it.each(escapes)('escapeMarkdown neutralises %s.', (_name, input, expected) => {
    expect(escapeMarkdown(input)).toBe(expected);
  });

  it('escapeMarkdown neutralises the fixture’s Markdown attack.', () => {
    expect(escapeMarkdown(HOSTILE.markdown)).not.toMatch(/[^\\][[\]|`*]|@/);
  });
});
