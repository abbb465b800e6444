/**
 * The parts of the exploration phase, in the order a run takes them: saved
 * counterexamples replayed first, then the coverage cases, then generated
 * requests, then the stateful round trips (create → getPet → the status's
 * list) and the check that refused creates stored nothing. Each part spends a
 * share of the phase's budget and leaves the rest to the parts after it.
 */
import { getPet } from '../harness/ops.ts';
import { exactInteger } from '../harness/ops.ts';
import type { Replay } from '../results/types.ts';
import { requestArb, statefulArb } from './arbitraries.ts';
import { affordable, coverageDrafts } from './coverage.ts';
import { Explorer, guarded, signature } from './engine.ts';
import { hunt, type Attempt } from './hunt.ts';
import type { JNode } from './jtext.ts';
import { operation } from './model.ts';
import { judgeProbe, petDiffs, sentFields, type Sent, type Verdict } from './oracle.ts';
import { probeOf, requestOf, type Probe } from './probe.ts';
import type { SavedCounterexample } from './store.ts';
import type { ApiExchange } from '../http/client.ts';
import { isObject } from '../harness/ops.ts';
import type { RunAborted } from '../http/client.ts';

export const SOURCES = {
  replay: 'explore: replayed',
  coverage: 'explore: coverage',
  generated: 'explore: generated',
  stateful: 'explore: stateful',
} as const;

const isProblem = (f: { outcome: string }) => f.outcome === 'fail' || f.outcome === 'warn';

