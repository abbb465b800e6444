/**
 * Hunting with fast-check: generate inputs from an arbitrary and run each
 * against the server until a new kind of failure appears (a signature —
 * requirement and title — not reported yet), shrink it to a minimal
 * counterexample that still fails the same way, report it with its seed,
 * fast-check path and shrink path, and start again with the next seed until
 * the hunt's share of the budget is spent. Every run costs real requests, so
 * the property stops sending (and passes) once the budget or the shrink cap is
 * reached; shrinking then ends on the smallest input that failed.
 */
import fc from 'fast-check';
import type { RunAborted } from '../http/client.ts';
import type { Finding, Replay, ReplayProbe } from '../results/types.ts';
import { Explorer, guarded, seed32 } from './explorer.ts';
import { sameFailure } from './reporter.ts';
import { attribute } from './attribution.ts';
import { describeProbe, type Probe } from './probe.ts';

/** One run of the property: what it sent and what failed. */
export interface Attempt {
  /** The request that carries the case (for a stateful run: the create). */
  probe: Probe;
  findings: Finding[];
  failures: Finding[];
  kind?: ReplayProbe['kind'];
  limit?: number;
  /** A sequence: every request it sent, in order (its failure is replayed after the ones before the failing read). */
  steps?: Probe[];
}

export interface HuntOptions {
  /** Requests this hunt may spend (shrinking included). */
  cap: number;
  /** Requests one shrink may spend. */
  shrinkCap: number;
  source: string;
  phase: Replay['phase'];
  /** New failure kinds to look for at most (each a round with its own seed). */
  maxRounds?: number;
  /** Time of the phase (ms) this hunt leaves to the parts after it: it stops sending once less is left. */
  keepTimeMs?: number;
}

/** One round of a hunt: the explorer, the arbitrary and how one input is run, the options, and the round's seed. */
interface Round<T> {
  x: Explorer;
  arb: fc.Arbitrary<T>;
  run: (v: T) => Promise<Attempt>;
  o: HuntOptions;
  seed: number;
}

/** What a round's reports need of it: the explorer, the options and the seed. */
type RoundOf = Pick<Round<unknown>, 'x' | 'o' | 'seed'>;

/** What shrinking established: fast-check's path to the counterexample and the shrinks that held. */
type Details = { counterexamplePath?: string | null; numShrinks: number };

/** Has the hunt spent what it may (its requests, the phase's time it leaves to the parts after it)? */
const spent = (r: RoundOf, stop: number) => r.x.pace.left() <= 0 || r.x.pace.spent >= stop || r.x.pace.timeLeft() < (r.o.keepTimeMs ?? 0);

/**
 * The replay record of a hunt's counterexample: its seed, fast-check path and shrink path (first failing → minimal);
 * for a sequence, the read that failed (`target`'s exchange), after the requests of the sequence before it.
 */
function replayOf(r: RoundOf, path: readonly Attempt[], found: { details?: Details; target?: Finding }): Replay {
  const { x, o, seed } = r;
  const { details, target } = found;
  const minimal = path[path.length - 1];
  const failing = target && minimal.steps ? x.memory.sentOf(target)?.probe : undefined;
  const at = failing ? (minimal.steps ?? []).indexOf(failing) : -1;
  const replay = x.reporter.replayOf(
    at >= 0 ? failing! : minimal.probe,
    {
      phase: o.phase,
      seed,
      ...(details?.counterexamplePath ? { path: details.counterexamplePath } : {}),
      ...(details ? { shrinks: details.numShrinks } : {}),
      shrinkPath: path.map((a) => x.session.redact(describeProbe(a.probe))),
      reproduce: `--seed ${x.settings.seed}`,
    },
    at >= 0 ? 'single' : minimal.kind,
    minimal.limit,
  );
  return at > 0 ? { ...replay, before: minimal.steps!.slice(0, at).map((p) => x.reporter.stepOf(p)) } : replay;
}

/** What a round's search found: the first input with a failure of a kind not reported yet, by its index in the round. */
interface Found<T> {
  index: number;
  value: T;
  attempt: Attempt;
  fresh: Finding;
}

/**
 * Run a round's inputs — sampled from the arbitrary with the round's seed, the very inputs fast-check would run —
 * as many at a time as Pace.width allows, in order, until one fails in a way not reported yet.
 */
