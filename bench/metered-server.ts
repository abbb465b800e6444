/**
 * Benchmark helper (child process): the metered embedded reference server of
 * the flags in argv[2] (JSON), on 127.0.0.1. Prints one JSON line with its
 * address, key and limits; then answers each `stats` line on stdin with the
 * meter's counts (and resets them). Exits when stdin closes.
 */
import { createInterface } from 'node:readline';
import type { Flags } from '../src/settings/read-config.ts';
import { meteredTarget, type ChildInfo } from './load-common.ts';

const { target, meter } = await meteredTarget(JSON.parse(process.argv[2] || '{}') as Flags);
const c = target.config;
const info: ChildInfo = {
  url: c.baseUrl as string,
  key: c.apiKey as string,
  plan: c.plan as string,
  rpm: c.plan === 'enterprise' ? c.limits?.perMinute : undefined,
  rpd: c.plan === 'enterprise' ? c.limits?.perDay : undefined,
  windowMs: target.windowMs,
  dayMs: target.dayMs,
};
process.stdout.write(`${JSON.stringify(info)}\n`);
const input = createInterface({ input: process.stdin });
input.on('line', (line) => {
  if (line.trim() !== 'stats') return;
  process.stdout.write(`${JSON.stringify(meter.stats())}\n`);
  meter.reset();
});
input.on('close', () => void target.close().then(() => process.exit(0)));
