/**
 * The embedded reference server: started on 127.0.0.1 (ephemeral port) when no
 * base URL is configured, with the demo key of the configured plan.
 */
import { buildApp } from '../../reference/app.ts';
import { listen } from '../../reference/server.ts';
import { DEMO_KEYS } from '../../reference/keys.ts';
import type { AppOptions } from '../../reference/options.ts';
import type { PlanName } from '../core/plans.ts';

export interface Embedded {
  baseUrl: string;
  apiKey: string;
  close(): Promise<void>;
}

export async function startEmbedded(plan: PlanName, options: AppOptions = {}): Promise<Embedded> {
  const app = buildApp(options);
  const server = await listen(app, { host: '127.0.0.1', port: 0 });
  return { baseUrl: server.url, apiKey: DEMO_KEYS[plan], close: () => server.close() };
}
