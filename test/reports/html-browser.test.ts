/**
 * Opens index.html from disk in a real headless Chromium (Debian's chromium
 * driven by playwright-core) and checks what a reader sees: the verdict, the
 * requirement rows, a failure's evidence, the filter and the load chart, for a
 * passing and a failing run. Skips only when Chromium is absent outside CI.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { writeReports } from '../../src/results/writers/index.ts';
import type { RunReport } from '../../src/results/types.ts';
import { failingReport, HOSTILE, passingReport } from './fixtures.ts';

/** The browser globals used inside page.evaluate (the project's tsconfig has no DOM lib). */
interface BrowserGlobals {
  getComputedStyle(el: unknown): { borderTopWidth: string };
  DOMParser: new () => { parseFromString(text: string, type: string): { querySelector(s: string): { textContent: string | null } | null } };
  __pwned?: number;
  scrollTo(x: number, y: number): void;
}

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
const mustRun = available || !!process.env.CI;
if (!mustRun) console.warn(`html-browser.test.ts SKIPPED: no Chromium at ${CHROMIUM} (set CHROMIUM_PATH or apt-get install chromium); it always runs when CI is set.`);

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const root = mkdtempSync(join(tmpdir(), 'html-browser-'));
let browser: Browser;

beforeAll(async () => {
  if (!mustRun) return;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  rmSync(root, { recursive: true, force: true });
});

interface Opened { page: Page; problems: string[]; requests: string[]; dir: string }

async function open(name: string, report: RunReport): Promise<Opened> {
  const dir = join(root, name);
  const [html] = writeReports(report, dir);
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const problems: string[] = [];
  const requests: string[] = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(pathToFileURL(html).href);
  return { page, problems, requests, dir };
}

const runs: [string, () => RunReport, string][] = [
  ['passing', passingReport, 'CERTIFIED'],
  ['failing', failingReport, 'NOT CONFORMANT'],
];

describe.skipIf(!mustRun).each(runs)('index.html of a %s run in Chromium', (name, make, headline) => {
  const report = make();
  let o: Opened;
  beforeAll(async () => { o = await open(name, report); }, 60_000);
  afterAll(async () => { await o?.page.close(); });

  it('The page loads without errors, CSP violations or network requests.', async () => {
    expect(o.problems).toEqual([]);
    expect(o.requests.filter((u) => !u.startsWith('file://'))).toEqual([]);
    // the stylesheet and the script were allowed by the CSP
    expect(await o.page.locator('[data-testid="banner"]').evaluate((el) => (globalThis as unknown as BrowserGlobals).getComputedStyle(el).borderTopWidth)).toBe('6px');
    expect(await o.page.locator('html').getAttribute('class')).toContain('js');
  });

  it('The banner shows the verdict, the target and the spec hash.', async () => {
    await expect.poll(() => o.page.getByTestId('verdict').innerText()).toBe(headline);
    expect(await o.page.getByTestId('meta-target').innerText()).toBe(report.target.baseUrl);
    expect(await o.page.getByTestId('meta-spec').innerText()).toBe(report.specSha256);
  });

  it('Every requirement row is visible with its status.', async () => {
    const rows = o.page.locator('article[data-testid="requirement"]');
    expect(await rows.count()).toBe(report.requirements.length);
    for (const r of report.requirements.filter((q) => q.status !== 'pass')) {
      const row = o.page.locator(`[data-requirement="${r.id}"]`);
      expect(await row.isVisible()).toBe(true);
      expect(await row.getByTestId('status').innerText()).toBe(r.status.toUpperCase());
    }
    expect(await o.page.getByTestId('filter-shown').innerText()).toBe(`${report.requirements.length} of ${report.requirements.length} requirements shown`);
  });

  it('The filter narrows the rows by status, level and text, and resets.', async () => {
    const visible = () => o.page.locator('article[data-testid="requirement"]:visible').count();
    await o.page.getByTestId('filter-status-pass').uncheck();
    expect(await visible()).toBe(report.requirements.filter((q) => q.status !== 'pass').length);
    await o.page.getByTestId('filter-status-pass').check();
    await o.page.getByTestId('filter-level-MUST').uncheck();
    expect(await visible()).toBe(report.requirements.filter((q) => q.level !== 'MUST').length);
    await o.page.getByTestId('filter-level-MUST').check();
    await o.page.getByTestId('filter-text').fill('schema-pets');
    expect(await visible()).toBe(1);
    await o.page.getByTestId('filter-text').fill('no such requirement anywhere');
    expect(await o.page.getByTestId('filter-empty').isVisible()).toBe(true);
    await o.page.locator('#filter-reset').click();
    expect(await visible()).toBe(report.requirements.length);
  });

  it('The load chart renders as SVG with the Remaining line, 429 markers and Retry-After waits.', async () => {
    const svg = o.page.getByTestId('load-chart-svg').first();
    expect(await svg.isVisible()).toBe(true);
    expect((await svg.boundingBox())!.width).toBeGreaterThan(600);
    const chart = o.page.getByTestId('load-chart').first();
    expect(await chart.getByTestId('chart-429').count()).toBeGreaterThan(0);
    expect(await chart.getByTestId('chart-retry-after').count()).toBeGreaterThan(0);
    expect((await chart.getByTestId('chart-remaining').getAttribute('points'))!.split(' ').length).toBeGreaterThan(10);
    expect(await chart.getByTestId('chart-x-label').textContent()).toBe('Time since scenario start (s)');
  });

  it('junit.xml and badge.svg parse as XML in the browser.', async () => {
    for (const file of ['junit.xml', 'badge.svg']) {
      const xml = readFileSync(join(o.dir, file), 'utf8');
      const error = await o.page.evaluate((text) => new (globalThis as unknown as BrowserGlobals).DOMParser().parseFromString(text, 'application/xml').querySelector('parsererror')?.textContent ?? null, xml);
      expect(error, file).toBeNull();
    }
  });
});

