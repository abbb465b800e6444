import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/results/writers/html.ts';
import { readPageAssets } from '../../src/results/writers/html-assets.ts';
import type { RunReport } from '../../src/results/types.ts';
import {
  aborted,
  certifiedReport,
  conformanceOnly,
  failingReport,
  HOSTILE,
  incompleteReport,
  interrupted,
  LONG_BODY,
  unthrottledReport,
  withoutPlan,
  withStatus,
} from '../support/report-fixtures.ts';
import { attrs as attr, position, requirementRow as row } from './html-parts.ts';

describe('index.html: the outcome', () => {
  const headlines: [string, RunReport, string, string][] = [
    ['a certified run', certifiedReport(), 'CERTIFIED', 'certified'],
    ['a conformance-only run that passed', conformanceOnly(certifiedReport()), 'CONFORMANT', 'certified'],
    ['an incomplete run', incompleteReport(), 'PASSED, INCOMPLETE', 'incomplete'],
    ['a not-conformant run', failingReport(), 'NOT CONFORMANT', 'not-conformant'],
    ['an interrupted run', interrupted(certifiedReport()), 'INTERRUPTED', 'incomplete'],
    ['an aborted run', aborted(certifiedReport()), 'STOPPED EARLY', 'incomplete'],
  ];
  it.each(headlines)('The banner of %s says %s in its colour, with the scope sentence under it.', (_name, report, headline, tone) => {
    const html = renderHtml(report);
    expect(html).toContain(`<h1 class="verdict" data-testid="verdict">${headline}</h1>`);
    expect(html).toContain(`class="card banner v-${tone}"`);
    expect(html).toMatch(/<p class="verdict-sub" data-testid="scope">[^<]+<\/p>/);
  });

  it('The certified wording and colour never appear for an incomplete run.', () => {
    const html = renderHtml(incompleteReport());
    const body = html.slice(html.indexOf('<body>'));
    expect(body).not.toMatch(/certified|✅/i);
    expect(body).toContain('class="card banner v-incomplete"');
    expect(html).toContain('No MUST requirement failed, but 3 MUST requirements were not exercised: this run does not certify the server.');
  });

  it('The MUSTs not exercised are listed near the top with their reason and the flag or profile that would exercise them.', () => {
    const html = renderHtml(incompleteReport());
    expect(attr(html, 'data-testid="not-exercised-item" data-requirement')).toEqual([
      'RL-SUSTAINED-BELOW-CEILING',
      'RL-WINDOW-PER-MINUTE',
      'RL-DAILY-QUOTA',
    ]);
    expect(html).toContain(
      '<span class="remedy">To exercise it: run the daily scenario: --profile full --allow-daily (it spends the key&#39;s whole daily quota; use a dedicated key)</span>',
    );
    expect(position(html, 'not-exercised')).toBeLessThan(position(html, 'requirements'));
  });

  it('The diagnosis, the reason a run stopped, and the suite’s own errors are shown, the latter as not the server’s fault.', () => {
    const html = renderHtml(aborted(failingReport(), 'deadline exceeded'));
    expect(html).toMatch(/data-testid="diagnosis"><b>Diagnosis:<\/b> GET https:\/\/api\.animal-store\.example\/v1\/pets without a key/);
    expect(html).toMatch(/data-testid="abort-reason"><b>Stopped early:<\/b> deadline exceeded</);
    expect(html).toMatch(
      /data-testid="suite-errors"><h2>Defects of the suite \(not the server’s fault\)<\/h2>[^]*CREATE-400-BAD-BODY: Check crashed/,
    );
  });

  it('What is new since the last run comes first after the banner, then fixed, still failing and flapping.', () => {
    const html = renderHtml(failingReport());
    const order = ['banner', 'comparison', 'counts', 'suite-errors', 'not-exercised', 'requirements', 'load', 'notes'].map((t) =>
      position(html, t),
    );
    expect(order.every((p, i) => p > 0 && (i === 0 || p > order[i - 1]))).toBe(true);
    const cmp = attr(html, 'data-testid').filter((t) => t.startsWith('comparison-'));
    expect(cmp).toEqual(['comparison-newProblems', 'comparison-fixed', 'comparison-stillFailing', 'comparison-flapping']);
    expect(html).toMatch(
      /data-testid="comparison-newProblems"><dt>New since the last run \(2\)<\/dt><dd><a href="#req-SCHEMA-PET"><code>SCHEMA-PET<\/code><\/a> <a href="#req-LIST-LIMIT-FILLS-PAGE">/,
    );
  });

  it('The banner names the target, environment, plan (or that none was given), suite version, spec hash and date.', () => {
    const r = certifiedReport();
    const html = renderHtml(r);
    const facts: [string, string][] = [
      ['meta-target', r.target.baseUrl],
      ['meta-env', 'production'],
      ['meta-plan', 'free'],
      ['meta-suite', '0.1.0'],
      ['meta-spec', r.specSha256],
      ['meta-date', '2025-06-01 10:00:00 UTC'],
    ];
    for (const [id, v] of facts) expect(html).toContain(`data-testid="${id}">${v}<`);
    expect(renderHtml(withoutPlan(r))).toContain('data-testid="meta-plan">not given<');
  });

  it('The counts name every status, with observed INFO requirements apart from passed.', () => {
    const r = failingReport();
    const html = renderHtml(r);
    for (const [s, label] of [
      ['pass', 'passed'],
      ['observed', 'observed'],
      ['skip', 'not exercised'],
    ])
      expect(html).toContain(`data-testid="count-${s}"><b>${r.counts[s as keyof typeof r.counts]}</b><span>${label}</span>`);
  });

  it('MUST waivers are flagged in the banner.', () => {
    expect(renderHtml(withStatus(certifiedReport(), ['AUTH-MISSING-401'], 'waived'))).toMatch(
      /data-testid="flag-must-waivers">MUST waivers allowed \(--allow-must-waivers\): 1 MUST requirement waived/,
    );
  });
});

