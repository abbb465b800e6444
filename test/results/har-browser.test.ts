/**
 * traffic.har opened by a real HAR reader: Playwright's routeFromHAR in headless Chromium (Debian's chromium
 * driven by playwright-core, as the certificate's browser tests do) serves a run's recorded responses from the file
 * alone — nothing listens at the recorded address, and a request the file does not hold is aborted. Skips only when
 * Chromium is absent outside CI, and says why (test/results/browser.ts).
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { HarEntry, TrafficLine } from '../../src/results/har-lines.ts';
import { harRunOf, writeHar } from '../../src/results/writers/har.ts';
import { harProblems, type Har } from '../support/har.ts';
import { runSuiteAgainst } from '../support/suite.ts';
import { tempDir } from '../support/temp.ts';
import { mustRun } from './browser.ts';
import { certifiedReport } from '../support/report-fixtures.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
];

describe.runIf(mustRun)('traffic.har in a real HAR reader (Playwright routeFromHAR, Chromium)', () => {
  const dir = tempDir('har-browser');
  const file = join(dir, 'traffic.har');
  let har: Har;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    const lines: TrafficLine[] = [];
    // The specs of every operation, on the in-process server (its recorded address: nothing listens there).
    await runSuiteAgainst({}, { specs: (f) => f.operation !== 'exploration', traffic: { write: (l) => lines.push(l) } });
    writeHar(file, () => lines, harRunOf(certifiedReport()));
    har = JSON.parse(readFileSync(file, 'utf8')) as Har;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
    context = await browser.newContext();
    await context.routeFromHAR(file, { notFound: 'abort' });
    page = await context.newPage();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const find = (f: (e: HarEntry) => boolean) => {
    const e = har.log.entries.find(f);
    expect(e, 'the run recorded such an exchange').toBeDefined();
    return e!;
  };

  test('The file the reader loads is valid HAR 1.2.', () => {
    expect(harProblems(har)).toBe('valid');
  });

  test('A recorded GET is answered from the file: its status, content type and body as recorded.', async () => {
    const e = find((x) => x.request.method === 'GET' && x.response.status === 200 && /\/pets\?limit=1$/.test(x.request.url));
    const res = await page.goto(e.request.url);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-type']).toBe('application/json');
    expect(await res?.text()).toBe(e.response.content.text);
  });

  test('A recorded createPet is answered from the file when the page sends the same body: its 201 and the pet with its id.', async () => {
    const e = find((x) => x.request.method === 'POST' && x.response.status === 201);
    await page.goto(find((x) => x.request.method === 'GET' && x.response.status === 200).request.url);
    const got = await page.evaluate(
      async ([url, body]) => {
        const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        return { status: r.status, text: await r.text() };
      },
      [e.request.url, e.request.postData!.text] as const,
    );
    expect(got).toEqual({ status: 201, text: e.response.content.text });
  });

  test('A request the file does not hold is aborted: the answers come from the file, not from a server.', async () => {
    await expect(page.goto('http://127.0.0.1:4010/v1/not-recorded')).rejects.toThrow();
  });
});
