/**
 * How a run's spec tests are scheduled (src/harness/schedule.ts), on simulated time: the independent tests in flight
 * together, a test's own requests in its order, each test's findings, requests and HAR page its own; a test that runs
 * alone starts once all the others are done, with nothing else in flight. No wall-clock assertion: the reference app
 * answers on a virtual clock.
 */
import { describe, expect, test } from 'vitest';
import { buildApp } from '../../reference/app.ts';
import { DEMO_KEYS } from '../../reference/keys.ts';
import { readConfig } from '../../src/settings/read-config.ts';
import { Session } from '../../src/harness/session.ts';
import { schedule, type Planned } from '../../src/harness/schedule.ts';
import type { SpecTest } from '../../src/harness/define-spec.ts';
import { listPets } from '../../src/harness/ops.ts';
import { LIST_PETS } from '../../src/core/sections/list-pets/requirements.ts';
import type { TrafficLine } from '../../src/results/har-lines.ts';
import { VirtualClock, virtualSend } from '../../bench/support/virtual.ts';

const T0 = Date.UTC(2030, 0, 1, 12, 0, 0);
const LATENCY = 1500;

/** A session on a virtual clock against the reference app answering every request in `latency` ms. */
function setup(latency = LATENCY) {
  const clock = new VirtualClock(T0);
  const app = buildApp({ now: () => clock.now() });
  const config = readConfig(
    { ANIMAL_STORE_BASE_URL: 'http://127.0.0.1:4010/v1', ANIMAL_STORE_API_KEY: DEMO_KEYS.business, ANIMAL_STORE_PLAN: 'business' },
    {},
    'conformance',
  );
  const lines: TrafficLine[] = [];
  const session = new Session({
    config,
    baseUrl: config.baseUrl!,
    now: () => clock.now(),
    sleep: (ms) => clock.wait(ms).done,
    send: virtualSend(app, clock, latency),
    traffic: { write: (l) => lines.push(l) },
  });
  return { clock, session, lines };
}

/** A test sending `n` listPets one after another, judging each (its findings must be its own). */
function sequential(title: string, n: number, alone = false): SpecTest {
  return {
    title,
    requirements: ['LIST-200-PETS'],
    ...(alone ? { alone: true } : {}),
    async run(t) {
      for (let i = 0; i < n; i++) {
        const ex = await t.request(listPets({ limit: String(i + 1) }, { headers: { 'x-test': title } }));
        t.judge(ex, [LIST_PETS.judge('LIST-200-PETS', { ok: true, message: `${title} #${i}` })]);
      }
    },
  };
}

const file = { operation: 'listPets', behaviour: 'scheduled' } as const;
const plan = (...tests: SpecTest[]): Planned[] => tests.map((st) => ({ file, st }));

/** When each request of a test left, relative to the start (ms), from the exchanges' headers. */
function departures(session: Session, clock: VirtualClock) {
  const out: { title: string; at: number; back: number }[] = [];
  session.client.opts.onExchange = (ex) => {
    const title = ex.request.headers?.['x-test'] ?? '';
    out.push({ title, at: ex.startedAt - T0, back: clock.now() - T0 });
  };
  return out;
}

