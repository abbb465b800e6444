/** Serving an App over HTTP (the only I/O of the reference server). */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App } from './app.ts';
import { BASE_PATH } from './router.ts';

export interface Listening {
  /** Base URL including the version segment, e.g. http://127.0.0.1:4010/v1. */
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function listen(app: App, opts: { host?: string; port?: number } = {}): Promise<Listening> {
  const host = opts.host ?? '127.0.0.1';
  const server = http.createServer({ keepAliveTimeout: 5_000 }, app.handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${port}${BASE_PATH}`,
    port,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      })),
  };
}
