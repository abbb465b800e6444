/**
 * `npm run bench`: every benchmark of the suite, one table.
 * - conformance: wall time and request count of a full run against the embedded
 *   reference server (goal under 10 s, Vitest start-up included);
 * - memory: peak RSS against the huge-body server vs the normal one (goal < 1.5×);
 * - load: Node engine rate accuracy at 60 / 300 / 1,000 per minute (goal 1 %),
 *   cost to certify a plan's ceiling (goal Limit + 3 requests, two windows),
 *   maximum request rate next to autocannon's.
 * Goals are measured here, never asserted by timed tests. `--only <group>` runs
 * one group; `--json` prints one JSON line per result instead of the table.
 * Exit code 0 always (a benchmark reports; it does not gate), unless one crashed.
 */
import { fullRun, memory, type BenchLine } from './conformance.ts';
import { benchLoadCeilingCost } from './load-cost.ts';
import { benchLoadRateAccuracy } from './load-rate.ts';
import { benchLoadMaxRate } from './load-throughput.ts';

const GROUPS: Record<string, () => Promise<BenchLine[]>> = {
  conformance: fullRun,
  memory,
  'load-rate': () => benchLoadRateAccuracy(),
  'load-cost': () => benchLoadCeilingCost(),
  'load-throughput': () => benchLoadMaxRate(),
};

function table(lines: (BenchLine & { group: string })[]): string {
  const rows = [
    ['group', 'benchmark', 'value', 'goal', 'met', 'detail'],
    ...lines.map((l) => [l.group, l.name, `${l.value} ${l.unit}`, l.goal, l.met ? 'yes' : 'NO', l.detail ?? '']),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const fmt = (r: string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [fmt(rows[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(fmt)].join('\n');
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const json = args.includes('--json');
  const i = args.indexOf('--only');
  const only = i >= 0 ? args[i + 1] : undefined;
  if (only !== undefined && !(only in GROUPS)) {
    console.error(`bench: unknown group ${JSON.stringify(only)}; groups: ${Object.keys(GROUPS).join(', ')}`);
    return 2;
  }
  const all: (BenchLine & { group: string })[] = [];
  let crashed = false;
  for (const [group, fn] of Object.entries(GROUPS)) {
    if (only && group !== only) continue;
    process.stderr.write(`bench: ${group}…\n`);
    try {
      for (const l of await fn()) {
        all.push({ group, ...l });
        if (json) console.log(JSON.stringify({ group, ...l }));
      }
    } catch (e) {
      crashed = true;
      const line = {
        group,
        name: `${group} crashed`,
        value: 0,
        unit: '',
        goal: '',
        met: false,
        detail: e instanceof Error ? e.message : String(e),
      };
      all.push(line);
      if (json) console.log(JSON.stringify(line));
    }
  }
  if (!json) {
    console.log(table(all));
    const missed = all.filter((l) => !l.met);
    console.log(
      `\n${all.length - missed.length} of ${all.length} goals met${missed.length ? `; missed: ${missed.map((l) => l.name).join('; ')}` : ''}.`,
    );
  }
  return crashed ? 1 : 0;
}

process.exitCode = await main();
