/**
 * The parts of the exploration phase, in the order a run takes them: saved
 * counterexamples replayed first, then the coverage cases, then generated
 * requests; the stateful part follows (stateful.ts). Each part spends a share
 * of the phase's budget and leaves the rest to the parts after it.
 */
import type { RunAborted } from '../http/client.ts';
import { requestArb } from './arbitraries.ts';
import { affordable, coverageDrafts } from './coverage.ts';
import { Explorer, guarded, isProblem, signature, SOURCES } from './engine.ts';
import { reportAttributed } from './attribution.ts';
import { hunt, type Attempt } from './hunt.ts';
import { probeOf } from './probe.ts';
import { operation } from './model.ts';
import { nothingStored } from './stateful.ts';
import { runSequence } from './sequences.ts';
import type { SavedCounterexample } from './store.ts';

/**
 * Before the phase stores anything: the largest page of every status's list and of the unfiltered one, so that a
 * page failing later because of a pet the phase stored is told from one that fails alone (attribution.ts).
 */
async function baselines(x: Explorer): Promise<void> {
  if (!x.settings.writes) return;
  const statuses = (operation('listPets').params.find((p) => p.name === 'status')!.schema.enum ?? []).map(String);
  for (const status of [undefined, ...statuses]) {
    if (x.left() <= 0) return;
    const probe = probeOf({ op: 'listPets', query: { ...(status ? { status } : {}), limit: '100' } }, 'baseline', x.naming.plainLength);
    const shot = await x.send(probe, SOURCES.coverage);
    x.forward(shot.findings);
    const replay = x.replayOf(probe, { phase: 'coverage', reproduce: `--seed ${x.settings.seed}` });
    x.tallyOf(SOURCES.coverage).counterexamples += await reportAttributed(x, shot.failures, replay, SOURCES.coverage);
  }
}

export async function coveragePhase(x: Explorer): Promise<void> {
  const b = x.settings.budget;
  await baselines(x);
  const cases = coverageDrafts({ writes: x.settings.writes, embedded: x.settings.embedded });
  // The coverage cases leave about a third of the budget to the generated and stateful parts.
  const n = Math.min(cases.length, Math.max(0, x.left() - Math.floor(b * 0.35)));
  let aborted: RunAborted | undefined;
  for (const d of affordable(cases, n, x.settings.seed)) {
    if (x.left() <= 0) break;
    const probe = x.materialize(d);
    const shot = await guarded(
      () => x.send(probe, SOURCES.coverage),
      (e) => (aborted = e),
    );
    if (!shot) break;
    x.tallyOf(SOURCES.coverage).cases++;
    x.forward(shot.findings);
    const replay = x.replayOf(probe, { phase: 'coverage', reproduce: `--seed ${x.settings.seed}` });
    const reported = await guarded(
      () => reportAttributed(x, shot.failures, replay, SOURCES.coverage),
      (e) => (aborted = e),
    );
    if (reported === undefined) break;
    x.tallyOf(SOURCES.coverage).counterexamples += reported;
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
    { cap: Math.max(0, x.left() - reserve), shrinkCap: 40, source: SOURCES.generated, phase: 'generated' },
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
    else
      x.session.sink.push({
        requirement: c.requirement,
        outcome: 'observe',
        title: 'Saved counterexample fixed',
        message: `${c.request} — saved ${c.firstSeen} for "${c.signature}" — no longer fails`,
        source: SOURCES.replay,
        replay: { ...replay, fixed: true },
      });
  }
  if (aborted) throw aborted;
}
