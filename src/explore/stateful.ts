/**
 * The stateful part of the exploration phase: generated values travel through
 * storage. Every pet the phase created is read back in bulk, then generated
 * pets go create → getPet → the list of their status (shrunk like any other
 * failure), and the creates the server refused must have stored nothing.
 */
import type { Judgement } from '../core/judgement.ts';
import { exactInteger, getPet } from '../harness/ops.ts';
import type { ApiExchange, RunAborted } from '../http/client.ts';
import type { Replay } from '../results/types.ts';
import { statefulArb } from './arbitraries.ts';
import { Explorer, guarded, isProblem, SOURCES } from './engine.ts';
import { hunt, type Attempt } from './hunt.ts';
import type { JNode } from './jtext.ts';
import { operation } from './model.ts';
import { judgeProbe, sentFields } from './oracle.ts';
import { probeOf, requestOf, type Probe } from './probe.ts';
import { listedBack, readBack, storedVerdicts } from './readback.ts';

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
        listedBack(sentFields(pet.probe), shot.ex, pet.id, max).forEach((v) =>
          x.session.record(v, { source: SOURCES.stateful, ex: shot.ex }),
        ),
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
    { cap: Math.max(0, x.left() - 4), shrinkCap: 90, source: SOURCES.stateful, phase: 'stateful' },
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
    const judge = (ex: ApiExchange): Judgement[] => {
      const r = storedVerdicts(ex, probes, status);
      hit = r.hit;
      return r.verdicts;
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
