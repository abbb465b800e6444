/**
 * Which conformance spec files judge which requirement, as a run against a server shows it: each spec file run alone
 * (the in-process runner's `specs` filter), and every requirement it reported on — passed, failed, warned or observed;
 * a skip judges nothing — counted as that file's. A fault-mode proof then runs only the files that judge the
 * requirement its fault breaks, instead of the whole suite (test/conformance/fault-modes.test.ts).
 */
import type { AppOptions } from '../../reference/options.ts';
import { collectSpecs, type SpecFile } from '../../src/harness/define-spec.ts';
import { specPaths } from '../../src/harness/in-process-runner.ts';
import { runSuiteAgainst, type RunOptions } from './suite.ts';

/** A spec file's name (`listPets/limit-honoured`): the exploration phase's parts share one file's name per part. */
export const specName = (f: SpecFile): string => `${f.operation}/${f.behaviour}`;

/** Requirement id → the names of the spec files that report on it, against `app` run with `opts`. */
export async function specFilesJudging(app: AppOptions, opts: RunOptions = {}): Promise<Map<string, Set<string>>> {
  const names = [...new Set((await collectSpecs(specPaths())).map(specName))];
  const judging = new Map<string, Set<string>>();
  for (const name of names) {
    const run = await runSuiteAgainst(app, { ...opts, specs: (f) => specName(f) === name });
    for (const f of run.findings) {
      if (f.outcome === 'skip') continue;
      const files = judging.get(f.requirement) ?? new Set<string>();
      judging.set(f.requirement, files.add(name));
    }
  }
  return judging;
}
