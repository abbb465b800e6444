/**
 * What a run reads of the runs before it, in its reports folder: the suite's memory. A CI job starts on a fresh
 * machine, so a workflow must carry each of these files from one run to the next (restore them into the reports
 * folder before the run, save them after it), or the feature that reads it silently starts from nothing every time:
 * no comparison with the previous night, no replay of last night's counterexamples.
 * test/workflows/run-memory.test.ts holds both example workflows to this list, and traces the files a second
 * `npm start` reads of the first, so that a new reader cannot be left out of it.
 */
import { STORE_FILE } from '../explore/counterexample-store.ts';
import { HISTORY, HISTORY_FILE, RUNS_DIR } from '../results/compare.ts';

export interface RememberedFile {
  /** The path under the reports folder; `*` stands for one path segment (a run id). */
  path: string;
  /** How many matches a later run reads (the newest), when it reads several. */
  newest?: number;
  /** What reads it, and what is lost when it is not carried. */
  readBy: string;
}

export const RUN_MEMORY: readonly RememberedFile[] = [
  {
    path: `${RUNS_DIR}/*/${HISTORY_FILE}`,
    newest: HISTORY,
    readBy: 'src/results/compare.ts: the comparison with the previous runs (new, fixed, still failing, flapping)',
  },
  {
    path: STORE_FILE,
    readBy:
      "src/explore/counterexample-store.ts: the exploration's counterexamples, replayed first by the next run against the same target",
  },
];

/** True when a path under the reports folder (with `/` separators) is one of the files of RUN_MEMORY. */
export function isRemembered(relative: string): boolean {
  return RUN_MEMORY.some((m) => patternOf(m.path).test(relative));
}

export function patternOf(path: string): RegExp {
  const parts = path.split('/').map((p) => (p === '*' ? '[^/]+' : p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${parts.join('/')}$`);
}
