/**
 * A slow network in front of a library server: each request waits up to 60 ms
 * before it is passed on (so requests sent together reach the limiter in
 * another order), and its response 150 to 210 ms more (so responses overtake
 * one another). At the test's 20 requests a 3 s window, the ceiling then keeps
 * three requests in flight: the rate-limit scenarios meet each library's
 * limiter with many requests in flight, counted and answered out of order.
 * Bodies and end-to-end headers pass through untouched; the draws are seeded.
 *
 * A proxy's connections are its own (RFC 9110 §7.6.1): neither side's hop-by-hop headers (Connection,
 * Keep-Alive…) are forwarded — forwarded, Fastify's `Keep-Alive: timeout=72` had the suite's client keep its idle
 * connections to this proxy 70 s, which Node closes after 6. Upstream, each request takes a connection of its own,
 * as a reverse proxy does by default (nginx: HTTP/1.0, no keep-alive) — a pool without an idle timeout of its own
 * (Node's Agent ignores the server's Keep-Alive hint without `timeout`) reused connections the library server was
 * closing. Either way, on a loaded machine, requests written on a connection being closed: ECONNRESET (upstream,
 * a 502 without rate-limit headers) that no server under test caused.
 */
import { once } from 'node:events';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LibraryServer } from './servers/types.ts';

const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade'];

/** The end-to-end headers of a message: without the hop-by-hop ones, nor those its Connection header names. */
function endToEnd<H extends Record<string, string | string[] | undefined>>(headers: H): H {
  const named = String(headers.connection ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase());
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !HOP_BY_HOP.includes(k) && !named.includes(k))) as H;
}

export async function slowFront(target: LibraryServer, seed = 7): Promise<LibraryServer> {
  const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
  const origin = new URL(target.url);
  const agent = new Agent({ keepAlive: false, maxSockets: 64 });
  const server = createServer((req, res) => {
    const before = Math.round(60 * random());
    const after = 150 + Math.round(60 * random());
    setTimeout(() => {
      const up = request(
        { host: origin.hostname, port: origin.port, path: req.url, method: req.method, headers: endToEnd(req.headers), agent },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on('data', (c: Buffer) => chunks.push(c));
          answer.on('end', () =>
            setTimeout(() => {
              res.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers));
              res.end(Buffer.concat(chunks));
            }, after),
          );
        },
      );
      up.on('error', () => (res.writeHead(502), res.end()));
      req.pipe(up);
    }, before);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${origin.pathname}`,
    close: () => new Promise((r) => (agent.destroy(), server.closeAllConnections(), server.close(() => r()))),
  };
}
