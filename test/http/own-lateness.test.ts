/**
 * A request's timeout is the server's only when the server had the whole timeout of the client's attention (issue 37):
 * the time the client itself ran behind its own timers — a busy machine, its process off the CPU — is given back, within
 * LATE_CAP_FACTOR timeouts, and a request still unanswered with less attention than that is not judged
 * (TRANSPORT-COMPLETE-RESPONSE skipped, "client late"), never failed. A server that never answers a client that is not
 * late still fails. The client's lateness is made here by blocking this process's event loop, so the outcome does not
 * depend on the machine's speed: a busier machine only makes the client later.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { atDeadline, LATE_CAP_FACTOR } from '../../src/http/own-lateness.ts';
import { closeTransport, send } from '../../src/http/transport.ts';
import { judgeComplete } from '../../src/core/sections/transport/rules.ts';
import { closeServersAfterEach, serveHost } from '../support/serve.ts';

closeServersAfterEach();
afterAll(() => closeTransport());

const T = 1000;

describe('atDeadline', () => {
  test.each([
    ['a client never late: the server had the whole timeout', { elapsedMs: T, lateMs: 0 }, { over: 'server' }],
    ['a client late 400 ms of it: 400 ms more are given', { elapsedMs: T, lateMs: 400 }, { wait: 400 }],
    ['the lateness given back, the whole timeout of attention spent', { elapsedMs: 1400, lateMs: 400 }, { over: 'server' }],
    ['a client late almost throughout: waits up to the cap', { elapsedMs: 2000, lateMs: 1900 }, { wait: 900 }],
    ['at the cap with less attention than the timeout: the client', { elapsedMs: 3 * T, lateMs: 2500 }, { over: 'client-late' }],
    ['at the cap with the whole timeout of attention: the server', { elapsedMs: 3 * T, lateMs: 2000 }, { over: 'server' }],
    ['a re-arm is never shorter than a timer tick', { elapsedMs: 1995, lateMs: 1000 }, { wait: 10 }],
  ])('%s.', (_what, at, expected) => {
    expect(atDeadline({ ...at, timeoutMs: T })).toEqual(expected);
  });

  test('The cap is a few timeouts: a hang stays bounded whatever the lateness.', () => {
    expect(LATE_CAP_FACTOR).toBeGreaterThanOrEqual(2);
    expect(atDeadline({ elapsedMs: LATE_CAP_FACTOR * T, lateMs: LATE_CAP_FACTOR * T, timeoutMs: T })).toEqual({ over: 'client-late' });
  });
});

describe('judgeComplete', () => {
  test('A timeout on the client account skips TRANSPORT-COMPLETE-RESPONSE with the reason.', () => {
    const j = judgeComplete(
      { kind: 'timeout', message: 'no complete response in 3000 ms, but …', clientLate: { lateMs: 2500, elapsedMs: 3000 } },
      { status: undefined, durationMs: 3000 },
    );
    expect(j).toMatchObject({ outcome: 'skip', title: 'Timeouts while the client ran late' });
    expect(j.message).toContain('not judged');
  });

  test('A timeout on the server account fails TRANSPORT-COMPLETE-RESPONSE.', () => {
    const j = judgeComplete({ kind: 'timeout', message: 'no complete response within 1000 ms' }, { status: undefined, durationMs: 1000 });
    expect(j).toMatchObject({ outcome: 'fail', title: 'Transport failure: timeout' });
  });
});

/** Keep this process's event loop blocked `blockMs` at a time, with a moment between, until stopped. */
function busyLoop(blockMs: number): () => void {
  let on = true;
  const spin = (): void => {
    if (!on) return;
    const end = Date.now() + blockMs;
    while (Date.now() < end);
    setTimeout(spin, 1);
  };
  setTimeout(spin, 1);
  return () => {
    on = false;
  };
}

describe('send', () => {
  const hanging = async () => `http://${await serveHost(() => {})}`;

  test('A server that never answers a client that is not late fails on the server account.', async () => {
    const ex = await send({ method: 'GET', url: await hanging() }, { timeoutMs: T, maxBodyBytes: 4096 });
    expect(ex.error).toMatchObject({ kind: 'timeout' });
    expect(ex.error?.clientLate).toBeUndefined();
    expect(judgeComplete(ex.error, { status: undefined, durationMs: ex.durationMs }).outcome).toBe('fail');
  });

  test('A server that never answers a client blocked almost throughout is not judged: the client was late.', async () => {
    const url = await hanging();
    const stop = busyLoop(400);
    try {
      const ex = await send({ method: 'GET', url }, { timeoutMs: T, maxBodyBytes: 4096 });
      expect(ex.error).toMatchObject({ kind: 'timeout' });
      expect(ex.error?.clientLate?.lateMs).toBeGreaterThan(ex.durationMs - T);
      expect(ex.error?.message).toMatch(/behind its own timers/);
      expect(judgeComplete(ex.error, { status: undefined, durationMs: ex.durationMs }).outcome).toBe('skip');
    } finally {
      stop();
    }
  });

  test('A server that answers while the client is blocked beyond the timeout gets its answer through.', async () => {
    const url = `http://${await serveHost((_q, res) => setTimeout(() => res.end('{}'), 50))}`;
    const pending = send({ method: 'GET', url }, { timeoutMs: T, maxBodyBytes: 4096 });
    const end = Date.now() + 1.5 * T;
    while (Date.now() < end); // the client off its event loop longer than the timeout, the answer waiting in the socket
    const ex = await pending;
    expect(ex.error).toBeUndefined();
    expect(ex.response?.status).toBe(200);
  });
});
