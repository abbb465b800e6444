/**
 * The engines on real sockets and the real clock (the scenario logic itself is
 * proven on simulated time elsewhere): the Node engine over undici and the k6
 * bundle in the emulator over real HTTP give the same outcome per requirement
 * on the ceiling and the recovery, the orchestrator waits out the Retry-After
 * between them, and the reports never contain the key even when the server
 * echoes it. Margins are generous: nothing here depends on the machine's speed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { realClock } from '../../load/node/clock.ts';
import { NodeEngine } from '../../load/node/engine.ts';
import { bundlePath, jobEnv } from '../../load/node/k6.ts';
import { orchestrate } from '../../load/node/orchestrator.ts';
import type { LoadReport } from '../../src/core/load-report.ts';
import { closeTransport } from '../../src/http/transport.ts';
import { job, outcomesOf, startReference, type Ref } from './helpers.ts';
import { builtBundles } from '../support/bundles.ts';
import { runK6Real } from '../support/k6-shim/run.ts';
import { tempDir } from '../support/temp.ts';

const WINDOW = 3000;
const refs: Ref[] = [];
const bundles = builtBundles('wall-dist');
afterAll(async () => {
  await Promise.all(refs.map((r) => r.close()));
  await closeTransport();
});

async function reference(options = {}) {
  const ref = await startReference(options, WINDOW);
  refs.push(ref);
  return ref;
}

const realJob = (ref: Ref, scenario: 'ceiling' | 'recovery') =>
  job(scenario, { baseUrl: ref.url, apiKey: ref.key, windowMs: WINDOW, maxWaitMs: 20_000, deadlineAt: Date.now() + 120_000, tuning: {} });

describe('real sockets, real time', () => {
  it('The Node engine runs ceiling then recovery on one key, waiting out the Retry-After in between, and both pass.', async () => {
    const ref = await reference({ variants: { banOnEarlyRetry: true } });
    const out = await orchestrate([realJob(ref, 'ceiling'), realJob(ref, 'recovery')], {
      engine: new NodeEngine({}, () => undefined),
      clock: realClock,
    });
    expect(out.reports.map((r) => r.verdict)).toEqual(['pass', 'pass']);
    expect(outcomesOf(out.reports[1].judgements)['RL-RECOVERY']).toBe('pass');
  }, 90_000);

  it('The k6 bundle (emulated, real HTTP) and the Node engine give the same outcome per requirement on the ceiling.', async () => {
    const a = await reference();
    const node = (await new NodeEngine({}, () => undefined).run(realJob(a, 'ceiling'))).report;
    const b = await reference();
    const dir = tempDir('wall-k6');
    const k6 = await runK6Real(bundlePath('ceiling', bundles.dir), jobEnv(realJob(b, 'ceiling'), dir));
    expect(k6.exitCode).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, 'load-ceiling-enterprise.json'), 'utf8')) as LoadReport;
    expect(outcomesOf(report.judgements)).toEqual(outcomesOf(node.judgements));
  }, 90_000);

  it('Reports never contain the key, even when the server echoes it in every response.', async () => {
    const ref = await reference({ faults: ['echo-key'] });
    const { report } = await new NodeEngine({}, () => undefined).run(realJob(ref, 'ceiling'));
    // The run reached the 429, whose Error message echoed the key: redacted (a busy machine may cross a window first).
    expect(report.timeline[report.timeline.length - 1]).toMatchObject({ status: 429, remaining: 0, limit: 20 });

    expect(JSON.stringify(report)).not.toContain(ref.key);
  }, 90_000);
});
