/**
 * The schedule of a Vitest conformance run. Vitest collects and runs one file after another, so the first test to run
 * collects every spec file of the run (instances of their own: collect.ts) and schedules all their tests at once
 * (schedule.ts); each Vitest test then awaits its own outcome. A test the schedule does not hold (none should) runs
 * by itself.
 */
import { collectSpecs } from './collect.ts';
import { executeTest, type TestOutcome } from './execute.ts';
import { specPaths } from './in-process-runner.ts';
import { schedule, type Planned } from './schedule.ts';
import type { Session } from './session.ts';
import { sep } from 'node:path';
import type { SpecSource } from './spec-files.ts';

/** The folder of the spec files, by its name (conformance/<operation>/<behaviour>.spec.*). */
const SPEC_ROOT = 'conformance';

const keyOf = ({ file, st }: Planned) => `${file.operation} › ${file.behaviour}: ${st.title}`;

let run: Promise<Map<string, Promise<TestOutcome>[]>> | undefined;

/** The spec files of the run Vitest runs `file` of: the same folder, built or TypeScript (the worker is told neither). */
export function sourceOf(file: string): SpecSource {
  const at = file.lastIndexOf(`${sep}${SPEC_ROOT}${sep}`);
  const built = file.endsWith('.mjs');
  return { dir: file.slice(0, at + SPEC_ROOT.length + 1), suffix: built ? '.spec.mjs' : '.spec.ts', built };
}

async function scheduleAll(session: Session, file: string): Promise<Map<string, Promise<TestOutcome>[]>> {
  const files = await collectSpecs(specPaths(sourceOf(file)), true);
  const plan: Planned[] = files.flatMap((file) => file.tests.map((st) => ({ file, st })));
  const outcomes = schedule(session, plan);
  const byKey = new Map<string, Promise<TestOutcome>[]>();
  for (const [i, p] of plan.entries()) byKey.set(keyOf(p), [...(byKey.get(keyOf(p)) ?? []), outcomes[i]]);
  return byKey;
}

/**
 * The outcome of one test of the run (`file`: the spec file Vitest runs it from), as the schedule of every test ran it;
 * a schedule that could not be made (a spec that cannot be imported twice) leaves each test to run by itself.
 */
export async function scheduled(session: Session, planned: Planned, file: string): Promise<TestOutcome> {
  run ??= scheduleAll(session, file).catch(() => new Map());
  const mine = (await run).get(keyOf(planned))?.shift();
  return mine ? await mine : executeTest(session, planned.st, planned.file);
}
