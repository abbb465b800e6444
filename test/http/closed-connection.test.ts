/**
 * How the transport reads a failure on a connection the server closed (stale-connection.ts), from what undici publishes
 * on its diagnostics channels: the request as it is written on its socket, its answer's status, the error its caller
 * gets. Each row publishes the messages undici publishes for one sequence and asks whether the failed request may be
 * sent again. Then the transport itself: a request whose write met the server's close (the race of uvicorn answering a
 * chunked POST with `Connection: close` on its header fields, which a busy machine loses about once in ten) is sent
 * again after a pause until it gets through, at most three times.
 */
import { channel } from 'node:diagnostics_channel';
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { closedConnection, mayResend, type ClosedConnection } from '../../src/http/stale-connection.ts';

const sendHeaders = channel('undici:client:sendHeaders');
const headers = channel('undici:request:headers');
const requestError = channel('undici:request:error');

interface Row {
  title: string;
  /** The connection's earlier exchange, if any: its request had content, and the status it got. */
  earlier?: { body: boolean; status: number };
  /** The error of the failed request, and whether a byte of its response had come before it. */
  error: { code: string; syscall: string };
  bytesBefore?: boolean;
  method: string;
  closed: ClosedConnection | undefined;
  resend: boolean;
}

const EPIPE = { code: 'EPIPE', syscall: 'write' };
const WRITE_RESET = { code: 'ECONNRESET', syscall: 'write' };
const READ_RESET = { code: 'ECONNRESET', syscall: 'read' };

const ROWS: Row[] = [
  {
    title: 'A POST whose write met the close (EPIPE) never reached the server whole: sent again.',
    error: EPIPE,
    method: 'POST',
    closed: 'never-whole',
    resend: true,
  },
  {
    title: 'A POST whose write was reset never reached the server whole: sent again.',
    error: WRITE_RESET,
    method: 'POST',
    closed: 'never-whole',
    resend: true,
  },
  {
    title: 'A POST reset as it was read on a fresh connection is not sent again: the server may have served it.',
    error: READ_RESET,
    method: 'POST',
    closed: undefined,
    resend: false,
  },
  {
    title: 'A POST reset unread on a connection whose 413 refused content is sent again.',
    earlier: { body: true, status: 413 },
    error: READ_RESET,
    method: 'POST',
    closed: 'stale-after-refused-body',
    resend: true,
  },
  {
    title: 'A POST reset unread on a connection whose 201 took content is not sent again.',
    earlier: { body: true, status: 201 },
    error: READ_RESET,
    method: 'POST',
    closed: 'stale',
    resend: false,
  },
  {
    title: 'A GET reset unread on a reused connection is sent again (Go’s rule).',
    earlier: { body: false, status: 200 },
    error: READ_RESET,
    method: 'GET',
    closed: 'stale',
    resend: true,
  },
  {
    title: 'A POST reset after a byte of its response on a connection whose 413 refused content is not sent again.',
    earlier: { body: true, status: 413 },
    error: READ_RESET,
    bytesBefore: true,
    method: 'POST',
    closed: undefined,
    resend: false,
  },
];

describe('a failure on a connection the server closed', () => {
  test.each(ROWS)('$title', (row) => {
    const socket = { bytesRead: 0 };
    if (row.earlier) {
      const earlier = { method: 'POST', body: row.earlier.body ? '{}' : null };
      sendHeaders.publish({ request: earlier, socket });
      socket.bytesRead += 100;
      headers.publish({ request: earlier, response: { statusCode: row.earlier.status } });
    }
    const request = { method: row.method, body: '{}' };
    sendHeaders.publish({ request, socket });
    if (row.bytesBefore) socket.bytesRead += 10;
    const error = Object.assign(new Error(`${row.error.syscall} ${row.error.code}`), row.error);
    requestError.publish({ request, error });
    expect(closedConnection(error)).toBe(row.closed);
    expect(mayResend(error, row.method)).toBe(row.resend);
  });
});

// The transport, with undici's request replaced by one that fails as a write meeting the server's close would (the
// test workers share one module graph: the transport is imported afresh with the replacement, and dropped after).
const undici = { failures: 0, attempts: 0 };

async function fakeUndici() {
  const real = await vi.importActual<typeof import('undici')>('undici');
  const { Readable } = await import('node:stream');
  return {
    ...real,
    request: () => {
      undici.attempts++;
      if (undici.attempts > undici.failures)
        return Promise.resolve({
          statusCode: 401,
          headers: { 'content-type': 'application/json' },
          body: Readable.from([Buffer.from('{}')]),
        });
      const request = { method: 'POST', body: '{}' };
      sendHeaders.publish({ request, socket: { bytesRead: 0 } });
      const error = Object.assign(new Error('write EPIPE'), EPIPE);
      requestError.publish({ request, error });
      return Promise.reject(error);
    },
  };
}

describe('the transport', () => {
  let send: typeof import('../../src/http/transport.ts').send;
  beforeAll(async () => {
    vi.resetModules();
    vi.doMock('undici', fakeUndici);
    ({ send } = await import('../../src/http/transport.ts'));
  });
  afterAll(() => {
    vi.doUnmock('undici');
    vi.resetModules();
  });
  beforeEach(() => Object.assign(undici, { failures: 0, attempts: 0 }));

  test('A POST whose writes met the server’s close twice is sent a third time and gets its answer.', async () => {
    undici.failures = 2;
    const ex = await send(
      { method: 'POST', url: 'http://127.0.0.1:9/v1/pets', body: '{}', chunks: [1] },
      { timeoutMs: 10_000, maxBodyBytes: 100 },
    );
    expect(ex.response?.status).toBe(401);
    expect(undici.attempts).toBe(3);
  });

  test('A POST whose every write meets the close is reported after four attempts, as a reset.', async () => {
    undici.failures = 10;
    const ex = await send({ method: 'POST', url: 'http://127.0.0.1:9/v1/pets', body: '{}' }, { timeoutMs: 10_000, maxBodyBytes: 100 });
    expect(ex.error?.kind).toBe('reset');
    expect(undici.attempts).toBe(4);
  });
});
