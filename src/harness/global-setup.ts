/**
 * Vitest global setup of a conformance run: when no base URL is configured
 * (ANIMAL_STORE_ENV=local), start the embedded reference server and hand its
 * address and demo key to the workers.
 */
import type { TestProject } from 'vitest/node';
import { loadConfig, loadDotenvOnce } from '../config/config.ts';
import { startEmbedded, type Embedded } from './embedded.ts';

let embedded: Embedded | undefined;

export async function setup(project: TestProject) {
  loadDotenvOnce();
  const config = loadConfig();
  if (config.baseUrl) return;
  embedded = await startEmbedded(
    config.plan,
    config.limits.plan === 'enterprise' && config.limits.perMinute
      ? { enterprise: { perMinute: config.limits.perMinute, perDay: config.limits.perDay ?? config.limits.perMinute * 1000 } }
      : {},
  );
  project.provide('animalStoreTarget' as never, { baseUrl: embedded.baseUrl, apiKey: embedded.apiKey } as never);
}

export async function teardown() {
  await embedded?.close();
}