describe('index.html: requirements, failures first', () => {
  it('Every requirement has one row with its id, status and level as attributes.', () => {
    const r = failingReport();
    const html = renderHtml(r);
    for (const q of r.requirements) expect(row(html, q.id)).toContain(`data-status="${q.status}" data-level="${q.level}"`);
    expect(html.match(/<article [^>]*data-testid="requirement"/g)).toHaveLength(r.requirements.length);
  });

  it('Areas with a failure come first, then areas with a warning, then the rest in catalogue order.', () => {
    const areas = attr(renderHtml(failingReport()), 'data-area');
    expect(areas.slice(0, 4)).toEqual(['transport', 'responses', 'auth', 'rate-limit-load']);
    expect(areas.slice(4)).toEqual(['listPets', 'createPet', 'getPet', 'deprecation', 'rate-limit-headers', 'versioning', 'hygiene']);
    expect(attr(renderHtml(certifiedReport()), 'data-area')[0]).toBe('deprecation');
  });

  it('Inside an area, failed and warned requirements come before the others, and passed ones are folded into one summary row.', () => {
    const html = renderHtml(failingReport());
    const auth = html.slice(html.indexOf('data-area="auth"'), html.indexOf('</section>', html.indexOf('data-area="auth"')));
    const statuses = attr(auth, 'data-status');
    expect(statuses.slice(0, 2)).toEqual(['fail', 'fail']);
    expect(auth).toMatch(/<details class="passed" data-testid="passed-fold"><summary><span class="pill st-pass">\d+ passed<\/span>/);
    expect(auth.indexOf('data-testid="passed-fold"')).toBeGreaterThan(auth.lastIndexOf('data-status="fail"'));
  });

  it('Failure and warning evidence is open; a waived requirement’s evidence is closed.', () => {
    const html = renderHtml(failingReport());
    expect(row(html, 'SCHEMA-PET')).toMatch(/<details class="evidence" data-testid="evidence" data-outcome="fail" open>/);
    expect(row(html, 'LIST-LIMIT-FILLS-PAGE')).toMatch(/<details class="evidence" data-testid="evidence" data-outcome="warn" open>/);
    expect(row(html, 'GET-NON-INTEGER-ID-4XX')).toMatch(/<details class="evidence" data-testid="evidence" data-outcome="warn">/);
  });

  it('The evidence shows the request, the response status, headers and body, and what was expected.', () => {
    const tr = row(renderHtml(failingReport()), 'SCHEMA-PET');
    for (const s of [
      '<span class="sl">POST https://api.animal-store.example/v1/pets</span>',
      '<span class="sl">HTTP 201</span>',
      '<span class="hn">content-type</span>: application/json',
      '{&quot;id&quot;:&quot;12&quot;',
      'data-testid="evidence-expected">id: integer (int64)<',
      'data-testid="evidence-actual">id: &quot;12&quot; (string)<',
    ])
      expect(tr).toContain(s);
  });

  it('Every failure with a request has a copy-as-curl button, with the key written as $ANIMAL_STORE_API_KEY.', () => {
    const r = failingReport();
    const html = renderHtml(r);
    for (const q of r.requirements.filter((x) => x.status === 'fail')) expect(row(html, q.id), q.id).toContain('data-testid="copy-curl"');
    expect(row(html, 'SCHEMA-PET')).toContain(
      'data-testid="curl-line">curl -i -X &#39;POST&#39; -H &quot;Authorization: Bearer $ANIMAL_STORE_API_KEY&quot; -H &#39;content-type: application/json&#39;',
    );
  });

  it('A long body shows its beginning, and the whole body on expand, never cut by a fixed-height box.', () => {
    const tr = row(renderHtml(failingReport()), 'AUTH-WRONG-SCHEME-401');
    expect(tr).toMatch(
      /<details class="full-body" data-testid="full-body"><summary>Show the whole response body \(\d+ characters\)<\/summary>/,
    );
    expect(tr).toContain('END-OF-BODY');
    expect(LONG_BODY.length).toBeGreaterThan(1000);
    expect(renderHtml(failingReport())).not.toMatch(/max-height:\d+px/);
  });

  it('A body the suite cut at its size cap is offered as kept, never as the whole body.', () => {
    const r = failingReport();
    const q = r.requirements.find((x) => x.id === 'AUTH-WRONG-SCHEME-401')!;
    const cut = {
      ...q,
      findings: q.findings.map((f) => ({ ...f, evidence: { ...f.evidence, response: { ...f.evidence!.response!, bodyTruncated: true } } })),
    };
    const tr = row(renderHtml({ ...r, requirements: r.requirements.map((x) => (x === q ? cut : x)) }), 'AUTH-WRONG-SCHEME-401');
    expect(tr).toMatch(/<summary>Show the response body as kept \(its first \d+ characters\)<\/summary>/);
    expect(tr).toContain('the suite kept only the first');
    expect(tr).not.toContain('Show the whole response body');
  });

  it('A requirement not exercised shows the reason and the remedy the report gives.', () => {
    const html = renderHtml(failingReport());
    expect(row(html, 'CREATE-ID-UNIQUE')).toContain(
      '<p class="why" data-testid="reason"><b>Not exercised:</b> Writes disabled: writes are not allowed on production</p>\n<p class="remedy" data-testid="remedy">To exercise it: --allow-writes</p>',
    );
  });

  it('A 429 requirement the ceiling could not judge shows the reason from the report, not a generic "see --scenarios".', () => {
    const r = unthrottledReport();
    const q = r.requirements.find((x) => x.id === 'RL-429-RETRY-AFTER')!;
    const tr = row(renderHtml(r), 'RL-429-RETRY-AFTER');
    expect(tr).toContain(`<b>Not exercised:</b> ${q.notExercised!.reason}</p>`);
    expect(tr).not.toContain('see --scenarios');
  });

  it('A waived requirement shows the reason and the expiry; INFO requirements show what was observed.', () => {
    const html = renderHtml(failingReport());
    expect(html).toContain('data-testid="waiver-expires">2099-12-31<');
    expect(html).toMatch(/data-testid="waiver-reason">Known gap, fixed in 2.4 &lt;script&gt;/);
    expect(row(html, 'ERROR-CODE-VALUES')).toMatch(
      /data-status="observed"[^]*data-testid="observations"><li>Observed for ERROR-CODE-VALUES/,
    );
  });
});

