/**
 * What the browser tests of index.html share: one headless Chromium per test
 * file (Debian's chromium driven by playwright-core), a report written to disk
 * and opened from there with its console errors, CSP violations and requests
 * recorded, the page's layout, and the browser globals used inside
 * page.evaluate. Skips only when Chromium is absent outside CI, and says why.
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { writeReports } from '../../src/results/writers/index.ts';
import type { RunReport } from '../../src/results/types.ts';
import { tempDir } from '../support/temp.ts';

/** The browser globals used inside page.evaluate (the project's tsconfig has no DOM lib). */
export interface Box {
  top: number;
  bottom: number;
  left: number;
  right: number;
  width: number;
  height: number;
}
export interface El {
  getBoundingClientRect(): Box;
  scrollWidth: number;
  clientWidth: number;
  scrollHeight: number;
  clientHeight: number;
  scrollLeft: number;
  textContent: string | null;
  open?: boolean;
}
export interface Win {
  innerWidth: number;
  innerHeight: number;
  scrollY: number;
  __pwned?: number;
  scrollTo(x: number, y: number): void;
  getComputedStyle(el: El): { borderTopWidth: string; position: string };
  getSelection(): { toString(): string } | null;
  document: { documentElement: El; querySelectorAll(s: string): ArrayLike<El>; querySelector(s: string): El | null };
  DOMParser: new () => { parseFromString(text: string, type: string): { querySelector(s: string): El | null } };
}

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const mustRun = existsSync(CHROMIUM) || !!process.env.CI;
if (!mustRun)
  console.warn(
    `The browser tests of index.html are SKIPPED: no Chromium at ${CHROMIUM} (set CHROMIUM_PATH or apt-get install chromium); they always run when CI is set.`,
  );

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** Where screenshots go for a human review, when asked (REPORT_SCREENSHOTS=dir). */
const SHOTS = process.env.REPORT_SCREENSHOTS;

export interface Opened {
  page: Page;
  problems: string[];
  requests: string[];
  dir: string;
}

type Open = (name: string, report: RunReport, width: number) => Promise<Opened>;

/**
 * Launches Chromium for the test file (closed after it) and opens reports in it, each in its own context.
 * `openAll`, called inside a describe, opens every named report before its tests and closes them after.
 */
export function chromiumSession(prefix: string): {
  open: Open;
  openAll: (reports: [string, () => RunReport][], width: number) => Record<string, Opened>;
} {
  const root = tempDir(prefix);
  let browser: Browser;
  beforeAll(async () => {
    if (!mustRun) return;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    rmSync(root, { recursive: true, force: true });
  });

  async function open(name: string, report: RunReport, width: number): Promise<Opened> {
    const dir = join(root, `${name}-${width}`);
    const [html] = writeReports(report, dir);
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    const problems: string[] = [];
    const requests: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(pathToFileURL(html).href);
    if (SHOTS) {
      mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: width < 600 });
    }
    return { page, problems, requests, dir };
  }
  function openAll(reports: [string, () => RunReport][], width: number): Record<string, Opened> {
    const pages: Record<string, Opened> = {};
    beforeAll(async () => {
      for (const [name, make] of reports) pages[name] = await open(name, make(), width);
    }, 90_000);
    afterAll(async () => {
      for (const o of Object.values(pages)) await o.page.context().close();
    });
    return pages;
  }
  return { open, openAll };
}

/** A page that loaded without console errors, CSP violations or requests beyond its own file, with its script run. */
export async function expectLoadedCleanly(o: Opened): Promise<void> {
  expect(o.problems).toEqual([]);
  expect(o.requests.filter((u) => !u.startsWith('file://'))).toEqual([]);
  expect(await o.page.locator('html').getAttribute('class')).toContain('js');
}

/** The page's width as laid out, and the viewport's size. */
export const layoutOf = (page: Page) =>
  page.evaluate(() => {
    const w = globalThis as unknown as Win;
    return { scrollWidth: w.document.documentElement.scrollWidth, innerWidth: w.innerWidth, innerHeight: w.innerHeight };
  });
