/**
 * The full profile can certify completely — proven on simulated time, so the
 * proof holds on any machine: the profile's conformance specs (writes on) and
 * every per-minute scenario, and the daily one with its explicit opt-in, run
 * against a reference server on a virtual clock with the spec's real minute;
 * every MUST requirement is exercised and passes, and the run is CERTIFIED.
 * Without the daily opt-in, the same run is incomplete, and says RL-DAILY-QUOTA
 * is certified only with --allow-daily. Each rate-limit fault mode keeps it
 * from certifying (a SHOULD fault is reported as a warning).
 */
import { describe, expect, it } from 'vitest';
import { NodeEngine } from '../../load/node/engine.ts';
import { runRateLimits } from '../../load/node/run.ts';
import { buildApp, type AppOptions } from '../../reference/app.ts';
import { FAULTS, faultsFor } from '../../reference/faults.ts';
import { profileFor } from '../../src/cli/profiles.ts';
import { readConfig } from '../../src/settings/config.ts';
import { runSpecs, specPaths } from '../../src/harness/runner.ts';
import { collectSpecs } from '../../src/harness/spec.ts';
import { Session } from '../../src/harness/session.ts';
import { certificationReport } from '../../src/results/certification.ts';
import { embeddedTarget, type Target } from '../../src/target/target.ts';
import { VirtualClock, virtualSend } from '../support/virtual.ts';

const MINUTE = 60_000;
const DAY = 30 * MINUTE; // a short quota day: 400 requests, reachable in 25 minutes at 18 a minute
const T0 = Date.UTC(2030, 0, 1, 12, 0, 0) + 250;

/** The spec's minute and a 30-minute day. */
const SHORT_DAY = { 'window-ms': String(MINUTE), 'day-ms': String(DAY), 'max-wait-ms': String(DAY) };
/** A world of its own: enterprise at 20 a minute and 400 a day, on that minute and day. */
const SHORT = { ...SHORT_DAY, plan: 'enterprise', rpm: '20', rpd: '400' };

/** A certification run on simulated time against the embedded server as `npm start` configures it (`world`: its settings). */
async function certifyVirtually(flags: Record<string, string | boolean>, app: AppOptions = {}, world: Record<string, string> = SHORT) {
  const config = readConfig({}, { ...world, ...flags }, 'start');
  const profile = profileFor(config);
  const clock = new VirtualClock(T0);
  const baseUrl = 'http://127.0.0.1:4010/v1';
  const embedded = embeddedTarget(profile.config, baseUrl, { ...app, now: () => clock.now() });
  const { windowMs, dayMs } = embedded.options;
  const send = virtualSend(buildApp(embedded.options), clock);
  const c = { ...embedded.config, maxRequests: 100_000, deadlineMs: 10 * dayMs };
  const target: Target = {
    config: c,
    info: { env: 'local', baseUrl, plan: c.plan, embedded: true },
    windowMs,
    dayMs,
    close: async () => undefined,
  };
  const session = new Session({ config: c, baseUrl, dayMs, now: () => clock.now(), sleep: (ms) => clock.wait(ms).done, send });
  const files = await collectSpecs(specPaths());
  const conformance = profile.conformance ? await clock.run(() => runSpecs(session, files)) : { findings: [], requests: 0 };
  const load = await clock.run(() =>
    runRateLimits(target, profile.scenarios, { engine: new NodeEngine({ send, clock }, () => undefined), budget: 100_000, clock }),
  );
  // The report as the certify command assembles it.
  return certificationReport({
    suiteVersion: 'test',
    specSha256: 'x',
    target: target.info,
    startedAt: new Date(T0),
    endedAt: new Date(clock.now()),
    interrupted: false,
    requestsSent: conformance.requests + load.reports.reduce((n, r) => n + r.requestsSent, 0),
    conformance: conformance.findings,
    lanes: load.lanes,
    ...(c.plans
      ? { plans: c.plans.map((p) => ({ plan: p.plan, perMinute: p.limits.perMinute, perDay: p.limits.perDay, keySource: p.keySource })) }
      : {}),
    notes: [],
  });
}

const notPassedMusts = (r: Awaited<ReturnType<typeof certifyVirtually>>) =>
  r.requirements
    .filter((q) => q.level === 'MUST' && q.status !== 'pass')
    .map((q) => `${q.id} ${q.status}: ${q.findings[0]?.message ?? ''}`);