describe('schedule', () => {
  test('On a fast server the tests run one after another, in the run’s order, as they always did.', async () => {
    const { clock, session } = setup(2);
    const seen = departures(session, clock);
    const tests = [sequential('a', 2), sequential('b', 1), sequential('alone', 2, true), sequential('c', 2)];
    await clock.run(() => Promise.all(schedule(session, plan(...tests))));
    expect(seen.map((s) => s.title)).toEqual(['a', 'a', 'b', 'alone', 'alone', 'c', 'c']);
    expect(session.client.flight.widest).toBe(1);
  });

  test('Independent tests are in flight together; each test sends its own requests one after another.', async () => {
    const { clock, session } = setup();
    const seen = departures(session, clock);
    const tests = ['a', 'b', 'c', 'd'].map((t) => sequential(t, 3));
    await clock.run(() => Promise.all(schedule(session, plan(...tests))));
    // The first request goes alone (no latency measured yet), then as many as 1.5 s needs: four rounds, not twelve.
    expect(Math.max(...seen.map((s) => s.back))).toBe(4 * LATENCY);
    expect(
      seen
        .filter((s) => s.at === LATENCY)
        .map((s) => s.title)
        .sort(),
    ).toEqual(['a', 'b', 'c', 'd']);
    for (const t of ['a', 'b', 'c', 'd']) {
      const at = seen.filter((s) => s.title === t).map((s) => s.at);
      expect(at.slice(1).every((x, i) => x === at[i] + LATENCY)).toBe(true);
    }
  });

  test('A test that runs alone starts once every test before it is done, and nothing else is in flight with it.', async () => {
    const { clock, session } = setup();
    const seen = departures(session, clock);
    const tests = [sequential('a', 2), sequential('alone', 3, true), sequential('b', 1), sequential('later', 1, true)];
    await clock.run(() => Promise.all(schedule(session, plan(...tests))));
    const of = (t: string) => seen.filter((s) => s.title === t);
    // a's two requests, then alone's three, then b, then later (each alone test at its place in the run's order).
    expect(of('a').map((s) => s.at)).toEqual([0, LATENCY]);
    expect(of('alone').map((s) => s.at)).toEqual([2 * LATENCY, 3 * LATENCY, 4 * LATENCY]);
    expect(of('b').map((s) => s.at)).toEqual([5 * LATENCY]);
    expect(of('later').map((s) => s.at)).toEqual([6 * LATENCY]);
    const during = seen.filter((s) => s.title !== 'alone' && s.back > 2 * LATENCY && s.at < 5 * LATENCY);
    expect(during).toEqual([]);
  });

  test('Each test reports its own findings and requests, and its exchanges go to its own page of the HAR.', async () => {
    const { clock, session, lines } = setup();
    const tests = [sequential('a', 2), sequential('b', 3), sequential('c', 1)];
    const outcomes = await clock.run(() => Promise.all(schedule(session, plan(...tests))));
    expect(outcomes.map((o) => o.requests)).toEqual([2, 3, 1]);
    for (const [i, t] of ['a', 'b', 'c'].entries()) {
      const mine = outcomes[i].findings.filter((f) => f.source.startsWith('spec:')).map((f) => f.message);
      expect(mine).toEqual(Array.from({ length: [2, 3, 1][i] }, (_, k) => `${t} #${k}`));
    }
    const pages = new Map(lines.flatMap((l) => (l.kind === 'page' ? [[l.page.id, l.page.title] as const] : [])));
    const entries = lines.flatMap((l) => (l.kind === 'entry' ? [l.entry] : []));
    for (const t of ['a', 'b', 'c']) {
      const onPage = entries.filter((e) => pages.get(e.pageref ?? '')?.endsWith(`: ${t}`));
      expect(onPage.length).toBe({ a: 2, b: 3, c: 1 }[t]);
      expect(onPage.every((e) => e.request.headers.some((h) => h.name === 'x-test' && h.value === t))).toBe(true);
    }
  });

  test('Never more than the flight cap in flight, however many tests are ready; one at a time until a latency is known.', async () => {
    const { clock, session } = setup();
    const seen = departures(session, clock);
    const tests = Array.from({ length: 40 }, (_, i) => sequential(`t${i}`, 1));
    await clock.run(() => Promise.all(schedule(session, plan(...tests))));
    const rounds = new Map<number, number>();
    for (const s of seen) rounds.set(s.at, (rounds.get(s.at) ?? 0) + 1);
    expect([...rounds.values()]).toEqual([1, 16, 16, 7]);
    expect(session.client.flight.widest).toBe(16);
  });
});
