/**
 * `npm run reference`: the reference server on 127.0.0.1:4010 (HOST / PORT),
 * with fault modes from ANIMAL_STORE_FAULT (comma list) and the enterprise
 * limits from ANIMAL_STORE_RPM / ANIMAL_STORE_RPD.
 */
import { PLAN_NAMES } from '../src/core/plans.ts';
import { buildApp } from './app.ts';
import { parseFaults } from './faults.ts';
import { DEFAULT_ENTERPRISE } from './keys.ts';
import { listen } from './server.ts';

function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new Error(`${name} must be a positive integer, got ${JSON.stringify(raw)}`);
  return Number(raw);
}

async function main(): Promise<void> {
  const faults = parseFaults(process.env.ANIMAL_STORE_FAULT);
  const enterprise = {
    perMinute: positiveInt('ANIMAL_STORE_RPM', DEFAULT_ENTERPRISE.perMinute),
    perDay: positiveInt('ANIMAL_STORE_RPD', DEFAULT_ENTERPRISE.perDay),
  };
  const app = buildApp({ faults, enterprise });
  const server = await listen(app, { host: process.env.HOST ?? '127.0.0.1', port: positiveInt('PORT', 4010) });
  console.log(`Animal Store reference server listening on ${server.url}`);
  if (faults.length) console.log(`Fault modes: ${faults.join(', ')}`);
  for (const plan of PLAN_NAMES) console.log(`  ${plan.padEnd(10)} ${app.keys[plan]}`);
  const stop = (signal: string) => {
    console.log(`${signal}: stopping`);
    void server.close().then(() => process.exit(0));
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

main().catch((e: unknown) => {
  console.error((e as Error).message);
  process.exit(1);
});
