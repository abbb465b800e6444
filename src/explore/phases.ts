/**
 * The parts of the exploration phase, in the order a run takes them: saved
 * counterexamples replayed first, then the coverage cases, then generated
 * requests; the stateful part follows (stateful.ts). Each part spends a share
 * of the phase's budget and leaves the rest to the parts after it.
 */
import { isRequirementId, judgeAny } from '../core/catalogue.ts';
import type { RunAborted } from '../http/client.ts';
import { requestArb } from './arbitraries.ts';
import { affordable, coverageDrafts, coverageReserve } from './coverage.ts';
import { Explorer, EXPLORE_TIME_MS, guarded, isProblem, signature, SOURCES, type Shot } from './explorer.ts';
import { reportAttributed } from './attribution.ts';
import { hunt, type Attempt } from './hunt.ts';
import { probeOf, type Probe } from './probe.ts';
import { operation } from './model.ts';
import { nothingStored } from './stateful.ts';
import { runSequence } from './sequences.ts';
import type { SavedCounterexample } from './counterexample-store.ts';

/**
 * Before the phase stores anything: the largest page of every status's list and of the unfiltered one, so that a
 * page failing later because of a pet the phase stored is told from one that fails alone (attribution.ts).
 */
function baselines(x: Explorer): Probe[] {
  if (!x.settings.writes) return [];
  const statuses = (operation('listPets').params.find((p) => p.name === 'status')!.schema.enum ?? []).map(String);
  return [undefined, ...statuses].map((status) =>
    probeOf({ op: 'listPets', query: { ...(status ? { status } : {}), limit: '100' } }, 'baseline', x.naming.plainLength),
  );
}

/** The coverage cases a run sends: all of them when its budget affords them (every class of every dimension, in every run). */
function coverageProbes(x: Explorer): Probe[] {
  const cases = coverageDrafts({ writes: x.settings.writes, embedded: x.settings.embedded });
  const n = Math.min(cases.length, Math.max(0, x.left() - coverageReserve(x.settings.budget)));
  return affordable(cases, n, x.settings.seed).map((d) => x.materialize(d));
}

/** Report what a coverage case found, each new failure with what reproduces it. */
async function reportCase(x: Explorer, shot: Shot): Promise<void> {
  x.forward(shot.findings);
  const replay = x.replayOf(shot.probe, { phase: 'coverage', reproduce: `--seed ${x.settings.seed}` });
  x.tallyOf(SOURCES.coverage).counterexamples += await reportAttributed(x, shot.failures, replay, SOURCES.coverage);
}

/**
 * The coverage part: the baselines, then every coverage case in a fixed order, sent as many at a time as the server's
 * latency needs (Explorer.width), each judged, each new failure reported with what reproduces it.
 */
export async function coveragePhase(x: Explorer): Promise<void> {
  const base = baselines(x);
  for (const shot of await x.sendAll(base, SOURCES.coverage)) if (shot) await reportCase(x, shot);
  const probes = coverageProbes(x);
  let aborted: RunAborted | undefined;
  const shots = await guarded(
    () => x.sendAll(probes, SOURCES.coverage),
    (e) => (aborted = e),
  );
  for (const shot of shots ?? []) {
    if (!shot) continue;
    x.tallyOf(SOURCES.coverage).cases++;
    const done = await guarded(
      () => reportCase(x, shot).then(() => true),
      (e) => (aborted = e),
    );
    if (!done) break;
  }
  if (aborted) throw aborted;
}

export function generatedPhase(x: Explorer): Promise<void> {
  const reserve = x.settings.writes ? Math.max(12, Math.floor(x.settings.budget * 0.15)) : 0;
  return hunt(
    x,
    requestArb(x.settings.writes),
    async (d) => {
      const probe = x.materialize(d);
      const shot = await x.send(probe, SOURCES.generated);
      return { probe, findings: shot.findings, failures: shot.failures };
    },
    // A third of the phase's time is left to the stateful part (its sequences go one request after another).
    { cap: Math.max(0, x.left() - reserve), shrinkCap: 40, source: SOURCES.generated, phase: 'generated', keepTimeMs: EXPLORE_TIME_MS / 3 },
  );
}

/** A saved counterexample, replayed as it was saved. */
async function replayOne(x: Explorer, c: SavedCounterexample): Promise<Attempt> {
  const probe = probeOf(c.probe, `saved ${c.firstSeen}`, x.naming.plainLength);
  // A finding that depends on stored state: the creates that stored it first, then the failing request.
  for (const b of c.before ?? []) await x.send(probeOf(b, `saved ${c.firstSeen}, stored first`, x.naming.plainLength), SOURCES.replay);
  if (c.probe.kind === 'stateful') return runSequence(x, [probe], c.probe.limit ?? 100, SOURCES.replay);
  const shot = await x.send(probe, SOURCES.replay);
  if (c.probe.kind !== 'stored') return { probe, findings: shot.findings, failures: shot.failures };
  const lists = await nothingStored(x, shot.ex.response && shot.ex.response.status < 500 ? [probe] : [], SOURCES.replay);
  const findings = [...shot.findings, ...lists.flatMap((l) => l.findings)];
  return { probe, findings, failures: findings.filter(isProblem), kind: 'stored' };
}

export async function replayPhase(x: Explorer, saved: readonly SavedCounterexample[]): Promise<void> {
  const cap = Math.floor(x.settings.budget * 0.2);
  const start = x.spent;
  let aborted: RunAborted | undefined;
  for (const c of saved) {
    if (x.left() <= 0 || x.spent - start >= cap) break;
    if ((c.probe.op === 'createPet' || c.before?.length) && !x.settings.writes) continue;
    const a = await guarded(
      () => replayOne(x, c),
      (e) => (aborted = e),
    );
    if (!a) break;
    x.tallyOf(SOURCES.replay).cases++;
    const replay = x.replayOf(
      a.probe,
      {
        phase: 'replayed',
        firstSeen: c.firstSeen,
        signature: c.signature,
        ...(c.seed !== undefined ? { seed: c.seed } : {}),
        ...(c.path ? { path: c.path } : {}),
      },
      c.probe.kind,
      c.probe.limit,
    );
    x.forward(a.findings);
    if (a.failures.some((f) => signature(f) === c.signature))
      x.tallyOf(SOURCES.replay).counterexamples += x.reportFailures(a.failures, replay);
    // (loadCounterexamples leaves out ids the catalogue no longer has: the test only narrows the type)
    else if (isRequirementId(c.requirement))
      x.session.sink.push({
        ...judgeAny(c.requirement, {
          outcome: 'observe',
          title: 'counterexample-fixed',
          message: `${c.request} — saved ${c.firstSeen} for "${c.signature}" — no longer fails`,
        }),
        source: SOURCES.replay,
        replay: { ...replay, fixed: true },
      });
  }
  if (aborted) throw aborted;
}
