/**
 * The stateful part of the exploration phase: generated values travel through
 * storage. Every pet the phase created is read back in bulk, then generated
 * pets go create → getPet → the list of their status (shrunk like any other
 * failure), and the creates the server refused must have stored nothing.
 */
import type { Judgement } from '../core/judgement.ts';
import { petAt } from '../core/spec/pets.ts';
import { exactInteger, getPet } from '../harness/ops.ts';
import type { ApiExchange, RunAborted } from '../http/client.ts';
import type { Replay } from '../results/types.ts';
import { statefulArb } from './arbitraries.ts';
import { Explorer, guarded, isProblem, signature, SOURCES } from './engine.ts';
import { attribute } from './attribution.ts';
import { hunt, type Attempt } from './hunt.ts';
import type { JNode } from './jtext.ts';
import { operation } from './model.ts';
import { judgeProbe, sentStatus } from './oracle.ts';
import { probeOf, requestOf, type Probe } from './probe.ts';
import { listedBack, listingOf, readBack, storedVerdicts, type Created } from './readback.ts';

const maxLimit = (): number => operation('listPets').params.find((p) => p.name === 'limit')!.schema.maximum ?? 100;

/** The listPets probe of a status's page of `limit` animals (no status: the unfiltered list). */
const listProbe = (x: Explorer, status: string | undefined, limit: number, label: string): Probe =>
  probeOf({ op: 'listPets', query: { ...(status ? { status } : {}), limit: String(limit) } }, label, x.naming.plainLength);

/**
 * Every pet the phase created so far, read back in bulk: one page of the largest size per status, each created pet
 * on it judged by the core's rules (LIST-ROUND-TRIP; LIST-COMPLETE-PAGE on a page that can prove it absent).
 */
export async function bulkReadBack(x: Explorer): Promise<void> {
  const max = maxLimit();
  const groups = new Map<string, Created[]>();
  for (const c of x.created) {
    const st = sentStatus(c.probe);
    if (st !== undefined) groups.set(st, [...(groups.get(st) ?? []), c]);
  }
  let aborted: RunAborted | undefined;
  for (const [status, pets] of groups) {
    if (x.left() <= 0) break;
    const list = listProbe(x, status, max, 'read back');
    const shot = await guarded(
      () => x.exchange(requestOf(list), SOURCES.stateful, (ex) => judgeProbe(list, ex)),
      (e) => (aborted = e),
    );
    if (!shot) break;
    x.forward(shot.findings);
    // A problem of the page itself (a stored pet breaking the list): reported with what reproduces it.
    const fresh = shot.failures.find((f) => !x.known.has(signature(f)));
    const attribution =
      fresh &&
      (await guarded(
        () => attribute(x, fresh, SOURCES.stateful),
        (e) => (aborted = e),
      ));
    const pageReplay = x.replayOf(list, { phase: 'stateful', reproduce: `--seed ${x.settings.seed}` });
    x.tallyOf(SOURCES.stateful).counterexamples += x.reportFailures(shot.failures, pageReplay, attribution ?? undefined);
    const listing = listingOf(shot.ex, max, x.session.largestPage(max), `status=${status}&limit=${max}`);
    for (const pet of listing ? pets : []) {
      const found = x.capture(() =>
        listedBack(pet, listing!).forEach((v) => x.session.record(v, { source: SOURCES.stateful, ex: shot.ex })),
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
  const shot = await x.send(probe, source);
  const findings = [...shot.findings];
  const id = shot.ex.response?.status === 201 ? exactInteger(shot.ex, '/id') : undefined;
  if (id !== undefined) {
    const c: Created = { probe, id, created: petAt(shot.ex.json) ?? {} };
    findings.push(...(await x.exchange(getPet(id), source, (ex) => readBack(c, ex))).findings);
    const status = sentStatus(probe);
    const list = listProbe(x, status, limit, 'read back');
    const what = new URLSearchParams(list.query).toString();
    const judge = (ex: ApiExchange): Judgement[] => {
      const listing = listingOf(ex, limit, x.session.largestPage(limit), what);
      return [...judgeProbe(list, ex), ...(listing ? listedBack(c, listing) : [])];
    };
    findings.push(...(await x.exchange(requestOf(list), source, judge)).findings);
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

/** CREATE-400-NOTHING-STORED: no refused create shows up on a page of its status that lists every match. */
export async function nothingStored(x: Explorer, refused: readonly Probe[], source: string): Promise<Attempt[]> {
  const statuses = (operation('listPets').params.find((p) => p.name === 'status')!.schema.enum ?? []).map(String);
  const groups = new Map<string | undefined, Probe[]>();
  for (const p of refused) {
    const st = sentStatus(p);
    const key = st !== undefined && statuses.includes(st) ? st : undefined;
    groups.set(key, [...(groups.get(key) ?? []), p]);
  }
  const out: Attempt[] = [];
  const max = maxLimit();
  for (const [status, probes] of groups) {
    if (x.left() <= 0) break;
    const list = listProbe(x, status, max, 'refused creates');
    let hit: Probe | undefined;
    const judge = (ex: ApiExchange): Judgement[] => {
      const listing = listingOf(ex, max, x.session.largestPage(max), new URLSearchParams(list.query).toString());
      const r = listing ? storedVerdicts(listing, probes, status) : { verdicts: [] };
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
