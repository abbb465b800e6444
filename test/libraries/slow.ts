/**
 * A slow network in front of a library server: each request waits up to 60 ms
 * before it is passed on (so requests sent together reach the limiter in
 * another order), and its response 150 to 210 ms more (so responses overtake
 * one another). At the test's 20 requests a 3 s window, the ceiling then keeps
 * three requests in flight: the rate-limit scenarios meet each library's
 * limiter with many requests in flight, counted and answered out of order.
 * Headers and bodies pass through untouched; the draws are seeded.
 *
 * Each request goes to the server on a connection of its own, as a reverse proxy does by default (nginx speaks
 * HTTP/1.0 to its upstreams, without keep-alive). A pool of kept-alive connections without an idle timeout of
 * its own (Node's Agent ignores the server's Keep-Alive hint unless given a `timeout`) writes, on a loaded
 * machine, a request on the connection the server is retiring at that moment (Node's: 5 s idle, plus 1 s) —
 * an ECONNRESET, answered 502 without any rate-limit header, that no server under test caused.
 */
import { once } from 'node:events';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LibraryServer } from './servers/types.ts';

export async function slowFront(target: LibraryServer, seed = 7): Promise<LibraryServer> {
  const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
  const origin = new URL(target.url);
  const agent = new Agent({ keepAlive: false, maxSockets: 64 });
  const server = createServer((req, res) => {
    const before = Math.round(60 * random());
    const after = 150 + Math.round(60 * random());
    setTimeout(() => {
      const up = request(
        { host: origin.hostname, port: origin.port, path: req.url, method: req.method, headers: req.headers, agent },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on('data', (c: Buffer) => chunks.push(c));
          answer.on('end', () =>
            setTimeout(() => {
              res.writeHead(answer.statusCode ?? 502, answer.headers);
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
