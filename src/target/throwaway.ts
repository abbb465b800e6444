/**
 * A throwaway embedded reference server, started in this process on 127.0.0.1 with an unlimited key: what the run
 * measures this machine's rate against (src/cli/machine-rate.ts) before it starts the embedded server of its world.
 */
export interface Throwaway {
  /** The base URL, version segment included. */
  url: string;
  /** A key no limit refuses. */
  key: string;
  close(): Promise<void>;
}

export async function throwawayServer(): Promise<Throwaway> {
  const [{ buildApp }, { listen }] = await Promise.all([import('../../reference/app.ts'), import('../../reference/server.ts')]);
  const app = buildApp({ enterprise: { perMinute: 1e9, perDay: 1e12 } });
  const server = await listen(app, { host: '127.0.0.1', port: 0 });
  return { url: server.url, key: app.keys.enterprise, close: () => server.close() };
}
