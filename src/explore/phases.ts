/**
 * The parts of the exploration phase, and the order a run takes them in (EXPLORATION_PHASES): saved counterexamples
 * replayed first, then the coverage cases, then generated requests, then the stateful parts (stateful.ts). Each part
 * spends a share of the phase's budget and leaves the rest to the parts after it. The order is this table's, not the
 * order of any file: conformance/exploration/phases.spec.ts declares one spec per entry, in this order.
 */
import { isRequirementId, judgeAny } from '../core/catalogue.ts';
import type { RunAborted } from '../http/client.ts';
import { requestCases, wholeRequestArb } from './request-forms.ts';
import { affordable, coverageDrafts, coverageReserve, type Room } from './coverage.ts';
import { Explorer, EXPLORE_TIME_MS, guarded, SOURCES, type Shot } from './explorer.ts';
import { isProblem, sameFailure } from './reporter.ts';
import { reportAttributed } from './attribution.ts';
import { hunt, type Attempt } from './hunt.ts';
import { probeOf, withoutKey, type Draft, type Probe } from './probe.ts';
import { isSafeMethod } from '../core/methods.ts';
import { operation } from './model.ts';
import { isPathSegment } from './classify.ts';
import { heldIdNearMisses } from './values.ts';
import { bulkReadBack, nothingStored, statefulPhase, storedPhase } from './stateful.ts';
import { runSequence } from './sequences.ts';
import { loadStore, storeKey, type SavedCounterexample } from './counterexample-store.ts';
import type { RequirementId } from '../core/catalogue.ts';
import type { TestContext } from '../harness/context.ts';

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

/**
 * The room each status's page had before the phase stored anything (its baseline page of 100): the coverage part spreads
 * the pets it creates over the statuses by it, so that every page stays short enough to prove a pet missing from it.
 */
function roomOf(shots: readonly (Shot & { probe: Probe })[]): Room | undefined {
  const room: Record<string, number> = {};
  for (const { probe, ex } of shots) {
    const status = probe.query?.status;
    if (status !== undefined && Array.isArray(ex.json)) room[status] = Number(probe.query?.limit ?? 100) - ex.json.length;
  }
  return Object.keys(room).length ? room : undefined;
}

/** The coverage cases a run sends: all of them when its budget affords them (every class of every dimension, in every run). */
function coverageCases(x: Explorer, room?: Room): { draft: Draft; probe: Probe }[] {
  const cases = coverageDrafts({ writes: x.settings.writes, embedded: x.settings.embedded, ...(room ? { room } : {}) });
  const n = Math.min(cases.length, Math.max(0, x.pace.left() - coverageReserve(x.settings.budget)));
  return affordable(cases, n, x.settings.seed).map((draft) => ({ draft, probe: x.materialize(draft) }));
}

/**
 * A failing case that carries several forms at once (a client's default headers): each form alone, until one fails
 * the same way — the minimal request is that one (a few requests, spent only on a failure).
 */
async function reduced(x: Explorer, draft: Draft, shot: Shot & { probe: Probe }): Promise<Shot & { probe: Probe }> {
  const forms = draft.forms ?? [];
  const fresh = shot.failures.find((f) => !x.reporter.isKnown(f));
  if (forms.length < 2 || !fresh) return shot;
  for (const form of forms) {
    if (x.pace.left() < 2) break;
    const one = await x.send(x.materialize({ ...draft, forms: [form] }), SOURCES.coverage);
    if (one.failures.some((g) => sameFailure(g, fresh))) return one;
  }
  return shot;
}

/** Report what a coverage case found, each new failure with what reproduces it. */
async function reportCase(x: Explorer, sent: Shot & { probe: Probe }, draft?: Draft): Promise<void> {
  x.reporter.forward(sent.findings);
  const shot = draft ? await reduced(x, draft, sent) : sent;
  const replay = x.reporter.replayOf(shot.probe, { phase: 'coverage', reproduce: `--seed ${x.settings.seed}` });
  x.pace.of(SOURCES.coverage).counterexamples += await reportAttributed(x, shot.failures, replay, SOURCES.coverage);
}

/**
 * The coverage cases that start from what the server holds, once the others are sent: each near miss of the first id
 * the run created (values.ts: heldIdNearMisses), within what the budget leaves to the coverage part.
 */
function heldCases(x: Explorer): { draft: Draft; probe: Probe }[] {
  const id = x.memory.held[0];
  if (id === undefined) return [];
  const n = Math.max(0, x.pace.left() - coverageReserve(x.settings.budget));
  return heldIdNearMisses(id)
    .filter(([, text]) => isPathSegment(text))
    .slice(0, n)
    .map(([label, petId]) => ({ op: 'getPet' as const, petId, label: `petId: a near miss of a held id, ${label}` }))
    .map((draft) => ({ draft, probe: x.materialize(draft) }));
}

/**
 * The coverage part: the baselines, then every coverage case in a fixed order, sent as many at a time as the server's
 * latency needs (Pace.width), each judged, each new failure reported with what reproduces it; then the cases that
 * start from what the server holds.
 */
export async function coveragePhase(x: Explorer): Promise<void> {
  const shots = (await x.sendAll(baselines(x), SOURCES.coverage)).filter((s) => s !== undefined);
  for (const shot of shots) await reportCase(x, shot);
  await coverageBatch(x, coverageCases(x, roomOf(shots)));
  await coverageBatch(x, requestCases(x));
  await coverageBatch(x, heldCases(x));
}

