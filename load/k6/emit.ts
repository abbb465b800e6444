/**
 * What a plan's run reports when it ends: for k6's metrics, a check, an
 * outcome and (if it failed) a failure per judged requirement — fixed names,
 * the requirement's id and the plan; as lines of k6's log (load/lib/k6-log.ts,
 * tagged with the plan and a share's segment), every judgement, note, the stop
 * reason, the key's state, the timeline and, for a share of a distributed run,
 * its requests. Bundled for k6: no Node built-ins, ES2017.
 */
import { check } from 'k6';
import exec from 'k6/execution';
import type { Counter, Gauge } from 'k6/metrics';
import { compactSample, timeline } from '../../src/core/load-report.ts';
import { carry, SAMPLES_PER_LINE, type Carried } from '../lib/k6-log.ts';
import type { ScenarioRun } from '../lib/runner.ts';
import { outcomeRank } from './summary.ts';

export interface Metrics {
  failures: Counter;
  finished: Counter;
  outcome: Gauge;
}

/** Whom a plan's run reports to, and as whom. */
export interface Reporter {
  m: Metrics;
  redact: (s: string) => string;
  /** The plan, when several plans run in one k6 process. */
  tag?: string;
  /** One share of a distributed run: its lines name its segment and carry its requests. */
  distributed: boolean;
  /** One of several VUs of a paced scenario in this process: it carries its requests, which the k6 engine judges as one. */
  vuShare?: boolean;
}

/** The plan's tag on every metric: fixed names only (a metrics store gets no series of its own per run). */
export const planTag = (rep: Reporter): Record<string, string> => (rep.tag ? { plan: rep.tag } : {});

/** One line of k6's log per item (never a metric): the suite's k6 engine and load:merge complete the report with them. */
function log(rep: Reporter, item: Carried): void {
  const segment = rep.distributed ? segmentOf() : '';
  console.log(rep.redact(carry(Object.assign({}, item, planTag(rep), segment ? { segment } : {}))));
}

export function emit(rep: Reporter, run: ScenarioRun, notes: string[]): void {
  const { m } = rep;
  for (const j of run.judgements()) {
    const ok = j.outcome !== 'fail';
    const tags = Object.assign({ requirement: j.requirement }, planTag(rep));
    check(null, { [j.requirement]: () => ok }, planTag(rep));
    m.outcome.add(outcomeRank(j.outcome), tags);
    if (!ok) m.failures.add(1, tags);
    log(rep, { kind: 'judgement', value: j });
  }
  for (const note of notes.concat(run.state.notes)) log(rep, { kind: 'note', value: note });
  if (run.stoppedBecause) log(rep, { kind: 'stopped', value: run.stoppedBecause });
  log(rep, { kind: 'key', value: run.keyState() });
  log(rep, { kind: 'timeline', value: timeline(run.state.samples, 0) });
  // A share of a distributed run (or one VU of several) carries its requests, so that the whole can be judged.
  if (rep.distributed || rep.vuShare) {
    const all = run.state.samples.map(compactSample);
    for (let i = 0; i < all.length; i += SAMPLES_PER_LINE) log(rep, { kind: 'samples', value: all.slice(i, i + SAMPLES_PER_LINE) });
  }
  m.finished.add(1, planTag(rep));
}

/** This instance's execution segment ("0:1/2"), when k6 runs it as one share of a distributed run. */
export function segmentOf(): string {
  const t = exec.test as unknown as { options?: { executionSegment?: string } };
  const seg = t.options && t.options.executionSegment;
  return seg ? String(seg) : '';
}
