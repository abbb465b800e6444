/**
 * The operations interleaved and the POST at the limit on a real k6 binary (K6_BIN, else k6 on PATH), through the
 * suite's k6 engine against reference servers on 127.0.0.1: with writes allowed, the ceiling alone and the recovery
 * give the Node engine's outcome per requirement (RL-429-NOTHING-STORED passed); create-429-stored fails it; a
 * limiter counted per route fails RL-REMAINING-DECREMENTS by name with writes off (GETs only). Skipped without k6,
 * saying why (real-k6.test.ts says how to build one).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { NodeEngine, type LoadJob } from '../../load/node/engine.ts';
import { findK6, K6Engine } from '../../load/node/k6.ts';
import type { AppOptions } from '../../reference/app.ts';
import type { ScenarioName } from '../../src/core/scenarios.ts';
import { closeTransport } from '../../src/http/transport.ts';
import { job, outcomesOf, startReference, type Ref } from './helpers.ts';
import { builtBundles } from '../support/bundles.ts';

const K6 = findK6();
if (!K6) console.warn('real-k6-writes.test.ts SKIPPED: no k6 binary (set K6_BIN or put k6 on PATH; see real-k6.test.ts)');

const WINDOW = 2000;
const refs: Ref[] = [];
const bundles = builtBundles('real-k6-writes-dist', !!K6);
afterAll(async () => {
  await Promise.all(refs.map((r) => r.close()));
  await closeTransport();
});

async function realJob(scenario: ScenarioName, options: AppOptions, allowWrites: boolean): Promise<LoadJob> {
  const ref = await startReference(options, WINDOW);
  refs.push(ref);
  return job(scenario, {
    baseUrl: ref.url,
    apiKey: ref.key,
    windowMs: WINDOW,
    maxWaitMs: 20_000,
    deadlineAt: Date.now() + 120_000,
    tuning: {},
    allowWrites,
  });
}

const k6 = () => new K6Engine(K6!, bundles.dir, () => undefined);
const find = (r: { report: { judgements: { requirement: string; outcome: string; title: string }[] } }, id: string) =>
  r.report.judgements.find((j) => j.requirement === id);

describe.skipIf(!K6)('real k6, the operations interleaved', () => {
  it.each(['ceiling', 'recovery'] as ScenarioName[])(
    "Writes on, the %s bundle sends its POST at the limit, reads it back and gets the Node engine's outcome per requirement.",
    async (scenario) => {
      const [a, b] = await Promise.all([realJob(scenario, {}, true), realJob(scenario, {}, true)]);
      const [onK6, onNode] = await Promise.all([k6().run(a), new NodeEngine({}, () => undefined).run(b)]);
      expect(onK6.report.judgements.filter((j) => j.outcome === 'fail' || j.outcome === 'warn' || j.outcome === 'error')).toEqual([]);
      expect(find(onK6, 'RL-429-NOTHING-STORED')?.outcome).toBe('pass');
      expect(outcomesOf(onK6.report.judgements)).toEqual(outcomesOf(onNode.report.judgements));
    },
    60_000,
  );

  it.each([
    { fault: 'create-429-stored', writes: true, id: 'RL-429-NOTHING-STORED', title: 'A createPet refused with 429 was stored anyway' },
    { fault: 'limit-per-route', writes: false, id: 'RL-REMAINING-DECREMENTS', title: 'Remaining counted per operation, not per key' },
  ] as const)(
    'The ceiling bundle on real k6 catches $fault (writes $writes): $id fails by name.',
    async ({ fault, writes, id, title }) => {
      const r = await k6().run(await realJob('ceiling', { faults: [fault] }, writes));
      expect([find(r, id)?.outcome, find(r, id)?.title]).toEqual(['fail', title]);
    },
    60_000,
  );
});
