/**
 * The method and the credential as the exploration's own dimensions (issue 39): for each fault of the reference server
 * on them, over 20 seeds at the default budget, the share of runs of the exploration ALONE (the table-driven specs
 * off: every-method, key-channels and shifted-ids would find them otherwise) that report it by its requirement, and the
 * part that did; and the alarms the exploration alone raises on the valid variants of these dimensions. Simulated time.
 */
import type { FaultName } from '../reference/faults.ts';
import { FAULTS } from '../reference/faults.ts';
import type { AppOptions } from '../reference/options.ts';
import type { SpecFile } from '../src/harness/define-spec.ts';
import type { BenchLine } from './conformance.ts';
import { SEEDS } from './explore.ts';
import { runSuiteAgainst } from './support/suite.ts';

const EXPLORATION_ALONE = (f: SpecFile) => f.operation === 'exploration';

export const REQUEST_FORM_FAULTS: readonly FaultName[] = [
  'head-skips-auth',
  'undocumented-delete-no-auth',
  'method-405-bare',
  'method-405-allow-partial',
  'key-case-insensitive',
  'token-unanchored',
  'auth-prefix-match',
  'key-from-query',
  'key-from-header',
  'basic-password-key',
  'access-token-query-accepted',
  'petid-uint64-wrap',
  'petid-low-32-bits',
  'head-ignores-query',
];

const VARIANTS: readonly [string, AppOptions][] = [
  ['head=405', { variants: { head: '405' } }],
  ['head=get', { variants: { head: 'get' } }],
  ['cors', { variants: { cors: true } }],
  ['options=open', { variants: { options: 'open' } }],
  ['options=express', { variants: { options: 'express' } }],
  ['routerFirst', { variants: { routerFirst: true } }],
  ['trailingSlash', { variants: { trailingSlash: true } }],
  ['idNotInt64=400 + strictIntegers', { variants: { idNotInt64: '400', strictIntegers: true } }],
  ['idNotInt64=404', { variants: { idNotInt64: '404' } }],
  ['strictIntegers', { variants: { strictIntegers: true } }],
];

export async function benchRequestForms(seeds = SEEDS): Promise<BenchLine[]> {
  const only = (process.env.BENCH_FAULTS ?? '').split(',').filter(Boolean);
  const out: BenchLine[] = [];
  for (const fault of REQUEST_FORM_FAULTS.filter((f) => !only.length || only.includes(f))) {
    const { requirement, outcome } = FAULTS[fault].expect;
    const parts = new Map<string, number>();
    let found = 0;
    for (const seed of seeds) {
      const run = await runSuiteAgainst({ faults: [fault] }, { env: { ANIMAL_STORE_SEED: seed }, specs: EXPLORATION_ALONE });
      if (run.status(requirement) !== outcome) continue;
      found++;
      const part = run.findings.find((f) => f.requirement === requirement && f.outcome === outcome && f.replay)?.replay?.phase ?? '?';
      parts.set(part, (parts.get(part) ?? 0) + 1);
    }
    const share = (100 * found) / seeds.length;
    out.push({
      name: `explore alone: ${fault} found (${requirement})`,
      value: Math.round(share),
      unit: '% of seeds',
      goal: '100 %',
      met: found === seeds.length,
      detail: `${found}/${seeds.length} seeds; by ${[...parts].map(([p, n]) => `${p} ${n}`).join(', ') || 'none'}`,
    });
  }
  return [...out, ...(only.length ? [] : await benchRequestFormVariants(seeds))];
}

async function benchRequestFormVariants(seeds: readonly string[]): Promise<BenchLine[]> {
  const alarms: string[] = [];
  for (const [name, options] of VARIANTS)
    for (const seed of seeds) {
      const run = await runSuiteAgainst(options, { env: { ANIMAL_STORE_SEED: seed }, specs: EXPLORATION_ALONE });
      for (const p of run.problems()) alarms.push(`${name}, seed ${seed}: ${p.slice(0, 160)}`);
    }
  return [
    {
      name: 'explore alone: false alarms over the method, key and id variants',
      value: alarms.length,
      unit: 'alarms',
      goal: '0',
      met: alarms.length === 0,
      detail: alarms.length ? alarms.slice(0, 3).join(' | ') : `${VARIANTS.length} variants × ${seeds.length} seeds`,
    },
  ];
}
