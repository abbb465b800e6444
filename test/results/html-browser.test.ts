/**
 * Opens index.html from disk in a real headless Chromium (Debian's chromium
 * driven by playwright-core) at 1400 px and at 420 px, and checks what a reader
 * sees: no horizontal overflow, the verdict without scrolling, failures before
 * passes, a copy-as-curl button on a failure, the offending request marked on
 * the chart, readable ids, filter bar and chart text on a phone, full bodies on
 * expand, and hostile markup that never runs. Nothing here measures time.
 * Skips only when Chromium is absent outside CI, and says why.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/results/types.ts';
import { chromiumSession, expectLoadedCleanly, layoutOf, mustRun, type El, type Opened, type Win } from './browser.ts';
import { certifiedReport, failingReport, HOSTILE, incompleteReport } from '../support/report-fixtures.ts';
import { EARLY_REQUEST, longRun, NAMED } from '../support/load-fixtures.ts';
import { forCertificate } from '../../src/results/chart-timeline.ts';

const { open, openAll } = chromiumSession('html-browser');

const reports: [string, string, () => RunReport][] = [
  ['certified', 'CERTIFIED', certifiedReport],
  ['incomplete', 'PASSED, INCOMPLETE', incompleteReport],
  ['failing', 'NOT CONFORMANT', failingReport],
];

describe.skipIf(!mustRun).each([1400, 420])('index.html at %d px in Chromium', (width) => {
  const pages = openAll(
    reports.map(([name, , make]) => [name, make]),
    width,
  );

  it.each(reports)(
    'The %s certificate loads without errors, CSP violations or network requests, with its style and script.',
    async (name) => {
      const o = pages[name];
      await expectLoadedCleanly(o);
      const border = await o.page
        .getByTestId('banner')
        .evaluate((el) => (globalThis as unknown as Win).getComputedStyle(el as unknown as El).borderTopWidth);
      expect(border).toBe('6px');
    },
  );

  it.each(reports)('The %s certificate has no horizontal overflow.', async (name) => {
    const { scrollWidth, innerWidth } = await layoutOf(pages[name].page);
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
  });

  it.each(reports)('The %s certificate shows its verdict (%s) and scope without scrolling.', async (name, headline) => {
    const { page } = pages[name];
    const { innerHeight } = await layoutOf(page);
    expect(await page.getByTestId('verdict').innerText()).toBe(headline);
    for (const id of ['verdict', 'scope']) {
      const box = (await page.getByTestId(id).boundingBox())!;
      expect(box.y + box.height, id).toBeLessThanOrEqual(innerHeight);
      expect(box.x + box.width, id).toBeLessThanOrEqual(width);
    }
  });

  it('Failures come before passes: the first failed requirement is above the first passed one, which is folded away.', async () => {
    const { page } = pages.failing;
    const firstFail = (await page.locator('article[data-testid="requirement"][data-status="fail"]').first().boundingBox())!;
    const fold = (await page.getByTestId('passed-fold').first().boundingBox())!;
    expect(firstFail.y).toBeLessThan(fold.y);
    expect(await page.locator('article[data-testid="requirement"][data-status="pass"]').first().isVisible()).toBe(false);
    expect(await page.locator('article[data-testid="requirement"][data-status="fail"]:visible').count()).toBe(failingReport().counts.fail);
  });

  it('A failure has a copy-as-curl button that copies the command or selects it for Ctrl+C.', async () => {
    const { page } = pages.failing;
    const row = page.locator('[data-requirement="SCHEMA-PET"][data-status="fail"]');
    const button = row.getByTestId('copy-curl');
    expect(await button.isVisible()).toBe(true);
    const line = await row.getByTestId('curl-line').innerText();
    expect(line).toContain('$ANIMAL_STORE_API_KEY');
    await button.click();
    await expect.poll(() => button.getAttribute('data-copied')).toMatch(/^(clipboard|selection)$/);
    if ((await button.getAttribute('data-copied')) === 'selection')
      expect(await page.evaluate(() => (globalThis as unknown as Win).getSelection()?.toString())).toBe(line);
  });

  it('The chart marks the request the rate-limit failure points at, inside the visible drawing.', async () => {
    const { page } = pages.failing;
    const chart = page.locator('[data-testid="load-run"][data-scenario="ceiling"] [data-testid="load-chart-svg"]:visible');
    expect(await chart.count()).toBe(1);
    const mark = chart.locator(`[data-testid="chart-offending"][data-seq="${EARLY_REQUEST}"][data-requirements~="RL-NOT-EARLY"]`);
    expect(await mark.count()).toBe(1);
    const svg = (await chart.boundingBox())!;
    const ring = (await mark.locator('circle').boundingBox())!;
    expect(ring.x).toBeGreaterThanOrEqual(svg.x);
    expect(ring.x + ring.width).toBeLessThanOrEqual(svg.x + svg.width);
    expect(
      await page.locator('[data-testid="load-judgement"][data-requirement="RL-NOT-EARLY"] [data-testid="evidence-response"]').innerText(),
    ).toMatch(/^HTTP 429\n/);
  });

  it('Chart text stays readable: tick labels are drawn at least 9 px high.', async () => {
    const tick = pages.failing.page.locator('[data-testid="load-chart-svg"]:visible [data-testid="chart-x-tick"]').first();
    expect((await tick.boundingBox())!.height).toBeGreaterThanOrEqual(9);
  });

  it('Requirement ids are never clipped, and the facts of the banner keep readable columns.', async () => {
    const { page } = pages.failing;
    const clipped = await page.evaluate(() => {
      const w = globalThis as unknown as Win;
      return Array.from(w.document.querySelectorAll('.req-id'))
        .filter((el) => el.getBoundingClientRect().width > 0)
        .filter((el) => el.scrollWidth > el.clientWidth + 1 || el.getBoundingClientRect().right > w.innerWidth)
        .map((el) => el.textContent);
    });
    expect(clipped).toEqual([]);
    const facts = await page.locator('.meta dd').evaluateAll((els) => els.map((el) => (el as unknown as El).getBoundingClientRect().width));
    expect(Math.min(...facts)).toBeGreaterThanOrEqual(120);
  });

  it('The filter bar never covers more than a sixth of the screen once the reader scrolls.', async () => {
    const { page } = pages.failing;
    await page.locator('#req-RL-NOT-EARLY').scrollIntoViewIfNeeded();
    const covered = await page.getByTestId('filters').evaluate((el) => {
      const w = globalThis as unknown as Win;
      const b = (el as unknown as El).getBoundingClientRect();
      return Math.max(0, Math.min(b.bottom, w.innerHeight) - Math.max(b.top, 0)) / w.innerHeight;
    });
    await page.evaluate(() => (globalThis as unknown as Win).scrollTo(0, 0));
    expect(covered).toBeLessThanOrEqual(1 / 6);
  });

  it('A long response body opens in full on expand, not cut by a fixed-height box.', async () => {
    const row = pages.failing.page.locator('[data-requirement="AUTH-WRONG-SCHEME-401"]');
    await row.getByTestId('full-body').locator('summary').click();
    const body = row.getByTestId('evidence-response-body');
    expect(await body.isVisible()).toBe(true);
    expect(await body.innerText()).toContain('END-OF-BODY');
    const cut = await body.evaluate((el) => (el as unknown as El).scrollHeight - (el as unknown as El).clientHeight);
    expect(cut).toBeLessThanOrEqual(1);
  });
});

describe.skipIf(!mustRun)('index.html of a failing run in Chromium: behaviour', () => {
  let o: Opened;
  const report = failingReport();
  beforeAll(async () => {
    o = await open('failing-behaviour', report, 1400);
  }, 90_000);
  afterAll(async () => {
    await o?.page.context().close();
  });

  it('The filter narrows the rows by status, level and text (opening folded passes that match), and resets.', async () => {
    const visible = () => o.page.locator('article[data-testid="requirement"]:visible').count();
    const notPassed = report.requirements.filter((q) => q.status !== 'pass').length;
    expect(await visible()).toBe(notPassed);
    await o.page.getByTestId('filter-level-MUST').uncheck();
    expect(await visible()).toBe(report.requirements.filter((q) => q.level !== 'MUST' && q.status !== 'pass').length);
    await o.page.getByTestId('filter-level-MUST').check();
    await o.page.getByTestId('filter-text').fill('schema-pets');
    expect(await visible()).toBe(1);
    expect(await o.page.locator('[data-requirement="SCHEMA-PETS"]').isVisible()).toBe(true);
    await o.page.getByTestId('filter-text').fill('no such requirement anywhere');
    expect(await o.page.getByTestId('filter-empty').isVisible()).toBe(true);
    await o.page.locator('#filter-reset').click();
    expect(await o.page.getByTestId('filter-shown').innerText()).toBe(
      `${report.requirements.length} of ${report.requirements.length} requirements shown`,
    );
  });

  it('A failure’s evidence is open, with the request, the response and what was expected.', async () => {
    const row = o.page.locator('[data-requirement="AUTH-MISSING-401"]');
    expect(
      await row
        .getByTestId('evidence')
        .first()
        .evaluate((d) => (d as unknown as El).open),
    ).toBe(true);
    expect(await row.getByTestId('evidence-request').innerText()).toContain('GET https://api.animal-store.example/v1/pets');
    const response = await row.getByTestId('evidence-response').innerText();
    expect(response).toMatch(/^HTTP 200\ncontent-type: text\/html/);
    expect(response).toContain('the suite kept only the first');
    expect(await row.getByTestId('evidence-expected').innerText()).toBe('401 with an Error body');
  });

  it('Hostile markup in the evidence is shown as text and never runs.', async () => {
    expect(await o.page.evaluate(() => (globalThis as unknown as Win).__pwned)).toBeUndefined();
    expect(await o.page.locator('[data-requirement="AUTH-MISSING-401"]').getByTestId('evidence-response').innerText()).toContain(
      HOSTILE.script,
    );
    expect(await o.page.locator('main script, main img').count()).toBe(0);
  });

  it('The failed MUSTs are linked from the banner, and a link into the folded passes opens the fold.', async () => {
    await o.page.getByTestId('failed-musts').getByText('SCHEMA-PET').click();
    expect(new URL(o.page.url()).hash).toBe('#req-SCHEMA-PET');
    expect(await o.page.locator('#req-SCHEMA-PET .req-head').isVisible()).toBe(true);
    await o.page.getByTestId('comparison-fixed').getByText('RESP-BODY-JSON').click();
    expect(await o.page.locator('#req-RESP-BODY-JSON .req-head').isVisible()).toBe(true);
  });

  it('junit.xml and badge.svg parse as XML in the browser.', async () => {
    for (const file of ['junit.xml', 'badge.svg']) {
      const xml = readFileSync(join(o.dir, file), 'utf8');
      const error = await o.page.evaluate(
        (text) =>
          new (globalThis as unknown as Win).DOMParser().parseFromString(text, 'application/xml').querySelector('parsererror')
            ?.textContent ?? null,
        xml,
      );
      expect(error, file).toBeNull();
    }
  });
});

describe.skipIf(!mustRun)('index.html of a long rate-limit run in Chromium: the chart a certificate keeps', () => {
  let o: Opened;
  // A certificate keeps of a long scenario's timeline what its chart draws (src/results/chart-timeline.ts).
  const long = forCertificate(longRun());
  beforeAll(async () => {
    o = await open('long-run', { ...certifiedReport(), load: [long] }, 1400);
  }, 90_000);
  afterAll(async () => {
    await o?.page.context().close();
  });

  it('The chart of a long scenario spans the whole run: its Remaining line and its requests reach both ends, with every 429, Retry-After wait and the marked request.', async () => {
    await expectLoadedCleanly(o);
    const chart = o.page.locator('[data-testid="load-run"][data-scenario="daily"] [data-testid="load-chart-svg"]:visible');
    expect(await chart.count()).toBe(1);
    const box = (await chart.boundingBox())!;
    const line = (await chart.getByTestId('chart-remaining').boundingBox())!;
    // The plot runs from x 60 to 856 of the 880-wide drawing; the run ends at 12.996 s of a 14 s axis.
    const scale = box.width / 880;
    expect(line.x).toBeLessThanOrEqual(box.x + 61 * scale);
    expect(line.x + line.width).toBeGreaterThanOrEqual(box.x + (60 + 796 * (12_996 / 14_000) - 2) * scale);
    expect(line.height).toBeGreaterThan(150 * scale); // Remaining from 299 down to 0, each window
    // Its 2xx, a request every 3.7 ms without a pause, read as one band across the run (as a tick a column would).
    const bands = chart.locator('[data-testid="chart-request"][data-kind="ok"]');
    expect(await bands.count()).toBe(1);
    const band = (await bands.boundingBox())!;
    expect([band.x - line.x, band.x + band.width - (line.x + line.width)].map((d) => Math.abs(d) <= 2 * scale)).toEqual([true, true]);
    expect(await chart.getByTestId('chart-429').count()).toBe(3);
    expect(await chart.getByTestId('chart-retry-after').count()).toBe(3);
    expect(await chart.locator(`[data-testid="chart-offending"][data-seq="${NAMED}"]`).count()).toBe(1);
    const legend = await o.page.locator('[data-testid="load-run"][data-scenario="daily"] figcaption').innerText();
    expect(legend).toContain('2xx (3507)');
  });
});