/** Send a batch of coverage cases and report each (a RunAborted after the cases sent are reported). */
async function coverageBatch(x: Explorer, cases: { draft: Draft; probe: Probe }[]): Promise<void> {
  let aborted: RunAborted | undefined;
  const shots = await guarded(
    () =>
      x.sendAll(
        cases.map((c) => c.probe),
        SOURCES.coverage,
      ),
    (e) => (aborted = e),
  );
  for (const [i, shot] of (shots ?? []).entries()) {
    if (!shot) continue;
    x.pace.of(SOURCES.coverage).cases++;
    const done = await guarded(
      () => reportCase(x, shot, cases[i].draft).then(() => true),
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
    wholeRequestArb(x.settings.writes),
    async (d) => {
      const probe = x.materialize(d);
      const shot = await x.send(probe, SOURCES.generated);
      return { probe, findings: shot.findings, failures: shot.failures };
    },
    // A third of the phase's time is left to the stateful part (its sequences go one request after another).
    {
      cap: Math.max(0, x.pace.left() - reserve),
      shrinkCap: 40,
      source: SOURCES.generated,
      phase: 'generated',
      keepTimeMs: EXPLORE_TIME_MS / 3,
    },
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

const writesWithKey = (p: SavedCounterexample['probe']): boolean => p.method !== undefined && !isSafeMethod(p.method) && !withoutKey(p);

export async function replayPhase(x: Explorer, saved: readonly SavedCounterexample[]): Promise<void> {
  const cap = Math.floor(x.settings.budget * 0.2);
  const start = x.pace.spent;
  let aborted: RunAborted | undefined;
  for (const c of saved) {
    if (x.pace.left() <= 0 || x.pace.spent - start >= cap) break;
    if ((c.probe.op === 'createPet' || c.before?.length) && !x.settings.writes) continue;
    // A method that could write, saved with the key: only when writes are allowed (without a valid key it is harmless).
    if (writesWithKey(c.probe) && !x.settings.writes) continue;
    const a = await guarded(
      () => replayOne(x, c),
      (e) => (aborted = e),
    );
    if (!a) break;
    x.pace.of(SOURCES.replay).cases++;
    const replay = x.reporter.replayOf(
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
    x.reporter.forward(a.findings);
    if (a.failures.some((f) => sameFailure(f, c))) x.pace.of(SOURCES.replay).counterexamples += x.reporter.report(a.failures, replay);
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

/** Counterexamples saved by earlier runs against this session's target (what an older suite saved that cannot be read is left out, and said). */
export function savedFor(t: TestContext): SavedCounterexample[] {
  const { saved, dropped } = loadStore(t.config.reportsDir, storeKey(t.session.opts.baseUrl, !!t.session.opts.embedded));
  if (dropped.length) t.session.notes.set('exploration-store', dropped.join(' '));
  return saved;
}

/** The requirements the phase's checks (checks.ts) and the check registry judge its requests by. */
export const INVARIANTS: readonly RequirementId[] = [
  'RESP-STATUS-DOCUMENTED',
  'CREATE-201-PET',
  'INPUT-NUMBER-PRECISION',
  'CREATE-400-MISSING-FIELD',
  'CREATE-400-WRONG-TYPE',
  'CREATE-400-BAD-STATUS',
  'CREATE-400-BAD-BODY',
  'LIST-200-PETS',
  'LIST-LIMIT-HONOURED',
  'LIST-LIMIT-OUT-OF-RANGE',
  'LIST-STATUS-FILTER',
  'LIST-STATUS-UNKNOWN-NO-5XX',
  'GET-404-UNKNOWN',
  'GET-NON-INTEGER-ID-4XX',
  'INPUT-SILENT-HANDLING',
  'HTTP-EQUIVALENT-FORMS',
  'RESP-CONTENT-CODING',
  'HYGIENE-JSON-EXTENSION',
];

/** One part of the phase as a spec test: its behaviour (the spec's name), title, requirements, and what it runs. */
export interface PhaseSpec {
  behaviour: string;
  title: string;
  requirements: readonly RequirementId[];
  writes?: boolean;
  run(x: Explorer, t: TestContext): Promise<void>;
}

/** The parts of the phase, in the order a run takes them. */
export const EXPLORATION_PHASES: readonly PhaseSpec[] = [
  {
    behaviour: 'counterexamples-replayed',
    title: 'Counterexamples saved by earlier runs against this target are replayed first, and each still fails or is reported fixed.',
    requirements: INVARIANTS,
    run: (x, t) => replayPhase(x, savedFor(t)),
  },
  {
    behaviour: 'coverage-values',
    title:
      "Every boundary and class value of every parameter and body field, and every example of the request's surface, is answered as the schema and the RFCs say: served when valid or equivalent, refused when invalid, never a 5xx.",
    requirements: INVARIANTS,
    run: coveragePhase,
  },
  {
    behaviour: 'generated-requests',
    title:
      'Generated valid and invalid requests to every operation, in any spelling the grammars allow, are answered as the schema and the RFCs say, and every failure is shrunk to a minimal replayable request.',
    requirements: INVARIANTS,
    run: generatedPhase,
  },
  {
    behaviour: 'stateful-round-trip',
    title: 'A createPet request the server refused stores nothing: no page of its status that lists every match shows it.',
    requirements: ['CREATE-400-NOTHING-STORED'],
    writes: true,
    run: storedPhase,
  },
  {
    behaviour: 'stateful-round-trip',
    title:
      'A created pet is found wherever a client can find it, exactly as sent: every pet the phase created, in bulk, then generated sequences of creates and reads.',
    requirements: [
      'CREATE-201-PET',
      'GET-ROUND-TRIP',
      'LIST-ROUND-TRIP',
      'LIST-COMPLETE-PAGE',
      'LIST-STATUS-FILTER',
      'INPUT-NUMBER-PRECISION',
      'INPUT-SILENT-HANDLING',
    ],
    writes: true,
    run: async (x) => {
      await bulkReadBack(x);
      await statefulPhase(x);
    },
  },
];
