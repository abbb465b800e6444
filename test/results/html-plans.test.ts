import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/results/writers/html.ts';
import type { RunReport } from '../../src/results/types.ts';
import { HOSTILE, interrupted } from '../support/report-fixtures.ts';
import { attrs, position, requirementRow, scenarioCard } from './html-parts.ts';
import { EARLY_REQUEST } from '../support/load-fixtures.ts';
import {
  allPlansCertified,
  CONFORMANCE_KEY,
  CUT_SHORT,
  cutShortPro,
  DAILY_NOT_ALLOWED,
  mixedPlans,
  onePlan,
  PLAN_ORDER,
  planIn,
} from './plan-fixtures.ts';

/** The markup of one element with this data-testid (up to its closing tag). */
function part(html: string, testid: string, close: string, extra = ''): string {
  const at = html.indexOf(`data-testid="${testid}"${extra}`);
  expect(at, `${testid}${extra}`).toBeGreaterThan(0);
  return html.slice(html.lastIndexOf('<', at), html.indexOf(close, at) + close.length);
}
const matrix = (html: string) => part(html, 'plan-matrix', '</section>');
const cell = (html: string, id: string, plan: string) =>
  part(matrix(html), 'matrix-row', '</tr>', ` data-requirement="${id}"`).match(
    new RegExp(`<td data-testid="matrix-cell" data-plan="${plan}"[^]*?</td>`),
  )![0];
const planSection = (html: string, plan: string) => part(html, 'load-plan', '</section>', ` data-plan="${plan}"`);

