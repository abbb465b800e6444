/**
 * Findings that reproduce. A single request is offered as minimal only when, replayed alone, it fails the same way
 * again; a failure of the list caused by what the store holds shows the sequence that reproduces it — the request
 * that stored the pet, then the list — and says so, instead of naming an innocent later request as minimal.
 */
import { describe, expect, test } from 'vitest';
import type { Finding } from '../../src/results/types.ts';
import { replayCurl, replayLines } from '../../src/results/writers/replay.ts';
import { keepCounterexamples, loadCounterexamples, storeKey } from '../../src/explore/counterexample-store.ts';
import { runSuiteAgainst } from '../support/suite.ts';
import { tempDir } from '../support/temp.ts';

const ASTRAL = /[\uD800-\uDBFF]|\\ud8[0-9a-f]{2}/i;
const exploring = (fs: readonly Finding[], requirement: string) =>
  fs.filter((f) => f.requirement === requirement && f.outcome === 'fail' && f.replay);

describe('a stored pet that breaks every later page of the list', () => {
  test.each(['1', '2', '3'])(
    'With seed %s, LIST-200-PETS shows the request that stored the pet with a name outside the BMP, then the list that failed, as depending on stored state.',
    async (seed) => {
      const run = await runSuiteAgainst({ faults: ['list-500-after-astral'] }, { env: { ANIMAL_STORE_SEED: seed } });
      const found = exploring(run.findings, 'LIST-200-PETS');
      expect(found.length, run.problems().join('\n')).toBeGreaterThan(0);
      for (const f of found) {
        const r = f.replay!;
        expect(r.reproduced).toBe('after-stored');
        expect(r.method).toBe('GET');
        expect(r.url).toMatch(/\/v1\/pets\?/);
        expect(r.before!.some((b) => b.probe.op === 'createPet' && ASTRAL.test(b.probe.body ?? ''))).toBe(true);
        expect(r.shrinks ?? 0).toBe(0);
        const lines = replayLines(r).join('\n');
        expect(lines).toMatch(/it depends on what the store holds/);
        expect(replayCurl(r)!.split('\n').at(-1)).toMatch(/^curl -i -H "Authorization: Bearer \$ANIMAL_STORE_API_KEY".*\/v1\/pets\?/);
      }
    },
  );
});

describe('a minimal request replayed alone', () => {
  test('A single request that fails alone is offered as minimal, said to fail again when replayed alone.', async () => {
    const run = await runSuiteAgainst({ faults: ['name-astral-500'] });
    const f = run.findings.find((x) => x.requirement === 'RESP-STATUS-DOCUMENTED' && x.outcome === 'fail' && x.replay)!;
    expect(f.replay!.reproduced).toBe('alone');
    expect(replayLines(f.replay).join('\n')).toMatch(/minimal request \(replayed alone, it failed the same way again\): curl/);
  });

  test('A request that does not fail again when replayed alone is never offered as minimal: it is said to depend on the requests before it.', async () => {
    const run = await runSuiteAgainst({ faults: ['list-500-every-7th'] });
    const found = exploring(run.findings, 'LIST-200-PETS');
    expect(found.length, run.problems().join('\n')).toBeGreaterThan(0);
    for (const f of found) {
      expect(f.replay!.reproduced).toBe('not-alone');
      expect(replayLines(f.replay).join('\n')).not.toMatch(/minimal request/);
      expect(replayLines(f.replay).join('\n')).toMatch(/replayed alone, this request did not fail again/);
    }
  });
});

test('A counterexample that depends on stored state is saved with the creates that stored it, and the next run against a fresh server replays them first: it fails again, never a false "fixed".', async () => {
  const dir = tempDir('reproduce-store');
  const env = { ANIMAL_STORE_REPORTS_DIR: dir };
  const target = { baseUrl: 'http://127.0.0.1:4010/v1', embedded: true };
  keepCounterexamples(dir, target, (await runSuiteAgainst({ faults: ['list-500-after-astral'] }, { env })).findings);
  const saved = loadCounterexamples(dir, storeKey(target.baseUrl, true)).filter((c) => c.requirement === 'LIST-200-PETS');
  expect(saved.length).toBeGreaterThan(0);
  expect(saved.every((c) => c.before?.some((b) => ASTRAL.test(b.body ?? '')))).toBe(true);
  const next = await runSuiteAgainst({ faults: ['list-500-after-astral'] }, { env: { ...env, ANIMAL_STORE_SEED: '77' } });
  const replayed = next.findings.filter((f) => f.replay?.phase === 'replayed' && f.requirement === 'LIST-200-PETS');
  expect(replayed.some((f) => f.outcome === 'fail')).toBe(true);
  expect(replayed.some((f) => f.title === 'Saved counterexample fixed')).toBe(false);
});

test('A failure that comes back only right after the request sent before it is reported with that request first (a connection left open after a refused large body).', async () => {
  const run = await runSuiteAgainst({ faults: ['next-after-large-body-500'] });
  const f = run.findings.find((x) => x.requirement === 'RESP-STATUS-DOCUMENTED' && x.outcome === 'fail' && x.replay)!;
  expect(f.replay!.reproduced).toBe('after-previous');
  expect(f.replay!.before?.[0].probe.body?.length).toBeGreaterThan(1_000_000);
  expect(replayLines(f.replay).join('\n')).toMatch(/right after the request sent before it, it failed again/);
});
