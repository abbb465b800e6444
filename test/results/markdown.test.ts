import { describe, expect, it } from 'vitest';
import { escapeMarkdown, fenced, renderSummary, SUMMARY_LIST_CAP } from '../../src/results/writers/markdown.ts';
import type { RunReport } from '../../src/results/types.ts';
import {
  aborted,
  certifiedReport,
  comparedWith,
  conformanceOnly,
  failingReport,
  HOSTILE,
  incompleteReport,
  interrupted,
  SECRET_KEY,
  withoutPlan,
  withStatus,
} from '../support/report-fixtures.ts';
import { allPlansCertified, mixedPlans, onePlan, threeOfFourCertified } from './plan-fixtures.ts';

/** The lines of a section, from its heading to the next heading. */
function section(md: string, heading: string): string {
  const at = md.indexOf(heading);
  expect(at, heading).toBeGreaterThanOrEqual(0);
  const next = md.indexOf('\n### ', at + 1);
  return md.slice(at, next < 0 ? undefined : next);
}

describe('summary.md', () => {
  const verdicts: [string, RunReport, string][] = [
    ['certified', certifiedReport(), '## ✅ animal-store certification: **CERTIFIED**'],
    ['conformance-only', conformanceOnly(certifiedReport()), '## ✅ animal-store conformance: **CONFORMANT**'],
    ['incomplete', incompleteReport(), '## 🟡 animal-store certification: **PASSED, INCOMPLETE**'],
    ['not-conformant', failingReport(), '## ❌ animal-store certification: **NOT CONFORMANT**'],
    ['interrupted', interrupted(certifiedReport()), '## 🟡 animal-store certification: **INTERRUPTED**'],
    ['aborted', aborted(certifiedReport()), '## 🟡 animal-store certification: **STOPPED EARLY**'],
  ];
  it.each(verdicts)('The %s run starts with its headline, and its scope sentence follows.', (_name, report, line) => {
    const lines = renderSummary(report).split('\n');
    expect(lines[0]).toBe(line);
    expect(lines[2]).toMatch(/^> \S/);
  });

  it('The ✅ appears only in the summary of a certified run.', () => {
    for (const [, report] of verdicts) expect(renderSummary(report).includes('✅')).toBe(report.outcome === 'certified' && !report.abort);
  });

  it('An incomplete run lists each MUST not exercised with its reason and the flag or profile that would exercise it.', () => {
    const md = section(renderSummary(incompleteReport()), '### 🟡 MUST requirements not exercised (3)');
    expect(md).toContain(
      "- **RL-DAILY-QUOTA**: no rate-limit scenario of this run judges it — To exercise it: run the daily scenario: --profile full --allow-daily \\(it spends the key's whole daily quota; use a dedicated key\\)",
    );
    expect(md).toMatch(/^- \*\*RL-SUSTAINED-BELOW-CEILING\*\*: .* — To exercise it: run the sustained scenario/m);
    expect(md.match(/^- \*\*/gm)).toHaveLength(3);
  });

  it('With a comparison, what is new since the last run comes right after the headline, before the failures.', () => {
    const md = renderSummary(failingReport());
    const heading = '### 🆕 New since the last run (2025-05-31 10:00:00 UTC, not-conformant) (2)';
    expect(md.indexOf(heading)).toBeGreaterThan(0);
    expect(md.indexOf(heading)).toBeLessThan(md.indexOf('### ❌ Failed MUST requirements'));
    const news = section(md, heading);
    expect(news).toMatch(/^- \*\*SCHEMA-PET\*\* \(MUST, failed\): Pet schema violation: \/id must be integer$/m);
    expect(news).toMatch(/^- \*\*LIST-LIMIT-FILLS-PAGE\*\* \(SHOULD, warned\): /m);
    expect(news).toContain('Fixed since the last run: RESP-BODY-JSON · Still failing: TRANSPORT-COMPLETE-RESPONSE');
    expect(news).toContain('Flapping: RESP-BODY-JSON, LIST-LIMIT-FILLS-PAGE');
  });

  it('A comparison with nothing new says so, and still names what was fixed.', () => {
    const md = renderSummary(comparedWith(certifiedReport(), { 'SCHEMA-PET': 'fail' }));
    expect(md).toContain(
      '### Nothing new since the last run (2025-05-31 10:00:00 UTC, not-conformant)\n\nFixed since the last run: SCHEMA-PET · Still failing: DEPRECATION-SIGNALLED\n',
    );
  });

  it('Each cause is shown once: its title and id, the requirements it breaks, one line of evidence and a fenced curl line with the key as $ANIMAL_STORE_API_KEY.', () => {
    const md = section(renderSummary(failingReport()), '### ❌ Causes (6)');
    expect(md).toMatch(
      new RegExp(
        [
          '^- ❌ \\*\\*Pet schema violation \\\\\\(POST /pets\\\\\\)\\*\\* `C-[0-9A-F]{8}`',
          '  Breaks: SCHEMA-PET \\\\\\(MUST\\\\\\)',
          '  Pet schema violation: /id must be integer',
          '',
        ].join('\n'),
        'm',
      ),
    );
    expect(md).toContain(
      [
        '  Evidence: POST https&#58;//api.animal-store.example/v1/pets → HTTP 201; expected id: integer \\(int64\\); actual id: "12" \\(string\\)',
        '',
        '  ```sh',
        `  curl -i -X 'POST' -H "Authorization: Bearer $ANIMAL_STORE_API_KEY" -H 'content-type: application/json' --data-raw '{"name":"Rex'\\''s","categoryId":1}' 'https://api.animal-store.example/v1/pets'`,
        '  ```',
      ].join('\n'),
    );
    // every cause with a request has one curl line; the short page (no request recorded) has none
    expect(md.match(/^ {2}```sh$/gm)).toHaveLength(md.match(/^- (❌|⚠️) /gm)!.length - 1);
  });

  it('Each failed MUST is listed once with its reason and points to its cause, without repeating the evidence.', () => {
    const r = failingReport();
    const md = section(renderSummary(r), '### ❌ Failed MUST requirements (6)');
    const schema = r.requirements.find((q) => q.id === 'SCHEMA-PET')!;
    expect(md).toContain(`- **SCHEMA-PET** (MUST): Pet schema violation: /id must be integer — cause ${schema.causes![0]}\n`);
    expect(md).not.toContain('```');
    expect(md).not.toContain('Evidence:');
  });

  it('A failure found under load is one cause with every requirement its request breaks, and names the request it is about.', () => {
    const md = section(renderSummary(failingReport()), '### ❌ Causes');
    expect(md).toMatch(
      /^- ❌ \*\*Throttled before the limit \\\(the ceiling scenario\\\)\*\* `C-[0-9A-F]{8}`\n {2}Breaks: RL-NOT-EARLY, RL-CEILING-429 \\\(MUST\\\)$/m,
    );
    expect(md).toMatch(/Evidence: GET https&#58;\/\/api\.animal-store\.example\/v1\/pets\?limit=1 → HTTP 429; request \\#51 at 5\.02 s/);
  });

  it('Warnings are listed with their reason, and capped with a count of the rest.', () => {
    const ids = certifiedReport()
      .requirements.filter((r) => r.level !== 'MUST')
      .map((r) => r.id)
      .slice(0, SUMMARY_LIST_CAP + 2);
    const md = section(renderSummary(withStatus(certifiedReport(), ids, 'warn')), '### ⚠️ Warnings');
    expect(md.match(/^- \*\*/gm)).toHaveLength(SUMMARY_LIST_CAP);
    expect(md).toMatch(/^- … and \d+ more \(see index.html\)$/m);
  });

  it('The counts table names every status, observed apart from passed.', () => {
    const r = failingReport();
    const c = r.counts;
    expect(renderSummary(r)).toContain(
      `| failed | warned | waived | not exercised | passed | observed |\n| ---: | ---: | ---: | ---: | ---: | ---: |\n| ${c.fail} | ${c.warn} | ${c.waived} | ${c.skip} | ${c.pass} | ${c.observed} |`,
    );
  });

  it('It names the target, the plan (or that none was given), the diagnosis, the suite errors and the scenarios.', () => {
    const md = renderSummary(failingReport());
    expect(md).toContain('- **Target:** `https://api.animal-store.example/v1` (production)');
    expect(md).toContain('- **Plan:** free');
    expect(md).toMatch(/^> \*\*Diagnosis:\*\* GET https&#58;\/\/api/m);
    expect(md).toContain(
      "### Defects of the suite, not the server's (1)\n\n- CREATE-400-BAD-BODY: Check crashed — TypeError: body is undefined",
    );
    expect(md).toContain('| ceiling | free | node | fail | 51 |');
    expect(renderSummary(withoutPlan(incompleteReport()))).toContain('- **Plan:** not given');
  });

  it('Hostile content cannot inject HTML, links or mentions into a PR comment, and the key never appears.', () => {
    const md = renderSummary(failingReport());
    for (const bad of ['<script', '<img', '@everyone', '](javascript:', SECRET_KEY]) expect(md).not.toContain(bad);
    expect(md).not.toMatch(/[\u0000-\u0008\u000b-\u001f]|[\ud800-\udfff]/u);
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

  it('A fenced block is longer than any backtick run inside it, indented on every line, its control characters made visible.', () => {
    expect(fenced("curl 'a```b'\nnext\u0007", 'sh')).toEqual(['  ````sh', "  curl 'a```b'", '  next\\u0007', '  ````']);
  });
});

describe('summary.md of a run over several plans', () => {
  const md = renderSummary(mixedPlans());

  it('Right under the scope, a table gives each plan its icon and outcome, limits, key source and the MUSTs it failed or left out.', () => {
    const table = section(md, '### Plans: 1 of 4 plans certified');
    expect(md.indexOf('### Plans')).toBeLessThan(md.indexOf('### ❌ Failed MUST requirements'));
    expect(table).toContain(
      "Conformance was judged once on the key from ANIMAL\\_STORE\\_API\\_KEY\\_PRO, for every plan; the rate limits on each plan's own key.",
    );
    expect(table).toContain(
      [
        '| plan | outcome | limits | key from | failed MUSTs | MUSTs not exercised |',
        '| --- | --- | --- | --- | --- | --- |',
        '| free | ✅ CERTIFIED | 60/min · 1,000/day | ANIMAL\\_STORE\\_API\\_KEY\\_FREE | — | — |',
        '| pro | 🟡 PASSED, INCOMPLETE | 300/min · 10,000/day | ANIMAL\\_STORE\\_API\\_KEY\\_PRO | — | RL-SUSTAINED-BELOW-CEILING, RL-WINDOW-PER-MINUTE, RL-DAILY-QUOTA |',
        '| business | ❌ NOT CONFORMANT | 1,000/min · 100,000/day | ANIMAL\\_STORE\\_API\\_KEY\\_BUSINESS | RL-CEILING-429, RL-NOT-EARLY | RL-RECOVERY, RL-429-NOTHING-STORED |',
        '| enterprise | 🟡 PASSED, INCOMPLETE | 1,500/min · 500,000/day | ANIMAL\\_STORE\\_API\\_KEY\\_ENTERPRISE | — | RL-DAILY-QUOTA |',
      ].join('\n'),
    );
  });

  it('✅ marks only a certified plan, and the heading only when every plan is certified.', () => {
    const ticks = (text: string) => text.match(/✅/g)?.length ?? 0;
    expect(ticks(md)).toBe(1);
    expect(ticks(renderSummary(threeOfFourCertified()))).toBe(3);
    const all = renderSummary(allPlansCertified());
    expect(all.split('\n')[0]).toBe('## ✅ animal-store certification: **CERTIFIED**');
    expect(ticks(all)).toBe(5);
  });

  it('A failed MUST names the plan it failed on, and its cause’s curl line reads that plan’s key variable.', () => {
    const failed = section(md, '### ❌ Failed MUST requirements (2)');
    expect(failed).toMatch(
      /^- \*\*RL-NOT-EARLY\*\* \(MUST, on business\): Throttled before the limit: request \\#51.* — cause C-[0-9A-F]{8}$/m,
    );
    const causes = section(md, '### ❌ Causes');
    expect(causes).toMatch(/^- ❌ \*\*Throttled before the limit \\\(the ceiling scenario\\\)\*\* `C-[0-9A-F]{8}`, on business$/m);
    expect(causes).toContain('curl -i -H "Authorization: Bearer $ANIMAL_STORE_API_KEY_BUSINESS"');
  });

  it('The MUSTs not exercised are listed once per requirement, as many as counted, with the plans they concern and each plan’s reason when they differ.', () => {
    const gaps = section(md, '### 🟡 MUST requirements not exercised (5)');
    expect(gaps.match(/^- /gm)).toHaveLength(5);
    expect(gaps).toMatch(
      /^- \*\*RL-DAILY-QUOTA\*\* \(on pro, enterprise\): on pro: no rate-limit scenario of this run judges it — To exercise it: run the daily scenario.*; on enterprise: Daily scenario not allowed: .* — To exercise it: --allow-daily$/m,
    );
    expect(gaps).toMatch(/^- \*\*RL-RECOVERY\*\* \(on business\): /m);
  });

  it('A hostile key source or conformance key cannot break the plans table or inject markup.', () => {
    const r = mixedPlans();
    const hostile = `A|B ${HOSTILE.img} ${HOSTILE.markdown}`;
    const out = renderSummary({ ...r, conformanceKey: hostile, plans: r.plans!.map((p) => ({ ...p, keySource: hostile })) });
    const rows = section(out, '### Plans')
      .split('\n')
      .filter((l) => l.startsWith('| '));
    for (const row of rows) expect(row.replace(/\\\|/g, '').match(/\|/g), row).toHaveLength(7);
    expect(out).not.toContain('<img');
  });

  it('The run section names the plans instead of one plan, and says how the counts treat a rate-limit requirement.', () => {
    expect(md).toContain('- **Plans:** free, pro, business, enterprise\n');
    expect(md).toMatch(
      /^_A rate-limit requirement counts once here, at its worst status over the plans .*: the plans give each plan’s own status\._$/m,
    );
    expect(md).not.toContain('- **Plan:**');
  });

  it('A single-plan run that carries its one plan in plans reads exactly as without.', () => {
    for (const quick of [false, true]) {
      const { withPlans, without } = onePlan(quick);
      expect(renderSummary(withPlans)).toBe(renderSummary(without));
    }
  });
});