describe('index.html: one safe, self-contained file', () => {
  it('The file is self-contained: no external resource, no network URL in src, href or url().', () => {
    const html = renderHtml(failingReport());
    expect(html).not.toMatch(/<(link|iframe|object|embed|img)\b/i);
    expect(html).not.toMatch(/\s(src|href)="(?!#)/i);
    expect(html).not.toMatch(/url\((?!#)/i);
    expect(html).not.toMatch(/@import/);
  });

  it('A Content-Security-Policy allows only the page’s own style and script.', () => {
    const html = renderHtml(certifiedReport());
    const CSP = readPageAssets().csp;
    expect(CSP).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; script-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${CSP.replaceAll("'", '&#39;')}">`);
  });

  const hostile = Object.entries(HOSTILE).filter(([k]) => k !== 'markdown');
  it.each(hostile)('Hostile content (%s) from the server appears only escaped.', (_name, text) => {
    expect(renderHtml(failingReport())).not.toContain(text);
  });

  it('The page has exactly one script element, no inline event handler and no style attribute.', () => {
    const html = renderHtml(failingReport());
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toMatch(/<[^>]+\son[a-z]+=/i);
    expect(html).not.toMatch(/<[^>]+\sstyle=/i);
  });

  it('Print CSS hides the filter and the copy buttons and keeps the content.', () => {
    expect(renderHtml(certifiedReport())).toMatch(/@media print\s*\{[^]*\.filters,\s*\.no-print,\s*button\.copy/);
  });
});
