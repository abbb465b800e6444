/**
 * Opens the certificate of a run over several plans in a real headless
 * Chromium at 1400 px and at 420 px: it loads cleanly, the page never
 * overflows sideways (on a phone the plan matrix scrolls inside its own box,
 * its requirement column pinned, and every plan's outcome is listed above it),
 * the matrix is visible near the top, a cell opens to its reason, a failure
 * leads to the chart that marks it, and every plan's section shows its
 * ceiling chart. Nothing here measures time.
 */
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/results/types.ts';
import { chromiumSession, expectLoadedCleanly, layoutOf, mustRun, type El } from './browser.ts';
import { EARLY_REQUEST } from '../support/load-fixtures.ts';
import { allPlansCertified, mixedPlans, PLAN_ORDER } from './plan-fixtures.ts';

const { openAll } = chromiumSession('html-browser-plans');

const reports: [string, () => RunReport][] = [
  ['mixed', mixedPlans],
  ['all-certified', allPlansCertified],
];

describe.skipIf(!mustRun).each([1400, 420])('index.html of a run over several plans at %d px in Chromium', (width) => {
  const pages = openAll(reports, width);

  it.each(reports)('The %s certificate loads without errors, CSP violations or network requests.', async (name) => {
    await expectLoadedCleanly(pages[name]);
  });

  it.each(reports)('The %s certificate has no horizontal overflow.', async (name) => {
    const { scrollWidth, innerWidth } = await layoutOf(pages[name].page);
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
  });

  it('The plan matrix is visible within the screen’s width, with a column per plan; on a phone it scrolls inside its own box.', async () => {
    const { page } = pages.mixed;
    const matrix = page.getByTestId('plan-matrix');
    expect(await matrix.isVisible()).toBe(true);
    const box = (await matrix.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(width);
    expect(await page.getByTestId('plan-column').count()).toBe(PLAN_ORDER.length);
    const scroller = page.locator('.matrix-scroll');
    const overflow = await scroller.evaluate((el) => (el as unknown as El).scrollWidth - (el as unknown as El).clientWidth);
    if (width < 600) expect(overflow).toBeGreaterThan(0);
    else expect(overflow).toBeLessThanOrEqual(0);
  });

  it('On a phone every plan’s outcome is listed above the matrix; on a wide screen the columns say it.', async () => {
    const chips = pages.mixed.page.getByTestId('plan-chips');
    expect(await chips.isVisible()).toBe(width < 600);
    if (width < 600) {
      const texts = await chips.locator('[data-testid="plan-outcome"]').allInnerTexts();
      expect(texts).toEqual(['CERTIFIED', 'PASSED, INCOMPLETE', 'NOT CONFORMANT', 'PASSED, INCOMPLETE']);
      const box = (await chips.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(width);
    }
  });

  it('The requirement column stays in view when the matrix is scrolled to its last plan.', async () => {
    const { page } = pages.mixed;
    const scroller = page.locator('.matrix-scroll');
    await scroller.evaluate((el) => {
      (el as unknown as El).scrollLeft = (el as unknown as El).scrollWidth;
    });
    const frame = (await scroller.boundingBox())!;
    const id = (await page.locator('[data-testid="matrix-row"][data-requirement="RL-DAILY-QUOTA"] th').boundingBox())!;
    expect(id.x).toBeGreaterThanOrEqual(frame.x - 1);
    expect(id.x + id.width).toBeLessThanOrEqual(frame.x + frame.width);
    const last = (await page.locator('[data-testid="plan-column"][data-plan="enterprise"]').boundingBox())!;
    expect(last.x + last.width).toBeLessThanOrEqual(frame.x + frame.width + 1);
    await scroller.evaluate((el) => {
      (el as unknown as El).scrollLeft = 0;
    });
  });

  it('A cell not exercised opens to its reason, and a failed cell leads to the chart that marks the offending request.', async () => {
    const { page } = pages.mixed;
    const cell = page.locator('[data-testid="matrix-row"][data-requirement="RL-DAILY-QUOTA"] [data-plan="enterprise"]');
    await cell.locator('summary').click();
    expect(await cell.getByTestId('matrix-reason').innerText()).toContain('Daily scenario not allowed');
    const failed = page.locator('[data-testid="matrix-row"][data-requirement="RL-NOT-EARLY"] [data-plan="business"]');
    await failed.locator('summary').click();
    await failed.getByText('marked on the chart').click();
    expect(new URL(page.url()).hash).toBe('#chart-load-ceiling-business');
    const mark = page.locator(
      `#chart-load-ceiling-business [data-testid="load-chart-svg"]:visible [data-testid="chart-offending"][data-seq="${EARLY_REQUEST}"]`,
    );
    expect(await mark.count()).toBe(1);
    expect(await mark.locator('circle').isVisible()).toBe(true);
  });

  it.each(reports)(
    'In the %s certificate, every plan’s section shows its ceiling chart in the drawing that fits the screen.',
    async (name) => {
      const { page } = pages[name];
      for (const plan of PLAN_ORDER) {
        const chart = page.locator(
          `[data-testid="load-plan"][data-plan="${plan}"] [data-testid="load-run"][data-scenario="ceiling"] [data-testid="load-chart-svg"]:visible`,
        );
        expect(await chart.count(), plan).toBe(1);
        expect(await chart.getAttribute('data-layout'), plan).toBe(width < 600 ? 'narrow' : 'wide');
        const box = (await chart.boundingBox())!;
        expect(box.width, plan).toBeGreaterThan(0);
        expect(box.x + box.width, plan).toBeLessThanOrEqual(width);
      }
    },
  );

  it('A plan’s column links to its section, which names its outcome and key source.', async () => {
    const { page } = pages.mixed;
    await page.locator('[data-testid="plan-column"][data-plan="business"] a.plan-name').click();
    expect(new URL(page.url()).hash).toBe('#plan-business');
    const heading = page.locator('#plan-business h3');
    expect(await heading.isVisible()).toBe(true);
    expect(await heading.innerText()).toMatch(
      /^Plan business · NOT CONFORMANT · 1,000\/min · 100,000\/day · key from ANIMAL_STORE_API_KEY_BUSINESS/,
    );
  });
});
