/**
 * A kept-alive connection the server closes as the next request is written on it (RFC 9112 §9.5) is no fault of
 * the server: the transport sends a request with a safe method again, as Go's net/http (k6's transport) does —
 * and only then. Each server below answers some requests on a connection and resets the connection on another,
 * before or after the first bytes of its response; the server counts what reached it, so a retry that should not
 * happen shows. The race itself needs a busy machine (an event loop stalled past both keep-alive timers); here the
 * server closes the connection on purpose, the same bytes on the wire.
 */
import { spawn } from 'node:child_process';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, test } from 'vitest';
import { send, type OutgoingRequest } from '../../src/http/transport.ts';
import { closeServersAfterEach, serveHost } from '../support/serve.ts';

closeServersAfterEach();

const opts = { timeoutMs: 10_000, maxBodyBytes: 4096 };

interface Row {
  title: string;
  /** Which request of a connection (1: its first) the server resets, and how far it answers it first. */
  resetAt: number;
  partial: boolean;
  method: OutgoingRequest['method'];
  /** Requests the server sees from the two sends, and what the second send gets. */
  seen: number;
  outcome: 'ok' | 'reset';
}

const ROWS: Row[] = [
  {
    title: 'A GET whose kept-alive connection is reset before any byte of its response is sent again on a new connection.',
    resetAt: 2,
    partial: false,
    method: 'GET',
    seen: 3,
    outcome: 'ok',
  },
  {
    title: 'A POST on a reset kept-alive connection is not sent again: it may have changed state.',
    resetAt: 2,
    partial: false,
    method: 'POST',
    seen: 2,
    outcome: 'reset',
  },
  {
    title: 'A GET whose connection is reset after the first bytes of its response is not sent again: the server answered it.',
    resetAt: 2,
    partial: true,
    method: 'GET',
    seen: 2,
    outcome: 'reset',
  },
  {
    title: 'A GET whose fresh connection is reset is not sent again: a server that resets new connections is reported.',
    resetAt: 1,
    partial: false,
    method: 'GET',
    seen: 2,
    outcome: 'reset',
  },
];

/** A server that resets the `resetAt`-th request of each connection (after part of a status line when `partial`). */
function resetting(row: Row, seen: IncomingMessage[]) {
  const perSocket = new WeakMap<object, number>();
  return (req: IncomingMessage, res: ServerResponse) => {
    seen.push(req);
    const n = (perSocket.get(req.socket) ?? 0) + 1;
    perSocket.set(req.socket, n);
    req.resume();
    req.on('end', () => {
      if (n !== row.resetAt) return void res.end('[]');
      if (row.partial) req.socket.write('HTTP/1.1 200 OK\r\nContent-Le', () => req.socket.resetAndDestroy());
      else req.socket.resetAndDestroy();
    });
  };
}

describe('a kept-alive connection closed by the server', () => {
  test.each(ROWS)('$title', async (row) => {
    const seen: IncomingMessage[] = [];
    const url = `http://${await serveHost(resetting(row, seen))}/v1/pets`;
    const req = { method: row.method, url, body: row.method === 'POST' ? '{}' : undefined };
    const first = await send(req, opts);
    // The next turn of the event loop: undici has put the first connection back in its pool, idle (a request sent
    // at once, while it still counts as busy, would go on a new connection).
    await new Promise((r) => setTimeout(r, 10));
    const second = await send(req, opts);
    if (row.resetAt === 1) expect(first.error?.kind).toBe('reset');
    else expect(first.response?.status).toBe(200);
    expect(seen.length).toBe(row.seen);
    if (row.outcome === 'ok') {
      expect(second.error).toBeUndefined();
      expect(second.response?.status).toBe(200);
      // The retry went on a new connection, not the one the server reset.
      expect(seen[2].socket).not.toBe(seen[1].socket);
    } else expect(second.error?.kind).toBe('reset');
  });
});

/**
 * A server in a process of its own that closes a connection 100 ms after it answered on it, with no Keep-Alive hint
 * (the client keeps an idle connection 4 s: as a server whose keep-alive timeout is shorter than the client thinks), and
 * says how many requests reached it. Raw HTTP/1.1 on node:net: each request is a head and at most a small body.
 */
async function closingServer(): Promise<{ url: string; seen: () => Promise<number>; stop: () => void }> {
  const code = `const net = require('node:net'); let n = 0;
    const s = net.createServer((c) => c.on('data', (d) => {
      if (!/^[A-Z]+ \\//.test(String(d))) return; // a body's bytes
      const seen = String(d).startsWith('GET /seen');
      if (!seen) n++;
      const body = seen ? String(n) : '{}';
      c.write('HTTP/1.1 200 OK\\r\\ncontent-type: application/json\\r\\ncontent-length: ' + body.length + '\\r\\n\\r\\n' + body);
      setTimeout(() => c.end(), 100);
    }));
    s.listen(0, '127.0.0.1', () => console.log(s.address().port));`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((ok) => child.stdout.once('data', (d) => ok(String(d).trim())));
  const url = `http://127.0.0.1:${port}`;
  const seen = async () => Number((await send({ method: 'GET', url: `${url}/seen` }, opts)).response?.bodyText);
  return { url, seen, stop: () => child.kill() };
}

test('A POST after this client was off the CPU longer than the server keeps an idle connection goes on a new connection, not on the closed one.', async () => {
  const server = await closingServer();
  try {
    expect((await send({ method: 'GET', url: `${server.url}/pets` }, opts)).response?.status).toBe(200);
    // The client off the CPU 1.5 s (its event loop blocked): the server closes the idle connection meanwhile, and its FIN
    // waits unread in the socket when the POST is sent.
    const end = Date.now() + 1500;
    while (Date.now() < end);
    const ex = await send({ method: 'POST', url: `${server.url}/pets`, body: '{"name":"a"}' }, opts);
    expect(ex.error).toBeUndefined();
    expect(ex.response?.status).toBe(200);
    expect(await server.seen()).toBe(2);
  } finally {
    server.stop();
  }
});
