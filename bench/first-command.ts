/**
 * The README's first command: `npm start` with no configuration — the embedded
 * reference server in its short world, every scenario, the daily quota
 * included. Its wall time (goal: about a minute, here 60 s), its verdict (goal:
 * CERTIFIED) and the size of the certification.json it writes. That the run
 * exercises every MUST is proven on simulated time (test/cli/default-run.test.ts);
 * how long it takes on the real clock depends on the machine, so it is measured
 * here, never asserted by a test.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run, type BenchLine } from './conformance.ts';

export async function benchFirstCommand(): Promise<BenchLine[]> {
  const reports = mkdtempSync(join(tmpdir(), 'bench-first-'));
  try {
    const r = await run(['src/cli/main.ts'], { ANIMAL_STORE_REPORTS_DIR: reports });
    const file = join(reports, 'certification.json');
    const report = JSON.parse(readFileSync(file, 'utf8')) as {
      outcome: string;
      notExercised: { id: string }[];
      target: { world?: unknown };
    };
    const gaps = report.notExercised.map((n) => n.id).join(', ');
    return [
      {
        name: 'npm start, no configuration: wall time',
        value: Math.round(r.ms / 100) / 10,
        unit: 's',
        goal: '≤ 60 s',
        met: r.ms <= 60_000,
        detail: `short world ${JSON.stringify(report.target.world)}`,
      },
      {
        name: 'npm start, no configuration: verdict',
        value: r.code ?? -1,
        unit: '(exit code)',
        goal: 'certified',
        met: report.outcome === 'certified' && r.code === 0,
        detail: `${report.outcome}${gaps ? `; not exercised: ${gaps}` : ''}`,
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
    rmSync(reports, { recursive: true, force: true });
  }
}
