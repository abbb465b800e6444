/**
 * A client that runs late is never a server that fails (issue 37): `npm start` beside eight CPU-bound processes
 * failed the reference server's TRANSPORT-COMPLETE-RESPONSE — dozens of the recovery scenario's ceiling requests "got
 * no complete response within 10000 ms". The embedded server runs in the client's process: starved of the CPU, it
 * answered the requests of a burst one at a time, one per turn of an event loop that ran 200–900 ms late, and the
 * last of the burst met the timeout. On simulated time: the same in-process server answering one request at a time,
 * on a clock whose client (and so whose server) is off the CPU most of the time — the timeouts are the client's
 * lateness, not judged and said so; on a clock that is never late, the very same timeouts are the server's, and fail.
 */
import { describe, expect, it } from 'vitest';
import { NodeEngine } from '../../load/node/engine.ts';
import { Lateness, STALL_MS, TICK_MS } from '../../load/node/lateness.ts';
import type { Send } from '../../load/node/driver.ts';
import type { App } from '../../reference/app.ts';
import type { Exchange } from '../../src/http/transport.ts';
import { BusyClock, VirtualClock, virtualSend, type Busy } from '../support/virtual.ts';
import { job, T0, virtualApp } from './helpers.ts';

const WINDOW_MS = 5000;
const LIMIT = 300;
const TIMEOUT_MS = 10_000;

/**
 * The embedded server in the client's process: one request answered at a time, each taking `serviceMs` of the clock —
 * a burst queues — and the transport's timeout on each (a request answered later than it is a timeout).
 */
function inProcessServer(app: App, clock: VirtualClock, serviceMs: number): Send {
  const answer = virtualSend(app, clock, 0);
  let freeAt = 0;
  return (req) =>
    new Promise<Exchange>((resolve) => {
      const startedAt = clock.now();
      const at = Math.max(freeAt, startedAt) + serviceMs;
      const timedOut = at - startedAt > TIMEOUT_MS;
      if (!timedOut) freeAt = at;
      clock.at(timedOut ? TIMEOUT_MS : at - startedAt, () => {
        if (!timedOut) return void answer(req).then(resolve);
        const error = { kind: 'timeout' as const, message: `no complete response within ${TIMEOUT_MS} ms` };
        resolve({ request: req, error, startedAt, durationMs: clock.now() - startedAt });
      });
    });
}

async function ceiling(busy?: Busy) {
  const clock = busy ? new BusyClock(T0, busy) : new VirtualClock(T0);
  const app = virtualApp({ windowMs: WINDOW_MS, enterprise: { perMinute: LIMIT, perDay: 100_000 } }, clock);
  const engine = new NodeEngine({ send: inProcessServer(app, clock, 200), clock }, () => undefined);
  const j = job('ceiling', { windowMs: WINDOW_MS, perMinute: LIMIT, timeoutMs: TIMEOUT_MS, deadlineAt: T0 + 600_000 });
  const { report } = await clock.run(() => engine.run(j));
  const of = (id: string) => report.judgements.filter((x) => x.requirement === id);
  return Object.assign(of('TRANSPORT-COMPLETE-RESPONSE'), { ceiling: of('RL-CEILING-429') });
}

describe('TRANSPORT-COMPLETE-RESPONSE on a client that runs late', () => {
  it('Timeouts met while the client was off the CPU most of the time are not judged, and the report says why.', async () => {
    const judged = await ceiling({ everyMs: 1000, stallMs: 800, cpuMs: 1 });
    const [j, ...more] = judged;
    expect(more).toEqual([]);
    expect([j.outcome, j.title]).toEqual(['skip', 'Timeouts while the client ran late']);
    expect(j.message).toMatch(/^\d+ of \d+ requests got no complete response before the timeout, while this client itself ran behind/);
    expect(j.remedy).toMatch(/--timeout-ms/);
    // The limit was not reached within a window: the skip says the latency was largely the client's own lateness.
    expect(judged.ceiling.map((c) => [c.outcome, c.title])).toEqual([['skip', 'Limit not reached at this latency']]);
    expect(judged.ceiling[0].message).toMatch(/this client itself ran late for .* so the latency is largely this machine's$/);
  });

  it('The same timeouts from a client that was never late are the server’s: they fail.', async () => {
    const judged = await ceiling();
    const [j, ...more] = judged;
    expect(more).toEqual([]);
    expect(j.outcome).toBe('fail');
    expect(judged.ceiling[0].message).not.toMatch(/ran late/);
    expect(j.message).toMatch(
      /^\d+ of \d+ requests got no complete response; first: request #\d+: timeout: no complete response within 10000 ms$/,
    );
  });
});

describe('the lateness of a client', () => {
  it.each([
    ['never late', undefined, 0, 0],
    ['off the CPU 800 ms of every 1 s', { everyMs: 1000, stallMs: 800, cpuMs: 0 }, 7000, 8100],
    ['off the CPU 15 ms of every 100 ms (timer jitter, not a stall)', { everyMs: 100, stallMs: 15, cpuMs: 0 }, 0, 0],
  ] as const)('A client %s over 10 s is late by that much, within a tick.', async (_name, busy, min, max) => {
    const clock = busy ? new BusyClock(T0, busy) : new VirtualClock(T0);
    const late = await clock.run(async () => {
      const l = new Lateness(clock);
      l.hold(); // a request out for 10 s
      await clock.wait(10_000).done;
      l.release();
      return l.within(T0, T0 + 10_000);
    });
    expect(late).toBeGreaterThanOrEqual(min);
    expect(late).toBeLessThanOrEqual(max);
    expect(STALL_MS).toBeLessThan(TICK_MS);
  });
});
