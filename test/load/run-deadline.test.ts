/**
 * One deadline for the whole run (--deadline-ms), counted from its start: the
 * conformance specs and the rate-limit scenarios share it, so a run never takes
 * the deadline twice over (once for each half). Simulated time.
 */
import { describe, expect, it } from 'vitest';
import { NodeEngine } from '../../load/node/engine.ts';
import { runRateLimits } from '../../load/node/run.ts';
import { Session } from '../../src/harness/session.ts';
import { readConfig } from '../../src/settings/read-config.ts';
import { openTarget } from '../../src/target/target.ts';
import { VirtualClock, virtualSend } from '../support/virtual.ts';
import { T0, virtualApp } from './helpers.ts';

const URL = 'http://127.0.0.1:4010/v1';
const DEADLINE_MS = 5000;

function world() {
  const clock = new VirtualClock(T0);
  const app = virtualApp({}, clock);
  const flags = { 'base-url': URL, plan: 'enterprise', rpm: '20', rpd: '1000', 'deadline-ms': String(DEADLINE_MS) };
  const config = readConfig({ ANIMAL_STORE_API_KEY: app.keys.enterprise }, flags, 'start');
  return { clock, app, send: virtualSend(app, clock), config: { ...config, output: { ...config.output, progress: false } } };
}

describe('the run deadline', () => {
  it('The rate-limit half keeps the deadline of a run that started earlier: a run whose time is spent starts no scenario.', async () => {
    const { clock, send, config } = world();
    const target = await openTarget(config);
    const run = await clock.run(() =>
      runRateLimits(target, ['ceiling'], {
        engine: new NodeEngine({ send, clock }, () => undefined),
        budget: 10_000,
        clock,
        runStartedAt: T0 - DEADLINE_MS,
      }),
    );
    expect(run.reports).toEqual([]);
    expect(run.stopped?.kind).toBe('deadline');
    expect(run.notRun).toEqual([expect.objectContaining({ scenario: 'ceiling', reason: 'the run deadline leaves no time for ceiling' })]);
  });

  it("The conformance session keeps the run's deadline when it is given one, instead of counting --deadline-ms from its own start.", async () => {
    const { clock, send, config } = world();
    const session = new Session({ config, baseUrl: URL, now: () => clock.now(), send, deadlineAt: T0 - 1 });
    await expect(session.client.request({ operation: 'listPets', method: 'GET', path: '/pets' })).rejects.toMatchObject({
      reason: 'deadline',
    });
    const own = new Session({ config, baseUrl: URL, now: () => clock.now(), send });
    expect((await clock.run(() => own.client.request({ operation: 'listPets', method: 'GET', path: '/pets' }))).response?.status).toBe(200);
  });
});