describe('index.html of a run over several plans: the plan matrix', () => {
  const mixed = renderHtml(mixedPlans());

  it('The matrix comes right after the banner, before the counts and the requirements.', () => {
    expect(position(mixed, 'plan-matrix')).toBeGreaterThan(position(mixed, 'banner'));
    expect(position(mixed, 'plan-matrix')).toBeLessThan(position(mixed, 'counts'));
    expect(position(mixed, 'plan-matrix')).toBeLessThan(position(mixed, 'requirements'));
  });

  it('A single-plan run has no matrix, and one that carries its one plan in plans renders exactly as without.', () => {
    for (const quick of [false, true]) {
      const { withPlans, without } = onePlan(quick);
      expect(renderHtml(withPlans)).toBe(renderHtml(without));
      expect(renderHtml(without)).not.toContain('data-testid="plan-matrix"');
    }
  });

  it('There is one column per plan, in the run’s order, with its outcome in its tone, its limits and where its key came from.', () => {
    const m = matrix(mixed);
    expect(attrs(m, 'data-testid="plan-column" data-plan')).toEqual([...PLAN_ORDER]);
    expect(attrs(m, 'data-testid="plan-column" data-plan="[^"]*" data-outcome')).toEqual([
      'certified',
      'incomplete',
      'not-conformant',
      'incomplete',
    ]);
    const business = part(m, 'plan-column', '</th>', ' data-plan="business"');
    expect(business).toContain('class="plan-col p-not-conformant"');
    expect(business).toContain('<span class="pill o-not-conformant" data-testid="plan-outcome">NOT CONFORMANT</span>');
    expect(business).toContain('data-testid="plan-limits">1,000/min · 100,000/day</span>');
    expect(business).toContain('key from <code>ANIMAL_STORE_API_KEY_BUSINESS</code>');
    expect(business).toContain('<a class="plan-name" href="#plan-business">business</a>');
    expect(m).toContain('<h2>Plans <span class="muted">· 1 of 4 plans certified</span></h2>');
  });

  it('Conformance is shown once, judged on the conformance key, the same for every plan.', () => {
    const m = matrix(mixed);
    const row = part(m, 'matrix-conformance', '</tr>');
    expect(m.match(/data-testid="matrix-conformance"/g)).toHaveLength(1);
    expect(row).toContain(`<td colspan="4">Judged once on the key from <code>${CONFORMANCE_KEY}</code>: 1 warned · `);
    expect(row).toContain('— the same on every plan.');
    expect(attrs(m, 'data-testid="matrix-row" data-requirement')).not.toContain('DEPRECATION-SIGNALLED');
  });

  it('The rows are the rate-limit requirements that differ between plans or fall short on one; those alike on every plan are folded.', () => {
    const m = matrix(mixed);
    expect(attrs(m, 'data-testid="matrix-row" data-requirement')).toEqual([
      'RL-CEILING-429',
      'RL-NOT-EARLY',
      'RL-RECOVERY',
      'RL-429-NOTHING-STORED',
      'RL-SUSTAINED-BELOW-CEILING',
      'RL-WINDOW-PER-MINUTE',
      'RL-DAILY-QUOTA',
    ]);
    expect(attrs(cell(mixed, 'RL-DAILY-QUOTA', 'pro'), 'data-status')).toEqual(['skip']);
    expect(attrs(cell(mixed, 'RL-DAILY-QUOTA', 'free'), 'data-status')).toEqual(['pass']);
    const same = part(m, 'matrix-same', '</tr>');
    expect(same).toContain('13 rate-limit requirements passed or observed on every plan');
    expect(same).toContain(
      '<a href="#req-RL-HEADERS-PRESENT"><code>RL-HEADERS-PRESENT</code></a> <span class="pill st-pass">passed</span>',
    );
    expect(same).toContain('<code>RL-SCOPE</code></a> <span class="pill st-observed">observed</span>');
  });

  it('A run whose plans are all certified shows every column certified and every rate-limit requirement folded as alike.', () => {
    const m = matrix(renderHtml(allPlansCertified()));
    expect(attrs(m, 'data-testid="plan-column" data-plan="[^"]*" data-outcome')).toEqual([
      'certified',
      'certified',
      'certified',
      'certified',
    ]);
    expect(m).not.toContain('data-testid="matrix-row"');
    expect(part(m, 'matrix-same', '</tr>')).toContain('20 rate-limit requirements passed or observed on every plan');
    expect(m).toContain('· 4 plans certified</span>');
  });

  it('A cell not exercised gives its reason and remedy on hover and on expand, each plan its own.', () => {
    const pro = cell(mixed, 'RL-DAILY-QUOTA', 'pro');
    expect(pro).toMatch(
      /title="pro: not exercised — no rate-limit scenario of this run judges it — To exercise it: run the daily scenario/,
    );
    expect(pro).toMatch(
      /<details class="cell"><summary><span class="pill st-skip">not exercised<\/span><\/summary><p class="why" data-testid="matrix-reason">no rate-limit/,
    );
    const enterprise = cell(mixed, 'RL-DAILY-QUOTA', 'enterprise');
    expect(enterprise).toContain(
      `title="enterprise: not exercised — Daily scenario not allowed: ${DAILY_NOT_ALLOWED} — To exercise it: --allow-daily"`,
    );
  });

  it('A failed cell gives the plan’s own failure and links to the chart that marks the offending request.', () => {
    const business = cell(mixed, 'RL-NOT-EARLY', 'business');
    expect(business).toContain(
      `request #${EARLY_REQUEST} was answered 429 after 50 successes in the window while Remaining still said 950`,
    );
    expect(business).toContain('<a href="#chart-load-ceiling-business">marked on the chart</a>');
    expect(mixed).toContain('id="chart-load-ceiling-business"');
    expect(cell(mixed, 'RL-NOT-EARLY', 'free')).toMatch(/data-status="pass" title="free: passed — No early 429/);
  });

  it('An interrupted run certifies no plan: every column is amber, whatever each plan’s own result said.', () => {
    const m = matrix(renderHtml(interrupted(allPlansCertified())));
    expect(m).not.toContain('o-certified');
    expect(m.match(/data-testid="plan-outcome">INTERRUPTED</g)).toHaveLength(8);
    expect(m).toContain('· 0 of 4 plans certified</span>');
  });
});

describe('index.html of a run over several plans: the rest of the certificate', () => {
  const report = mixedPlans();
  const html = renderHtml(report);

  it('The banner names the plans and the conformance key instead of one plan, and the scope counts the certified plans.', () => {
    expect(html).toContain('<dt>Plans</dt><dd data-testid="meta-plan">free, pro, business, enterprise</dd>');
    expect(html).toContain(`<dt>Conformance key from</dt><dd data-testid="meta-conformance-key">${CONFORMANCE_KEY}</dd>`);
    expect(html).toContain('data-testid="scope">1 cause breaks 2 MUST requirements, on business; 1 of 4 plans certified (free).</p>');
    expect(html).not.toContain('not given');
  });

  it('Each plan has its load section, with its outcome, limits, key source and the chart of its ceiling.', () => {
    expect(attrs(html, 'data-testid="load-plan" data-plan')).toEqual([...PLAN_ORDER]);
    for (const plan of PLAN_ORDER) {
      const section = planSection(html, plan);
      expect(section, plan).toContain(`id="plan-${plan}"`);
      expect(section, plan).toContain(`key from <code>ANIMAL_STORE_API_KEY_${plan.toUpperCase()}</code>`);
      expect(section, plan).toMatch(/data-testid="load-chart" data-scenario="ceiling" id="chart-load-ceiling-/);
    }
    expect(planSection(html, 'business')).toContain(
      '<h3 class="plan">Plan business · <span class="pill o-not-conformant" data-testid="plan-outcome">NOT CONFORMANT</span> · 1,000/min · 100,000/day · key from',
    );
  });

  it('A scenario’s requirements it did not judge give the reason of its own plan, not the status another plan earned.', () => {
    const ceiling = scenarioCard(planSection(renderHtml(cutShortPro()), 'pro'), 'ceiling');
    expect(ceiling).toContain(`<li>Stopped: ${CUT_SHORT}</li>`);
    expect(ceiling).toContain(
      '<a href="#req-RL-CEILING-429"><code>RL-CEILING-429</code></a> — no rate-limit scenario of this run judges it — To exercise it: run the ceiling',
    );
    expect(ceiling).not.toMatch(/RL-CEILING-429<\/code><\/a> — judged elsewhere/);
  });

  it('A requirement judged per plan says how it ended on each plan; a conformance requirement does not.', () => {
    expect(requirementRow(html, 'RL-DAILY-QUOTA')).toContain(
      'data-testid="by-plan">On each plan: <span class="pill st-pass" data-plan="free">free: passed</span> <span class="pill st-skip" data-plan="pro">pro: not exercised</span>',
    );
    expect(requirementRow(html, 'SCHEMA-PET')).not.toContain('data-testid="by-plan"');
  });

  it('The MUSTs not exercised are listed once per requirement, as many as counted, with the plans they concern and each plan’s reason when they differ.', () => {
    const items = attrs(html, 'data-testid="not-exercised-item" data-requirement="[^"]*" data-plans');
    expect(attrs(html, 'data-testid="not-exercised-item" data-requirement')).toEqual([
      'RL-RECOVERY',
      'RL-429-NOTHING-STORED',
      'RL-SUSTAINED-BELOW-CEILING',
      'RL-WINDOW-PER-MINUTE',
      'RL-DAILY-QUOTA',
    ]);
    expect(items).toEqual(['business', 'business', 'pro', 'pro', 'pro enterprise']);
    expect(html).toContain('<h2>MUST requirements not exercised (5)</h2>');
    expect(html).toMatch(
      /data-requirement="RL-DAILY-QUOTA"[^\n]*on pro: no rate-limit scenario[^\n]*; on enterprise: Daily scenario not allowed/,
    );
  });

  it('The curl line of a plan’s failure reads that plan’s key variable, never the default one.', () => {
    const row = requirementRow(html, 'RL-NOT-EARLY');
    expect(row).toContain('curl -i -H &quot;Authorization: Bearer $ANIMAL_STORE_API_KEY_BUSINESS&quot;');
    expect(scenarioCard(planSection(html, 'business'), 'ceiling')).toContain('$ANIMAL_STORE_API_KEY_BUSINESS');
    expect(html).not.toMatch(/\$ANIMAL_STORE_API_KEY&quot;/);
  });

  it('Under the counts, the certificate says how a rate-limit requirement is counted across the plans.', () => {
    expect(html).toContain(
      'data-testid="count-across-plans">A rate-limit requirement counts once here, at its worst status over the plans',
    );
  });

  it('The certificate stays one self-contained file: one script, no inline handler or style attribute, no external resource.', () => {
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toMatch(/<[^>]+\s(on[a-z]+|style)=/i);
    expect(html).not.toMatch(/<(link|iframe|object|embed|img)\b/i);
    expect(html).not.toMatch(/\s(src|href)="(?!#)/i);
  });

  it('A hostile plan key source or conformance key is shown only escaped.', () => {
    const r: RunReport = { ...report, conformanceKey: HOSTILE.script, plans: report.plans!.map((p) => ({ ...p, keySource: HOSTILE.img })) };
    const out = renderHtml(r);
    expect(out).not.toContain(HOSTILE.script);
    expect(out).not.toContain(HOSTILE.img);
    expect(out).toContain('key from <code>&lt;img src=x onerror=&quot;window.__pwned = 2&quot;&gt;</code>');
    expect(planIn(r, 'free').keySource).toBe(HOSTILE.img);
  });
});
