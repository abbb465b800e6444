/**
 * `npm run bench`: every benchmark of the suite, one table.
 * - first-command: `npm start` with no configuration — wall time (goal about a
 *   minute), verdict (goal CERTIFIED) and the size of its certification.json;
 *   first-command-busy: the same BENCH_RUNS (5) times beside BENCH_BUSY (8)
 *   CPU-bound processes (goal: every run CERTIFIED in under 90 s); certify-busy:
 *   the certify test's recovery-only run BENCH_RUNS (5) times beside them (goal: never exit 1, a false failure) —
 *   both only with --only, as they load the machine on purpose;
 * - conformance: wall time and request count of a full run against the embedded
 *   reference server (goal under 10 s, Vitest start-up included);
 * - slow-server: the same run against a correct server answering in 1.5 s, unlimited rate — wall time (goal under
 *   90 s, issue 37) and the requests in flight on average and at most (from its traffic.har);
 * - startup: the CPU time (the whole process tree's) `npm run conformance` spends
 *   before its first spec request reaches a server (goal ≤ 1.5 CPU-s), and
 *   `npm start -- --help`'s (goal ≤ 0.3 CPU-s);
 * - memory: peak RSS against the huge-body server vs the normal one (goal < 1.5×);
 * - load: Node engine rate accuracy at 60 / 300 / 1,000 per minute (goal 1 %),
 *   cost to certify a plan's ceiling (goal Limit + 3 requests, two windows),
 *   maximum request rate next to autocannon's;
 * - load-k6 (with a k6 binary: K6_BIN or PATH): k6 start-up per bundle next to
 *   the Node engine's (goal under 1 s on k6 v1.0 to v2.2), and the two engines'
 *   verdicts on the same ceiling scenario (every requirement agrees);
 * - load-engine-rate: the request rate one Node engine and one k6 instance
 *   sustain here (load/README's "Measured on this machine");
 * - load-plans: four plans side by side vs one (goal at most 1.2× its wall time);
 * - load-merge: distributed shares merged vs one process (goal 100 % agreement);
 * - explore-faults / explore-false-alarms / explore-wall-time: the exploration
 *   phase — each planted fault only generated inputs reach, found in ≥ 95 % of
 *   20 seeds (with the median requests until found), 0 false alarms over every
 *   valid variant and seed, at most 10 s added to npm start; explore-held-out
 *   (the held-out faults, each by the run that could find it: reported) and
 *   explore-held-out-variants (the valid variants held out with them: 0 alarms);
 *   `BENCH_FAULTS=a,b` measures only those faults, `BENCH_VARIANTS=a,b` only the valid variants whose name holds
 *   one (`in-process`: those on simulated time, `wire`: those on real sockets);
 * - explore-request-forms: the faults of the method, the key and the id (issue 39) found by the exploration alone over
 *   20 seeds (goal: every seed), and its alarms on the valid variants of them (goal 0);
 * - explore-stacks: the conformance part and its exploration phase against each example
 *   server of examples/servers/ over 20 seeds — MUST false alarms (goal 0), warnings,
 *   requests and wall time per run; a stack without its directory or toolchain is skipped.
 * Goals are measured here, never asserted by timed tests. `--only <group>` runs
 * one group; `--json` prints one JSON line per result instead of the table. A
 * line that could not be measured here (no k6) is "skipped", with the reason —
 * never a missed goal. Every server is started here, on 127.0.0.1.
 * Exit code 0 always (a benchmark reports; it does not gate), unless one crashed.
 */
import { cpus, loadavg } from 'node:os';
import { fullRun, memory, type BenchLine } from './conformance.ts';
import { benchSlowServer } from './slow-server.ts';
import { benchCertifyBusy, benchFirstCommand, benchFirstCommandBusy } from './first-command.ts';
import { benchLoadCeilingCost } from './load-cost.ts';
import { benchEngineRate } from './load-engine-rate.ts';
import { benchK6 } from './load-k6.ts';
import { benchLoadRateAccuracy } from './load-rate.ts';
import { benchMergeAgreement, benchPlansSideBySide } from './load-plans.ts';
import { benchLoadMaxRate } from './load-throughput.ts';
import { benchFalseAlarms, benchHeldOutVariants, benchPlantedFaults, benchWallTime } from './explore.ts';
import { benchExploreStacks } from './explore-stacks.ts';
import { benchStartup } from './startup.ts';
import { benchRequestForms } from './explore-request-forms.ts';

