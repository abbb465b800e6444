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
import { Explorer, guarded, seed32, signature } from './engine.ts';
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
}

/**
 * The replay record of a hunt's counterexample: its seed, fast-check path and shrink path (first failing → minimal);
 * for a sequence, the read that failed (`target`'s exchange), after the requests of the sequence before it.
 */
function replayOf(
  x: Explorer,
  path: readonly Attempt[],
  o: HuntOptions,
  seed: number,
  details?: { counterexamplePath?: string | null; numShrinks: number },
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

export async function hunt<T>(x: Explorer, arb: fc.Arbitrary<T>, run: (v: T) => Promise<Attempt>, o: HuntOptions): Promise<void> {
  const stop = x.spent + o.cap;
  let aborted: RunAborted | undefined;
  for (let round = 0; round < (o.maxRounds ?? 8); round++) {
    if (aborted || x.left() <= 0 || x.spent >= stop) break;
    const seed = seed32(x.settings.seed + round * 0x9e3779b9);
    let target: string | undefined;
    let shrinkStart = 0;
    const path: Attempt[] = [];
    const prop = fc.asyncProperty(arb, async (v) => {
      if (aborted || x.left() <= 0) return true;
      if (target ? x.spent - shrinkStart >= o.shrinkCap : x.spent >= stop) return true;
      const a = await guarded(
        () => run(v),
        (e) => (aborted = e),
      );
      if (!a) return true;
      x.tallyOf(o.source).cases++;
      if (!target) {
        const fresh = a.failures.find((f) => !x.known.has(signature(f)));
        if (!fresh) {
          x.forward(a.findings);
          return true;
        }
        // Shrinking only makes sense for a failure the request reproduces alone: one that depends on what the store
        // holds, or that did not fail again, is reported as it was found, with what reproduces it.
        const attribution = await guarded(
          () => attribute(x, fresh, o.source),
          (e) => (aborted = e),
        );
        if (attribution && attribution.kind !== 'alone' && attribution.kind !== 'unchecked') {
          x.tallyOf(o.source).counterexamples += x.reportFailures(a.failures, replayOf(x, [a], o, seed, undefined, fresh), attribution);
          x.forward(a.findings);
          return true;
        }
        target = signature(fresh);
        shrinkStart = x.spent;
        path.push(a);
        return false;
      }
      if (!a.failures.some((f) => signature(f) === target)) return true;
      path.push(a);
      return false;
    });
    const details = await fc.check(prop, { seed, numRuns: Math.max(1, Math.min(x.left(), o.cap)), verbose: 0 });
    if (!details.failed) break;
    if (!target) {
      // The property itself threw: a defect of the suite, never blamed on the server.
      x.session.record(
        {
          requirement: 'INPUT-SILENT-HANDLING',
          outcome: 'error',
          title: 'Exploration failed',
          message: `${o.source}: ${String(details.errorInstance)}`,
        },
        { source: o.source },
      );
      break;
    }
    const minimal = path[path.length - 1];
    // The minimal request, replayed alone: offered as minimal only when it fails the same way again.
    const shown = minimal.failures.find((f) => signature(f) === target);
    const attribution =
      shown &&
      (await guarded(
        () => attribute(x, shown, o.source),
        (e) => (aborted = e),
      ));
    const replay = replayOf(x, path, o, seed, details, shown);
    // The minimal case's failures of the target's kind, and any other new kind it shows as well.
    x.tallyOf(o.source).counterexamples += x.reportFailures(minimal.failures, replay, attribution ?? undefined);
    x.forward(minimal.findings);
  }
  if (aborted) throw aborted;
}
