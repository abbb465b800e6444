/**
 * A server may answer a request with content without reading all of it — a 413, a 401 or a 429 decided before the
 * body — and then close the connection (RFC 9110 §15.5.14; the JDK's HttpServer drains at most 64 KiB of an unread
 * body and closes, without `Connection: close`). A client that still holds the connection open writes its next request
 * on it and meets the reset, unread: that request — a POST too — is sent again on a new connection, since the server
 * had told the client it may close that connection (stale-connection.ts). The JDK closes a moment after its answer, a
 * race a busy machine loses once in many runs; the server here closes when the next request arrives, the same bytes
 * on the wire every time. The server counts the requests that reached it, so a re-sent request shows.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, test } from 'vitest';
import { send, type OutgoingRequest } from '../../src/http/transport.ts';
import { closeServersAfterEach, serveHost } from '../support/serve.ts';

closeServersAfterEach();

const opts = { timeoutMs: 10_000, maxBodyBytes: 4096 };

interface Row {
  title: string;
  /** The first request of the connection: its method, body and the status it gets. */
  first: { method: OutgoingRequest['method']; body?: string; status: number };
  /** The second one, which the server resets unread. */
  method: OutgoingRequest['method'];
  /** Requests that reach the server from the two sends, and what the second send gets. */
  seen: number;
  outcome: 'ok' | 'reset';
}

const ROWS: Row[] = [
  {
    title: 'A POST written on the connection of a 413 the server closes is sent again on a new connection.',
    first: { method: 'POST', body: '{"padding":"…"}', status: 413 },
    method: 'POST',
    seen: 3,
    outcome: 'ok',
  },
  {
    title: 'A POST written on the connection of a 401 to a request with content, which the server closes, is sent again.',
    first: { method: 'POST', body: '{}', status: 401 },
    method: 'POST',
    seen: 3,
    outcome: 'ok',
  },
  {
    title: 'A POST on a connection closed after a 201 is not sent again: the server gave no reason to close it.',
    first: { method: 'POST', body: '{}', status: 201 },
    method: 'POST',
    seen: 2,
    outcome: 'reset',
  },
  {
    title: 'A POST on a connection closed after a 404 to a GET is not sent again: no content was left unread.',
    first: { method: 'GET', status: 404 },
    method: 'POST',
    seen: 2,
    outcome: 'reset',
  },
];

/** Answers the first request of each connection with `status`, unread; resets the connection on the second, unread. */
function closingAfterAnswer(row: Row, seen: IncomingMessage[]) {
  const perSocket = new WeakMap<object, number>();
  return (req: IncomingMessage, res: ServerResponse) => {
    seen.push(req);
    const n = (perSocket.get(req.socket) ?? 0) + 1;
    perSocket.set(req.socket, n);
    if (n === 2) return void req.socket.resetAndDestroy();
    // The first request of a connection: answered as the row says, before its body is read (then read, so that the
    // connection stays open for the next one, as the JDK's does until it closes it).
    res.writeHead(row.first.status, { 'content-type': 'application/json', 'content-length': '2' }).end('{}');
    req.resume();
  };
}

describe('a connection the server closes after refusing a request with content', () => {
  test.each(ROWS)('$title', async (row) => {
    const seen: IncomingMessage[] = [];
    const url = `http://${await serveHost(closingAfterAnswer(row, seen))}/v1/pets`;
    const first = await send({ method: row.first.method, url, body: row.first.body }, opts);
    expect(first.response?.status).toBe(row.first.status);
    // The next turn of the event loop: undici has put the connection back in its pool, idle.
    await new Promise((r) => setTimeout(r, 10));
    const second = await send({ method: row.method, url, body: '{"name":"n","categoryId":1}' }, opts);
    expect(seen.length).toBe(row.seen);
    if (row.outcome === 'reset') return void expect(second.error?.kind).toBe('reset');
    expect(second.error).toBeUndefined();
    expect(second.response?.status).toBe(row.first.status);
    // Sent again on a new connection, not the one the server closed.
    expect(seen[2].socket).not.toBe(seen[1].socket);
  });
});
