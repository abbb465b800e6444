/**
 * The in-process runner: executes collected spec definitions on one session,
 * scheduled as a Vitest run schedules them (schedule.ts), without Vitest. The self-tests use it to run the whole suite
 * against every fault mode of the reference server in seconds.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Finding } from '../results/types.ts';
import type { SpecFile } from './define-spec.ts';
import { collectSpecs } from './collect.ts';
import { schedule, type Planned } from './schedule.ts';
import type { Session } from './session.ts';
import { specOrder } from './order.ts';
import { specSource } from './spec-files.ts';

export { CONFORMANCE_DIR } from './spec-files.ts';

/** Every `conformance/<operation>/<behaviour>.spec.ts` (or its build, when the command runs from one), in run order. */
export function specPaths(source = specSource()): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(source.dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith(source.suffix)) out.push(join(entry.parentPath, entry.name));
  }
  return out.sort(specOrder);
}

export interface InProcessResult {
  findings: Finding[];
  tests: { file: string; title: string; skipped?: string }[];
  abort?: string;
  requests: number;
  notes: string[];
}

/** Run the spec files on one session as a Vitest run does (schedule.ts: independent tests in flight together). */
export async function runSpecs(session: Session, files?: SpecFile[], filter?: (f: SpecFile) => boolean): Promise<InProcessResult> {
  const all = files ?? (await collectSpecs(specPaths()));
  const plan: Planned[] = all.filter((file) => !filter || filter(file)).flatMap((file) => file.tests.map((st) => ({ file, st })));
  const outcomes = await Promise.all(schedule(session, plan));
  const findings: Finding[] = [];
  const tests: InProcessResult['tests'] = [];
  const notes: Record<string, string> = {};
  for (const [i, out] of outcomes.entries()) {
    const { file, st } = plan[i];
    findings.push(...out.findings);
    Object.assign(notes, out.notes);
    tests.push({ file: `${file.operation}/${file.behaviour}`, title: st.title, skipped: out.skipped });
  }
  return { findings, tests, abort: session.aborted?.message, requests: session.client.requestsSent, notes: Object.values(notes) };
}
