/**
 * The session of a Vitest conformance run: one per worker (the run uses a single
 * non-isolated worker thread, so one per run), built from the configuration the CLI (or
 * the global setup) provided.
 */
import { inject } from 'vitest';
import { Session } from './session.ts';
import { CONTEXT_KEY } from './provided.ts';
import { WAIT_LOG } from '../results/live-reporter.ts';
import { appendLines } from './traffic.ts';

let session: Promise<Session> | undefined;

export function vitestSession(): Promise<Session> {
  // eslint-disable-next-line @typescript-eslint/require-await -- async: a missing configuration rejects the one session promise, kept for every later call
  session ??= (async () => {
    const ctx = inject(CONTEXT_KEY);
    if (!ctx)
      throw new Error('no run configuration was provided to the Vitest worker (run the specs with npm run conformance or npm start)');
    const onWait = (what: string, ms: number) => console.log(`${WAIT_LOG}waiting ${(ms / 1000).toFixed(1)} s for ${what}`);
    return new Session({
      config: ctx.config,
      baseUrl: ctx.config.baseUrl!,
      dayMs: ctx.dayMs,
      windowMs: ctx.windowMs,
      embedded: ctx.embedded,
      deadlineAt: ctx.deadlineAt,
      onWait,
      ...(ctx.trafficFile ? { traffic: { write: appendLines(ctx.trafficFile) } } : {}),
    });
  })();
  return session;
}
