/**
 * Vitest global setup of `npm test`: the commands' JavaScript build (bin/build.mjs) made once, before the tests start
 * commands as processes — three workers' first processes would otherwise find it missing together.
 */
import { ensureBuilt } from '../../bin/build.mjs';

export async function setup(): Promise<void> {
  await ensureBuilt();
}