async function search<T>(r: Round<T>, stop: number): Promise<Found<T> | undefined> {
  const { x, o } = r;
  const values = fc.sample(r.arb, { seed: r.seed, numRuns: Math.max(1, Math.min(x.pace.left(), stop - x.pace.spent)) });
  for (let i = 0; i < values.length;) {
    if (spent(r, stop)) return undefined;
    const n = Math.min(x.pace.width(), values.length - i);
    const settled = await Promise.allSettled(values.slice(i, i + n).map(r.run));
    const failed = settled.find((v): v is PromiseRejectedResult => v.status === 'rejected');
    for (const [j, v] of settled.entries()) {
      if (v.status !== 'fulfilled') continue;
      x.pace.of(o.source).cases++;
      const fresh = v.value.failures.find((f) => !x.reporter.isKnown(f));
      if (fresh) return { index: i + j, value: values[i + j], attempt: v.value, fresh };
      x.reporter.forward(v.value.findings);
    }
    if (failed) throw failed.reason;
    i += n;
  }
  return undefined;
}

/**
 * Shrink a found failure with fast-check from its place in the round (`path`), one request at a time, within the
 * shrink cap: every smaller input that fails the same way is kept, the last is the minimal one.
 */
async function shrink<T>(r: Round<T>, found: Found<T>): Promise<{ path: Attempt[]; details: Details }> {
  const { x, o } = r;
  const start = x.pace.spent;
  const path: Attempt[] = [found.attempt];
  let first = true;
  const prop = fc.asyncProperty(r.arb, async (v) => {
    // The found input itself comes first: it failed already, it is not sent again.
    if (first) return (first = false);
    if (x.pace.left() <= 0 || x.pace.spent - start >= o.shrinkCap || x.pace.timeLeft() < (o.keepTimeMs ?? 0)) return true;
    const a = await r.run(v);
    x.pace.of(o.source).cases++;
    if (!a.failures.some((f) => sameFailure(f, found.fresh))) return true;
    path.push(a);
    return false;
  });
  const details = await fc.check(prop, { seed: r.seed, path: String(found.index), numRuns: found.index + 1, verbose: 0 });
  return { path, details };
}

/** One round: search, then report what it found — as found when it depends on more than the request, else shrunk. */
async function round<T>(r: Round<T>, stop: number, onAbort: (e: RunAborted) => void): Promise<boolean> {
  const { x, o } = r;
  const found = await guarded(() => search(r, stop), onAbort);
  if (!found) return false;
  // Shrinking only makes sense for a failure the request reproduces alone: one that depends on what the store
  // holds, or that did not fail again, is reported as it was found, with what reproduces it.
  const attribution = await guarded(() => attribute(x, found.fresh, o.source), onAbort);
  if (attribution && attribution.kind !== 'alone' && attribution.kind !== 'unchecked') {
    const replay = replayOf(r, [found.attempt], { target: found.fresh });
    x.pace.of(o.source).counterexamples += x.reporter.report(found.attempt.failures, replay, attribution);
    x.reporter.forward(found.attempt.findings);
    return true;
  }
  const shrunk = await guarded(() => shrink(r, found), onAbort);
  await reportMinimal(r, { path: shrunk?.path ?? [found.attempt], details: shrunk?.details, target: found.fresh }, onAbort);
  return true;
}

export async function hunt<T>(x: Explorer, arb: fc.Arbitrary<T>, run: (v: T) => Promise<Attempt>, o: HuntOptions): Promise<void> {
  const stop = x.pace.spent + o.cap;
  let aborted: RunAborted | undefined;
  for (let i = 0; i < (o.maxRounds ?? 8); i++) {
    const r: Round<T> = { x, arb, run, o, seed: seed32(x.settings.seed + i * 0x9e3779b9) };
    if (aborted || spent(r, stop)) break;
    if (!(await round(r, stop, (e) => (aborted = e)))) break;
  }
  if (aborted) throw aborted;
}

/** Report the minimal case of a hunt, replayed alone first (offered as minimal only when it fails the same way again). */
async function reportMinimal(
  r: RoundOf,
  shrunk: { path: readonly Attempt[]; details?: Details; target: Finding },
  onAbort: (e: RunAborted) => void,
): Promise<void> {
  const { x, o } = r;
  const { path, details, target } = shrunk;
  const minimal = path[path.length - 1];
  const shown = minimal.failures.find((f) => sameFailure(f, target));
  const attribution = shown && (await guarded(() => attribute(x, shown, o.source), onAbort));
  const replay = replayOf(r, path, {
    ...(details ? { details: { ...details, numShrinks: path.length - 1 } } : {}),
    ...(shown ? { target: shown } : {}),
  });
  // The minimal case's failures of the target's kind, and any other new kind it shows as well.
  x.pace.of(o.source).counterexamples += x.reporter.report(minimal.failures, replay, attribution ?? undefined);
  x.reporter.forward(minimal.findings);
}
