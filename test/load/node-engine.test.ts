/**
 * The Node engine against the reference server: every scenario passes on valid
 * servers — including unusual ones (Retry-After as an HTTP-date, a sliding
 * window, a token bucket, slow responses, a Retry-After padded beyond Reset,
 * no Date, Connection: close with chunked bodies, problem+json) and one that bans a key retrying before Retry-After,
 * which the scenarios never provoke — and the reports are written, key-free.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetKeys } from '../../load/node/engine.ts';
import type { ScenarioName } from '../../load/lib/types.ts';
import { outcomes, problems, reportsDir, runOn, startReference, WINDOW_MS, type Ref } from './helpers.ts';

const SCENARIOS: ScenarioName[] = ['ceiling', 'recovery', 'sustained', 'overload'];
const VARIANTS: Record<string, Parameters<typeof startReference>[0]> = {
  reference: {},
  'Retry-After as an HTTP-date': { variants: { retryAfter: 'http-date' } },
  'sliding-window limiter': { variants: { limiter: 'sliding' } },
  'slow responses (150 ms)': { variants: { latencyMs: 150 } },
  'bans early retries': { variants: { banOnEarlyRetry: true } },
  'headers counting the per-day quota': { variants: { rateLimitHeaders: 'day' } },
  'token-bucket limiter': { variants: { limiter: 'token-bucket' } },
  'Retry-After 1 s beyond Reset, no Date, Connection: close, chunked, problem+json': {
    variants: { retryAfterPaddingS: 1, wire: { noDate: true, chunkedClose: true, contentType: 'problem', oddHeaders: true } },
  },
};
const refs: Ref[] = [];
afterAll(async () => {
  await Promise.all(refs.map((r) => r.close()));
  forgetKeys();
});

describe('valid servers pass every scenario', () => {
  // All runs start at once (each on its own server) and are judged one by one: the suite waits for the slowest only.
  const runs = new Map<string, Promise<{ ref: Ref; r: Awaited<ReturnType<typeof runOn>> }>>();
  beforeAll(() => {
    for (const [variant, options] of Object.entries(VARIANTS))
      for (const scenario of SCENARIOS)
        runs.set(
          `${scenario} — ${variant}`,
          startReference(options).then(async (ref) => (refs.push(ref), { ref, r: await runOn(ref, scenario) })),
        );
  });
  for (const variant of Object.keys(VARIANTS)) {
    for (const scenario of SCENARIOS) {
      it(`${scenario} — ${variant}`, async () => {
        const { r } = await (runs.get(`${scenario} — ${variant}`) as Promise<{ r: Awaited<ReturnType<typeof runOn>> }>);
        expect(problems(r)).toEqual([]);
        expect(r.exitCode).toBe(0);
        // Never banned: no 429 asked for more than a window (a ban asks for ten).
        for (const p of r.report.timeline) if (p.status === 429) expect(p.retryAfter ?? 0).toBeLessThanOrEqual(WINDOW_MS / 1000 + 1);
        if (scenario === 'ceiling') expect(r.report.requestsSent).toBeLessThanOrEqual(2 * 20 + 1);
      }, 30000);
    }
  }
});

describe('reports and keys', () => {
  it('writes the JSON and JUnit reports without the key, with a timeline', async () => {
    const ref = await startReference({ faults: ['echo-key'] as never });
    refs.push(ref);
    const dir = reportsDir();
    const r = await runOn(ref, 'ceiling', { reportsDir: dir });
    const json = readFileSync(`${dir}/load-ceiling-enterprise.json`, 'utf8');
    const xml = readFileSync(`${dir}/load-ceiling-enterprise.junit.xml`, 'utf8');
    for (const text of [json, xml]) expect(text).not.toContain(ref.key);
    const report = JSON.parse(json);
    expect(report).toMatchObject({ scenario: 'ceiling', plan: 'enterprise', engine: 'node', target: ref.url, requestsSent: 21 });
    expect(report.timeline).toHaveLength(21);
    expect(report.timeline[20]).toMatchObject({ status: 429, remaining: 0, limit: 20 });
    expect(xml).toContain('<testsuite name="load-ceiling-enterprise"');
    expect(r.files.json).toBe(`${dir}/load-ceiling-enterprise.json`);
  });

  it('runs scenarios back to back on one key without an early request (ceiling → recovery → sustained, ban variant)', async () => {
    const { a, b, c, ms } = await chain;
    for (const r of [a, b, c]) expect(problems(r)).toEqual([]);
    expect(outcomes(b, 'RL-RECOVERY')).toEqual(['pass']);
    expect(c.report.notes ?? []).toEqual([]); // waited for a fresh window before its preflight
    expect(ms).toBeLessThan(20000);
  }, 30000);
});

// Started with the other runs, so that it overlaps them.
const chain = (async () => {
  const ref = await startReference({ variants: { banOnEarlyRetry: true } });
  refs.push(ref);
  const t0 = Date.now();
  const a = await runOn(ref, 'ceiling');
  const b = await runOn(ref, 'recovery');
  const c = await runOn(ref, 'sustained');
  return { a, b, c, ms: Date.now() - t0 };
})();