describe('the full profile', () => {
  it('With the daily opt-in it exercises every MUST requirement, and a correct server is CERTIFIED.', async () => {
    const r = await certifyVirtually({ profile: 'full', 'allow-daily': true });
    expect(notPassedMusts(r)).toEqual([]);
    expect(r.notExercised).toEqual([]);
    expect(r.outcome).toBe('certified');
    expect(r.load?.map((l) => l.scenario)).toEqual(['ceiling', 'recovery', 'sustained', 'overload', 'daily']);
  }, 60_000);

  it.each<Record<string, string>>([{}, { plan: 'free' }, { plan: 'business' }, { plan: 'enterprise', rpm: '600' }])(
    'On the embedded server as npm start runs it (a 5 s window, its short day, its reachable quotas), the full profile with the daily opt-in certifies %o.',
    async (plan) => {
      const r = await certifyVirtually({ profile: 'full', 'allow-daily': true, ...plan }, {}, {});
      expect(notPassedMusts(r)).toEqual([]);
      expect(r.outcome).toBe('certified');
    },
    60_000,
  );

  it('On the embedded server with headers that count the day, the same run is CERTIFIED: Limit is judged against its quota.', async () => {
    const r = await certifyVirtually({ profile: 'full', 'allow-daily': true }, { variants: { rateLimitHeaders: 'day' } }, {});
    expect(notPassedMusts(r)).toEqual([]);
    expect(r.outcome).toBe('certified');
  }, 60_000);

  it('Without the daily opt-in it passes but is incomplete, and says RL-DAILY-QUOTA needs --allow-daily.', async () => {
    const r = await certifyVirtually({ profile: 'full' });
    expect(r.outcome).toBe('incomplete');
    expect(r.notExercised.map((n) => n.id)).toEqual(['RL-DAILY-QUOTA']);
    expect(r.notExercised[0].remedy).toMatch(/--allow-daily/);
  }, 60_000);

  it.each(faultsFor('load').filter((f) => !FAULTS[f].sideBySide))(
    'With the load fault %s the full profile is not conformant (a MUST fault) or warns on its requirement (a SHOULD fault).',
    async (fault) => {
      const r = await certifyVirtually({ profile: 'full', 'allow-daily': true }, { faults: [fault] });
      const { requirement, outcome } = FAULTS[fault].expect;
      // A MUST fault is never certified (after conformance warmed the key, a fault may be caught by a later scenario's
      // requirement than the one the fault's own probe names); a SHOULD fault is reported as a warning on its requirement.
      if (outcome === 'fail') expect(r.outcome).toBe('not-conformant');
      else expect(r.requirements.find((q) => q.id === requirement)?.status).toBe('warn');
    },
    60_000,
  );
});

describe('several plans in one run', () => {
  it('Free and pro certified side by side: each plan is judged on its own key, and the run is as complete as its plans.', async () => {
    const r = await certifyVirtually({ profile: 'full', plans: 'free,pro' }, {}, SHORT_DAY);
    expect(r.plans?.map((p) => [p.plan, p.outcome, p.notExercised.map((n) => n.id)])).toEqual([
      ['free', 'incomplete', ['RL-DAILY-QUOTA']],
      ['pro', 'incomplete', ['RL-DAILY-QUOTA']],
    ]);
    expect(r.outcome).toBe('incomplete');
    expect(r.load?.map((l) => l.plan)).toEqual(['free', 'free', 'free', 'free', 'pro', 'pro', 'pro', 'pro']);
  }, 60_000);

  it('A server counting free and pro in one bucket makes both plans, and the run, not conformant.', async () => {
    const r = await certifyVirtually({ profile: 'full', plans: 'free,pro' }, { faults: ['plans-share-bucket'] }, SHORT_DAY);
    expect(r.plans?.map((p) => [p.plan, p.outcome])).toEqual([
      ['free', 'not-conformant'],
      ['pro', 'not-conformant'],
    ]);
    expect(r.outcome).toBe('not-conformant');
    expect(r.requirements.find((q) => q.id === 'RL-REMAINING-DECREMENTS')?.status).toBe('fail');
  }, 60_000);
});
