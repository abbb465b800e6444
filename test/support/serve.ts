/**
 * A plain HTTP server on 127.0.0.1 with the handler a test gives, closed after
 * each test of the file that calls `closeServersAfterEach()`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterEach } from 'vitest';

const servers: Server[] = [];

export function closeServersAfterEach(): void {
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => new Promise((r) => (s.closeAllConnections(), s.close(r)))));
  });
}

/** Start a server; its address as host:port. */
export async function serveHost(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const s = createServer(handler);
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return `127.0.0.1:${(s.address() as { port: number }).port}`;
}

/** Close the server started last now (a port that refuses connections afterwards). */
export async function closeLast(): Promise<void> {
  const s = servers.pop();
  if (s) await new Promise<void>((r) => s.close(() => r()));
}
