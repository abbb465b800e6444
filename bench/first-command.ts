/**
 * The README's first command: `npm start` with no configuration — the embedded
 * reference server in its short world, every scenario, the daily quota
 * included. Its wall time (goal: about a minute, here 60 s), its verdict (goal:
 * CERTIFIED) and the size of the certification.json it writes. That the run
 * exercises every MUST is proven on simulated time (test/cli/default-run.test.ts);
 * how long it takes on the real clock depends on the machine, so it is measured
 * here, never asserted by a test. A run that is not CERTIFIED keeps its reports
 * (and its console output, console.txt) and names their folder, so the reason
 * can be read; a certified run's are removed.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { run, type BenchLine } from './conformance.ts';

interface Certification {
  outcome: string;
  notExercised: { id: string }[];
  target: { world?: unknown };
}

export async function benchFirstCommand(): Promise<BenchLine[]> {
  const reports = mkdtempSync(join(tmpdir(), 'bench-first-'));
  let keep = true;
  try {
    const load = loadavg()[0];
    const r = await run(['src/cli/main.ts'], { ANIMAL_STORE_REPORTS_DIR: reports });
    const file = join(reports, 'certification.json');
    writeFileSync(join(reports, 'console.txt'), r.stdout);
    if (!existsSync(file)) throw new Error(`npm start wrote no certification.json (exit ${r.code}); its output is in ${reports}`);
    const report = JSON.parse(readFileSync(file, 'utf8')) as Certification;
    keep = report.outcome !== 'certified' || r.code !== 0;
    const gaps = report.notExercised.map((n) => n.id).join(', ');
    const kept = keep ? `; reports kept in ${reports}` : '';
    if (keep) process.stderr.write(`bench: npm start ended ${report.outcome} (exit ${r.code}): its reports are kept in ${reports}\n`);
    return [
      {
        name: 'npm start, no configuration: wall time',
        value: Math.round(r.ms / 100) / 10,
        unit: 's',
        goal: '≤ 60 s',
        met: r.ms <= 60_000,
        detail: `load average ${load.toFixed(1)} → ${loadavg()[0].toFixed(1)}; short world ${JSON.stringify(report.target.world)}`,
      },
      {
        name: 'npm start, no configuration: verdict',
        value: r.code ?? -1,
        unit: '(exit code)',
        goal: 'certified',
        met: !keep,
        detail: `${report.outcome}${gaps ? `; not exercised: ${gaps}` : ''}${kept}`,
      },
      {
        name: 'npm start, no configuration: certification.json',
        value: Math.round(statSync(file).size / 1024),
        unit: 'KiB',
        goal: 'reported',
        met: true,
      },
    ];
  } finally {
    if (!keep) rmSync(reports, { recursive: true, force: true });
  }
}
