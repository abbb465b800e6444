/**
 * The session of a Vitest conformance run: one per worker (the run uses a single
 * non-isolated fork, so one per run), built from the environment that
 * `src/cli/conformance.ts` or the global setup prepared.
 */
import { inject } from 'vitest';
import { loadConfig } from '../config/config.ts';
import { Session } from './session.ts';

let session: Promise<Session> | undefined;

export function vitestSession(): Promise<Session> {
  session ??= (async () => {
    const target = inject('animalStoreTarget' as never) as { baseUrl: string; apiKey?: string } | undefined;
    const env = { ...process.env };
    if (target?.baseUrl) env.ANIMAL_STORE_BASE_URL = target.baseUrl;
    if (target?.apiKey) env.ANIMAL_STORE_API_KEY = target.apiKey;
    const config = loadConfig({}, env);
    return new Session({ config, baseUrl: config.baseUrl! });
  })();
  return session;
}