const GROUPS: Record<string, () => Promise<BenchLine[]>> = {
  'first-command': benchFirstCommand,
  'first-command-busy': benchFirstCommandBusy,
  'certify-busy': benchCertifyBusy,
  conformance: fullRun,
  'slow-server': benchSlowServer,
  startup: benchStartup,
  memory,
  'explore-faults': () => benchPlantedFaults(),
  'explore-generators': () => benchPlantedFaults(undefined, true),
  'explore-held-out': () => benchPlantedFaults(undefined, false, true),
  'explore-held-out-variants': () => benchHeldOutVariants(),
  'explore-false-alarms': () => benchFalseAlarms(),
  'explore-wall-time': () => benchWallTime(),
  'explore-stacks': () => benchExploreStacks(),
  'explore-request-forms': () => benchRequestForms(),
  'load-rate': () => benchLoadRateAccuracy(),
  'load-cost': () => benchLoadCeilingCost(),
  'load-throughput': () => benchLoadMaxRate(),
  'load-k6': () => benchK6(),
  'load-engine-rate': () => benchEngineRate(),
  'load-plans': () => benchPlansSideBySide(),
  'load-merge': () => benchMergeAgreement(),
};

/** Groups that load the machine on purpose (busy processes beside the run): run only when named with --only. */
const ON_REQUEST = new Set(['first-command-busy', 'certify-busy']);

function table(lines: (BenchLine & { group: string })[]): string {
  const rows = [
    ['group', 'benchmark', 'value', 'goal', 'met', 'detail'],
    ...lines.map((l) =>
      l.skipped
        ? [l.group, l.name, '-', l.goal, 'skipped', l.skipped]
        : [l.group, l.name, `${l.value} ${l.unit}`.trim(), l.goal, l.met ? 'yes' : 'NO', l.detail ?? ''],
    ),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const fmt = (r: string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [fmt(rows[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(fmt)].join('\n');
}

/** Where the numbers were measured: a shared machine's load changes them (the load average of 1 minute, before and after). */
function machine(loadAtStart: number): string {
  const c = cpus();
  const load = `${loadAtStart.toFixed(1)} → ${loadavg()[0].toFixed(1)}`;
  return `${new Date().toISOString().slice(0, 10)}, ${c.length} cores (${c[0]?.model.trim() ?? '?'}), Node ${process.version}, load average ${load}`;
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const usage = `Usage: npm run bench -- [--only <group>] [--json]\ngroups: ${Object.keys(GROUPS).join(', ')}`;
  if (args.includes('--help') || args.includes('-h')) {
    console.log(usage);
    return 0;
  }
  const json = args.includes('--json');
  const i = args.indexOf('--only');
  const only = i >= 0 ? args[i + 1] : undefined;
  const unknown = args.filter((a, k) => a !== '--json' && a !== '--only' && !(k === i + 1 && i >= 0));
  if (unknown.length) {
    console.error(`bench: unexpected ${JSON.stringify(unknown[0])}\n${usage}`);
    return 2;
  }
  if (i >= 0 && !(only && only in GROUPS)) {
    console.error(`bench: unknown group ${JSON.stringify(only ?? '')}; groups: ${Object.keys(GROUPS).join(', ')}`);
    return 2;
  }
  const all: (BenchLine & { group: string })[] = [];
  const loadAtStart = loadavg()[0];
  let crashed = false;
  for (const [group, fn] of Object.entries(GROUPS)) {
    if (only ? group !== only : ON_REQUEST.has(group)) continue;
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
    const measured = all.filter((l) => !l.skipped);
    const missed = measured.filter((l) => !l.met);
    const skipped = all.length - measured.length;
    console.log(
      `\n${machine(loadAtStart)}\n${measured.length - missed.length} of ${measured.length} goals met${skipped ? ` (${skipped} skipped)` : ''}${missed.length ? `; missed: ${missed.map((l) => l.name).join('; ')}` : ''}.`,
    );
  }
  return crashed ? 1 : 0;
}

process.exitCode = await main();
