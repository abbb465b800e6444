/**
 * Test support: the reference server behind a recorder of every request it
 * receives (method and path), to prove what a run did or did not send.
 */
import { createServer } from 'node:http';
import { buildApp } from '../../reference/app.ts';
import type { AppOptions } from '../../reference/options.ts';

export interface Recorded {
  baseUrl: string;
  keys: Record<string, string>;
  requests: { method: string; url: string }[];
  close(): Promise<void>;
}

export async function recordingReference(options: AppOptions = {}): Promise<Recorded> {
  const app = buildApp(options);
  const requests: Recorded['requests'] = [];
  // An idle connection kept a minute, as the reference server keeps one (reference/server.ts: with Node's 5 s, a client
  // reading answers seconds late on a loaded machine reused connections already closed, and a createPet was reset).
  const server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '' });
    app.handler(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    keys: app.keys,
    requests,
    close: () => new Promise((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}