describe.skipIf(!mustRun)('index.html of a failing run in Chromium: evidence', () => {
  let o: Opened;
  beforeAll(async () => { o = await open('failing-evidence', failingReport()); }, 60_000);
  afterAll(async () => { await o?.page.close(); });

  it('A failure’s evidence is open, with the request, the response and what was expected.', async () => {
    const row = o.page.locator('[data-requirement="AUTH-MISSING-401"]');
    const details = row.getByTestId('evidence').first();
    expect(await details.evaluate((d) => (d as unknown as { open: boolean }).open)).toBe(true);
    expect(await row.getByTestId('evidence-request').innerText()).toContain('GET https://api.animal-store.example/v1/pets');
    const response = await row.getByTestId('evidence-response').innerText();
    expect(response).toMatch(/^HTTP 200\ncontent-type: text\/html/);
    expect(response).toContain('(body truncated)');
    expect(await row.getByTestId('evidence-expected').innerText()).toBe('401 with an Error body');
  });

  it('Hostile markup in the evidence is shown as text and never runs.', async () => {
    expect(await o.page.evaluate(() => (globalThis as unknown as BrowserGlobals).__pwned)).toBeUndefined();
    expect(await o.page.locator('[data-requirement="AUTH-MISSING-401"]').getByTestId('evidence-response').innerText()).toContain(HOSTILE.script);
    expect(await o.page.locator('main script, main img').count()).toBe(0);
  });

  it('A screenshot of the certificate is saved for review.', async () => {
    await o.page.evaluate(() => (globalThis as unknown as BrowserGlobals).scrollTo(0, 0));
    await o.page.screenshot({ path: '/tmp/cert.png' });
    expect(existsSync('/tmp/cert.png')).toBe(true);
  });

  it('The failed MUSTs are linked from the banner.', async () => {
    await o.page.getByTestId('failed-musts').getByText('SCHEMA-PET').click();
    expect(new URL(o.page.url()).hash).toBe('#req-SCHEMA-PET');
    expect(await o.page.locator('#req-SCHEMA-PET .req-head').isVisible()).toBe(true);
  });
});
