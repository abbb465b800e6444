/**
 * Test support: run the whole conformance suite in process (collection mode)
 * against a reference server started with the given options, and return the
 * aggregated requirement results.
 */
import { buildApp } from '../../reference/app.ts';
import { listen } from '../../reference/server.ts';
import { DEMO_KEYS } from '../../reference/keys.ts';
import type { AppOptions } from '../../reference/options.ts';
import { readConfig } from '../../src/core/config.ts';
import type { PlanName } from '../../src/core/plans.ts';
import { Session } from '../../src/harness/session.ts';
import { runSpecs, specPaths, type InProcessResult } from '../../src/harness/runner.ts';
import { collectSpecs } from '../../src/harness/spec.ts';
import { aggregate } from '../../src/results/aggregate.ts';
import type { RequirementResult } from '../../src/results/types.ts';

export interface SuiteRun extends InProcessResult {
  results: RequirementResult[];
  status(id: string): string | undefined;
  problems(): string[];
}

export interface RunOptions {
  plan?: PlanName;
  env?: Record<string, string>;
  sleep?: (ms: number) => Promise<void>;
}

export async function runSuiteAgainst(app: AppOptions, opts: RunOptions = {}): Promise<SuiteRun> {
  const server = await listen(buildApp(app), { host: '127.0.0.1', port: 0 });
  try {
    return await runSuiteAt(server.url, DEMO_KEYS[opts.plan ?? 'business'], opts);
  } finally {
    await server.close();
  }
}

export async function runSuiteAt(baseUrl: string, apiKey: string, opts: RunOptions = {}): Promise<SuiteRun> {
  const config = readConfig(
    {
      ANIMAL_STORE_BASE_URL: baseUrl,
      ANIMAL_STORE_API_KEY: apiKey,
      ANIMAL_STORE_PLAN: opts.plan ?? 'business',
      ANIMAL_STORE_TIMEOUT_MS: '3000',
      ...opts.env,
    },
    {},
    'conformance',
  );
  const session = new Session({ config, baseUrl: config.baseUrl!, sleep: opts.sleep });
  const files = await collectSpecs(specPaths());
  const out = await runSpecs(session, files);
  const results = aggregate(out.findings);
  return {
    ...out,
    results,
    status: (id) => results.find((r) => r.id === id)?.status,
    problems: () =>
      results
        .filter((r) => r.status === 'fail' || r.status === 'warn')
        .map((r) => `${r.id} ${r.status}: ${r.findings.map((f) => f.message).join(' | ')}`),
  };
}
