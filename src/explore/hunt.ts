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
import { Explorer, guarded, seed32, signature } from './explorer.ts';
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

/** One round of a hunt: the explorer, the arbitrary and how each of its values is sent, the hunt's options, the round's seed. */
interface Round<T> {
  x: Explorer;
  arb: fc.Arbitrary<T>;
  run: (v: T) => Promise<Attempt>;
  o: HuntOptions;
  seed: number;
}

/** What fast-check said of a shrink: the counterexample's path and the number of shrinks. */
type ShrinkDetails = { counterexamplePath?: string | null; numShrinks: number };

/**
 * The replay record of a hunt's counterexample: its seed, fast-check path and shrink path (first failing → minimal);
 * for a sequence, the read that failed (`target`'s exchange), after the requests of the sequence before it.
 */
function replayOf(
  { x, o, seed }: Pick<Round<unknown>, 'x' | 'o' | 'seed'>,
  path: readonly Attempt[],
  details?: ShrinkDetails,
  target?: Finding,
): Replay {
  const minimal = path[path.length - 1];
  const failing = target && minimal.steps ? x.sentOf(target)?.probe : undefined;
  const at = failing ? (minimal.steps ?? []).indexOf(failing) : -1;
  const replay = x.replayOf(
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
  return at > 0 ? { ...replay, before: minimal.steps!.slice(0, at).map((p) => x.stepOf(p)) } : replay;
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
 * as many at a time as Explorer.width allows, in order, until one fails in a way not reported yet.
 */
async function search<T>({ x, arb, run, o, seed }: Round<T>, stop: number) {
  const values = fc.sample(arb, { seed, numRuns: Math.max(1, Math.min(x.left(), stop - x.spent)) });
  for (let i = 0; i < values.length;) {
    if (x.left() <= 0 || x.spent >= stop || x.timeLeft() < (o.keepTimeMs ?? 0)) return undefined;
    const n = Math.min(x.width(), values.length - i);
    const settled = await Promise.allSettled(values.slice(i, i + n).map(run));
    const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    for (const [j, r] of settled.entries()) {
      if (r.status !== 'fulfilled') continue;
      x.tallyOf(o.source).cases++;
      const fresh = r.value.failures.find((f) => !x.known.has(signature(f)));
      if (fresh) return { index: i + j, value: values[i + j], attempt: r.value, fresh } satisfies Found<T>;
      x.forward(r.value.findings);
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
async function shrink<T>({ x, arb, run, o, seed }: Round<T>, found: Found<T>) {
  const target = signature(found.fresh);
  const start = x.spent;
  const path: Attempt[] = [found.attempt];
  let first = true;
  const prop = fc.asyncProperty(arb, async (v) => {
    // The found input itself comes first: it failed already, it is not sent again.
    if (first) return (first = false);
    if (x.left() <= 0 || x.spent - start >= o.shrinkCap || x.timeLeft() < (o.keepTimeMs ?? 0)) return true;
    const a = await run(v);
    x.tallyOf(o.source).cases++;
    if (!a.failures.some((f) => signature(f) === target)) return true;
    path.push(a);
    return false;
  });
  const details = await fc.check(prop, { seed, path: String(found.index), numRuns: found.index + 1, verbose: 0 });
  return { path, details, target };
}

export async function hunt<T>(x: Explorer, arb: fc.Arbitrary<T>, run: (v: T) => Promise<Attempt>, o: HuntOptions): Promise<void> {
  const stop = x.spent + o.cap;
  let aborted: RunAborted | undefined;
  for (let round = 0; round < (o.maxRounds ?? 8); round++) {
    if (aborted || x.left() <= 0 || x.spent >= stop || x.timeLeft() < (o.keepTimeMs ?? 0)) break;
    const r: Round<T> = { x, arb, run, o, seed: seed32(x.settings.seed + round * 0x9e3779b9) };
    const found = await guarded(
      () => search(r, stop),
      (e) => (aborted = e),
    );
    if (!found) break;
    // Shrinking only makes sense for a failure the request reproduces alone: one that depends on what the store
    // holds, or that did not fail again, is reported as it was found, with what reproduces it.
    const attribution = await guarded(
      () => attribute(x, found.fresh, o.source),
      (e) => (aborted = e),
    );
    if (attribution && attribution.kind !== 'alone' && attribution.kind !== 'unchecked') {
      const replay = replayOf(r, [found.attempt], undefined, found.fresh);
      x.tallyOf(o.source).counterexamples += x.reportFailures(found.attempt.failures, replay, attribution);
      x.forward(found.attempt.findings);
      continue;
    }
    const shrunk = await guarded(
      () => shrink(r, found),
      (e) => (aborted = e),
    );
    const path = shrunk?.path ?? [found.attempt];
    await reportMinimal(r, path, { details: shrunk?.details, target: signature(found.fresh) }, (e) => (aborted = e));
  }
  if (aborted) throw aborted;
}

/** Report the minimal case of a hunt, replayed alone first (offered as minimal only when it fails the same way again). */
async function reportMinimal(
  r: Pick<Round<unknown>, 'x' | 'o' | 'seed'>,
  path: readonly Attempt[],
  { details, target }: { details: ShrinkDetails | undefined; target: string },
  onAbort: (e: RunAborted) => void,
): Promise<void> {
  const { x, o } = r;
  const minimal = path[path.length - 1];
  const shown = minimal.failures.find((f) => signature(f) === target);
  const attribution = shown && (await guarded(() => attribute(x, shown, o.source), onAbort));
  const replay = replayOf(r, path, details && { ...details, numShrinks: path.length - 1 }, shown);
  // The minimal case's failures of the target's kind, and any other new kind it shows as well.
  x.tallyOf(o.source).counterexamples += x.reportFailures(minimal.failures, replay, attribution ?? undefined);
  x.forward(minimal.findings);
}
