/**
 * The worker pool of `npm run bench:verdicts`: a few forked workers (bench/verdicts-worker.ts), each running one run
 * at a time with the checkout's modules; a run past its bound is killed with its worker's whole process group (the
 * k6 and `npm start` children included) and answered as an error; a worker is replaced after a number of runs (the
 * in-process suite keeps module state) or when it died.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { RunSpec } from './verdicts-runs.ts';
import type { Answer, Task } from './verdicts-worker.ts';

const RECYCLE_AFTER = 40;

/** Each run's bound: far above what it takes (seconds), so that only a hung run meets it. */
export function boundMs(spec: RunSpec): number {
  if (spec.group === 'k6-real' || spec.group === 'cli') return 240_000;
  return spec.real ? 120_000 : 90_000;
}

class Worker {
  private readonly child: ChildProcess;
  runs = 0;

  constructor(root: string, argv: string[]) {
    // Its own process group: a run past its bound is killed with what it started.
    this.child = fork(join(import.meta.dirname, 'verdicts-worker.ts'), argv, {
      cwd: root,
      execArgv: ['--import', 'tsx'],
      detached: true,
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
  }

  run(task: Task): Promise<Answer> {
    this.runs++;
    const { spec, attempt } = task;
    const failed = (error: string): Answer => ({ name: spec.name, attempt, error, ms: boundMs(spec) });
    return new Promise((done) => {
      const timer = setTimeout(() => {
        this.kill();
        done(failed(`no answer within ${boundMs(spec) / 1000} s: killed`));
      }, boundMs(spec));
      const onExit = (code: number | null) => {
        clearTimeout(timer);
        done(failed(`the worker exited (${code}) during the run`));
      };
      this.child.once('exit', onExit);
      this.child.once('message', (m: Answer) => {
        clearTimeout(timer);
        this.child.off('exit', onExit);
        done(m);
      });
      this.child.send(task);
    });
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  kill(): void {
    try {
      process.kill(-this.child.pid!, 'SIGKILL');
    } catch {
      /* gone */
    }
  }

  stop(): void {
    if (this.alive) this.child.send('exit');
  }
}

/** Every task through `size` workers, in order; `onAnswer` sees each answer as it comes. */
export async function runPool(
  tasks: readonly Task[],
  o: { size: number; root: string; argv: string[]; onAnswer: (a: Answer, done: number) => void },
): Promise<Answer[]> {
  const queue = [...tasks];
  const workers: (Worker | undefined)[] = [];
  const answers: Answer[] = [];
  const stopAll = () => workers.forEach((w) => w?.kill());
  const onSigint = () => {
    stopAll();
    process.exit(130);
  };
  process.once('SIGINT', onSigint);
  const lane = async (slot: number) => {
    for (let task = queue.shift(); task; task = queue.shift()) {
      let w = workers[slot];
      if (!w || !w.alive || w.runs >= RECYCLE_AFTER) {
        w?.stop();
        w = workers[slot] = new Worker(o.root, o.argv);
      }
      const a = await w.run(task);
      answers.push(a);
      o.onAnswer(a, answers.length);
    }
  };
  try {
    await Promise.all(Array.from({ length: o.size }, (_, i) => lane(i)));
  } finally {
    workers.forEach((w) => w?.stop());
    process.off('SIGINT', onSigint);
  }
  return answers;
}