export async function coveragePhase(x: Explorer): Promise<void> {
  const b = x.settings.budget;
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
    x.tallyOf(SOURCES.coverage).counterexamples += x.reportFailures(
      shot.failures,
      x.replayOf(probe, { phase: 'coverage', reproduce: `--seed ${x.settings.seed}` }),
    );
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

/** GET-ROUND-TRIP: the created pet, read back by its id, is exactly what was sent. */
function readBack(sent: Sent, ex: ApiExchange, id: string): Verdict[] {
  const s = ex.response?.status;
  if (!s || s === 401 || s === 429) return [];
  const shown = `GET /pets/${id}`;
  if (s !== 200)
    return [
      {
        requirement: 'GET-ROUND-TRIP',
        outcome: 'fail',
        title: s === 404 ? 'Created pet not found' : 'Created pet not read back',
        message: `${shown}: ${s}`,
        expected: '200',
        actual: String(s),
      },
    ];
  const { diffs } = petDiffs(sent, ex, '', id);
  return diffs.length
    ? [
        {
          requirement: 'GET-ROUND-TRIP',
          outcome: 'fail',
          title: 'Created pet reads back differently',
          message: `${shown}: ${diffs.join('; ')}`,
          expected: 'the sent fields',
          actual: diffs.join('; '),
        },
      ]
    : [{ requirement: 'GET-ROUND-TRIP', outcome: 'pass', title: 'Created pet reads back exactly', message: shown }];
}

/** LIST-STATUS-FILTER: a complete page of the pet's status lists it, exactly as created. */
function listedBack(sent: Sent, ex: ApiExchange, id: string, limit: number): Verdict[] {
  if (ex.response?.status !== 200 || !Array.isArray(ex.json)) return [];
  const page = ex.json;
  const at = page.findIndex((_, i) => exactInteger(ex, `/${i}/id`) === id);
  const what = `status=${String(sent.status)}&limit=${limit}`;
  if (at < 0)
    return page.length < limit
      ? [
          {
            requirement: 'LIST-STATUS-FILTER',
            outcome: 'fail',
            title: 'Complete filtered page misses the created pet',
            message: `${what}: ${page.length} animals, not pet ${id}`,
            expected: `pet ${id} listed`,
            actual: `${page.length} animals without it`,
          },
        ]
      : [];
  const { diffs } = petDiffs(sent, ex, `/${at}`, id);
  return diffs.length
    ? [
        {
          requirement: 'LIST-STATUS-FILTER',
          outcome: 'fail',
          title: 'Listed pet differs from the created one',
          message: `${what}: ${diffs.join('; ')}`,
          expected: 'the sent fields',
          actual: diffs.join('; '),
        },
      ]
    : [{ requirement: 'LIST-STATUS-FILTER', outcome: 'pass', title: 'Created pet listed exactly under its status', message: what }];
}

/**
 * Every pet the phase created so far, read back in bulk: one page of the
 * largest size per status, each created pet on it compared field by field
 * (LIST-STATUS-FILTER), and a complete page that misses one is a failure.
 */
export async function bulkReadBack(x: Explorer): Promise<void> {
  const max = operation('listPets').params.find((p) => p.name === 'limit')!.schema.maximum ?? 100;
  const groups = new Map<string, { probe: Probe; id: string }[]>();
  for (const c of x.created) {
    const st = sentFields(c.probe).status;
    if (typeof st === 'string') groups.set(st, [...(groups.get(st) ?? []), c]);
  }
  let aborted: RunAborted | undefined;
  for (const [status, pets] of groups) {
    if (x.left() <= 0) break;
    const list = probeOf({ op: 'listPets', query: { status, limit: String(max) } }, 'read back', x.naming.plainLength);
    const shot = await guarded(
      () => x.exchange(requestOf(list), SOURCES.stateful, (ex) => judgeProbe(list, ex)),
      (e) => (aborted = e),
    );
    if (!shot) break;
    x.forward(shot.findings);
    for (const pet of pets) {
      const found = x.capture(() =>
        listedBack(sentFields(pet.probe), shot.ex, pet.id, max).forEach((v) => x.verdict(v, SOURCES.stateful, shot.ex)),
      );
      x.forward(found);
      const replay = x.replayOf(pet.probe, { phase: 'stateful', reproduce: `--seed ${x.settings.seed}` }, 'stateful', max);
      x.tallyOf(SOURCES.stateful).counterexamples += x.reportFailures(found.filter(isProblem), replay);
    }
  }
  x.created.length = 0;
  if (aborted) throw aborted;
}

/** Create a pet, then read it back by id and in its status's list. */
export async function roundTrip(x: Explorer, probe: Probe, limit: number, source: string): Promise<Attempt> {
  const created = await x.send(probe, source);
  const findings = [...created.findings];
  const id = created.ex.response?.status === 201 ? exactInteger(created.ex, '/id') : undefined;
  if (id !== undefined) {
    const sent = sentFields(probe);
    findings.push(...(await x.exchange(getPet(id), source, (ex) => readBack(sent, ex, id))).findings);
    const status = typeof sent.status === 'string' ? sent.status : undefined;
    const list = probeOf(
      { op: 'listPets', query: { ...(status ? { status } : {}), limit: String(limit) } },
      'read back',
      x.naming.plainLength,
    );
    findings.push(
      ...(await x.exchange(requestOf(list), source, (ex) => [...judgeProbe(list, ex), ...listedBack(sent, ex, id, limit)])).findings,
    );
  }
  return { probe, findings, failures: findings.filter(isProblem), kind: 'stateful', limit };
}

export function statefulPhase(x: Explorer): Promise<void> {
  const op = operation('createPet');
  const limit = operation('listPets').params.find((p) => p.name === 'limit')!.schema;
  return hunt(
    x,
    statefulArb(op.body!, limit),
    (v: { body: JNode; limit: number }) =>
      roundTrip(x, x.materialize({ op: 'createPet', body: v.body, label: 'stateful' }), v.limit, SOURCES.stateful),
    { cap: Math.max(0, x.left() - 4), shrinkCap: 60, source: SOURCES.stateful, phase: 'stateful' },
  );
}

/** CREATE-400-NOTHING-STORED: no refused create shows up in a complete page of its status. */
export async function nothingStored(x: Explorer, refused: readonly Probe[], source: string): Promise<Attempt[]> {
  const statuses = (operation('listPets').params.find((p) => p.name === 'status')!.schema.enum ?? []).map(String);
  const groups = new Map<string | undefined, Probe[]>();
  for (const p of refused) {
    const st = sentFields(p).status;
    const key = typeof st === 'string' && statuses.includes(st) ? st : undefined;
    groups.set(key, [...(groups.get(key) ?? []), p]);
  }
  const out: Attempt[] = [];
  for (const [status, probes] of groups) {
    if (x.left() <= 0) break;
    const list = probeOf(
      { op: 'listPets', query: { ...(status ? { status } : {}), limit: '100' } },
      'refused creates',
      x.naming.plainLength,
    );
    let hit: Probe | undefined;
    const judge = (ex: ApiExchange): Verdict[] => {
      const page = ex.response?.status === 200 && Array.isArray(ex.json) ? ex.json : undefined;
      if (!page) return [];
      const names = new Map(probes.map((p) => [p.name, p]));
      const found = page.filter((item) => isObject(item) && typeof item.name === 'string' && names.has(item.name));
      hit = found.length ? names.get((found[0] as { name: string }).name) : undefined;
      if (hit)
        return [
          {
            requirement: 'CREATE-400-NOTHING-STORED',
            outcome: 'fail',
            title: 'A refused createPet was stored anyway',
            message: `${found.length} pet(s) of ${probes.length} refused createPet request(s) listed, e.g. ${JSON.stringify(hit.name)} (${hit.why})`,
            expected: 'no refused pet listed',
            actual: `${found.length} listed`,
          },
        ];
      if (page.length < 100)
        return [
          {
            requirement: 'CREATE-400-NOTHING-STORED',
            outcome: 'pass',
            title: 'No refused createPet was stored',
            message: `${probes.length} refused, none in a complete page${status ? ` of status ${status}` : ''}`,
          },
        ];
      return [];
    };
    const shot = await x.exchange(requestOf(list), source, judge);
    out.push({ probe: hit ?? probes[0], findings: shot.findings, failures: shot.failures, kind: 'stored' });
  }
  return out;
}

export async function storedPhase(x: Explorer): Promise<void> {
  const replay = (p: Probe): Replay => x.replayOf(p, { phase: 'stateful', reproduce: `--seed ${x.settings.seed}` }, 'stored');
  for (const a of await nothingStored(x, x.refused, SOURCES.stateful)) {
    x.forward(a.findings);
    x.tallyOf(SOURCES.stateful).counterexamples += x.reportFailures(a.failures, replay(a.probe));
  }
}

/** A saved counterexample, replayed as it was saved. */
async function replayOne(x: Explorer, c: SavedCounterexample): Promise<Attempt> {
  const probe = probeOf(c.probe, `saved ${c.firstSeen}`, x.naming.plainLength);
  if (c.probe.kind === 'stateful') return roundTrip(x, probe, c.probe.limit ?? 100, SOURCES.replay);
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
    if (c.probe.op === 'createPet' && !x.settings.writes) continue;
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
