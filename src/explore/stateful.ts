/**
 * The stateful part of the exploration phase: generated values travel through storage. Every pet the phase created is
 * looked for in bulk — on the page of the status it is listed under (the unfiltered one when it has none), and by its
 * id when a page showed it wrong, missed it or could not prove it absent, and one pet of each kind of input
 * (read-by-id.ts) — then generated sequences create pets and read
 * each back wherever a client can find it (sequences.ts, shrunk as sequences), and the creates the server refused must
 * have stored nothing.
 */
import type { Judgement } from '../core/sections/define.ts';
import { provesAbsence } from '../core/sections/list-pets/rules.ts';
import { getPet } from '../harness/ops.ts';
import type { ApiExchange, RunAborted } from '../http/client.ts';
import type { Replay } from '../results/types.ts';
import { sequenceArb } from './arbitraries.ts';
import { reportAttributed } from './attribution.ts';
import { Explorer, guarded, SOURCES } from './explorer.ts';
import { isProblem } from './reporter.ts';
import { hunt, type Attempt } from './hunt.ts';
import type { JNode } from './json-text.ts';
import { operation } from './model.ts';
import { judgeProbe, sentStatus } from './checks.ts';
import { probeOf, requestOf, type Probe } from './probe.ts';
import { listedBack, listingOf, readBack, storedVerdicts, type Created } from './readback.ts';
import { byIdOrder } from './read-by-id.ts';
import { listedStatus, listProbe, runSequence } from './sequences.ts';

const maxLimit = (): number => operation('listPets').params.find((p) => p.name === 'limit')!.schema.maximum ?? 100;

/** At most this many created pets are read back by id in bulk (which ones: read-by-id.ts). */
const BY_ID = 16;

/** What a page left to read by id: the pets it showed wrong or missed (first), and those it could not settle. */
interface Left {
  suspect: Created[];
  unsure: Created[];
}

/** Report what one page showed of the pets it should list; returns the pets to read back by id. */
function judgeListedPets(x: Explorer, pets: readonly Created[], ex: ApiExchange, what: string): Left {
  const max = maxLimit();
  const listing = listingOf(ex, max, x.session.largestPage(max), what);
  if (!listing) return { suspect: [], unsure: [...pets] };
  const left: Left = { suspect: [], unsure: [] };
  for (const pet of pets) {
    const found = x.reporter.capture(() => listedBack(pet, listing).forEach((v) => x.session.record(v, { source: SOURCES.stateful, ex })));
    // Not settled by the page, or missing from it or shown otherwise: read by its id too, which tells a list that
    // misses or alters a stored pet (the list's requirement) from a store that kept another pet than its 201 showed.
    if (found.some(isProblem)) left.suspect.push(pet);
    else if (!found.length && !provesAbsence(listing)) left.unsure.push(pet);
    x.reporter.forward(found);
    const replay = x.reporter.replayOf(pet.probe, { phase: 'stateful', reproduce: `--seed ${x.settings.seed}` }, 'stateful', max);
    x.pace.of(SOURCES.stateful).counterexamples += x.reporter.report(found.filter(isProblem), replay);
  }
  return left;
}

/** Read one page of `status` (undefined: unfiltered) and judge the pets it should show; the ones it could not settle. */
async function bulkPage(x: Explorer, status: string | undefined, pets: readonly Created[]): Promise<Left> {
  const max = maxLimit();
  const list = listProbe(x, status, max, 'read back');
  const shot = await x.exchange(requestOf(list), SOURCES.stateful, (ex) => judgeProbe(list, ex), list);
  x.reporter.forward(shot.findings);
  // A problem of the page itself (a stored pet breaking the list): reported with what reproduces it.
  const pageReplay = x.reporter.replayOf(list, { phase: 'stateful', reproduce: `--seed ${x.settings.seed}` });
  x.pace.of(SOURCES.stateful).counterexamples += await reportAttributed(x, shot.failures, pageReplay, SOURCES.stateful);
  return judgeListedPets(x, pets, shot.ex, new URLSearchParams(list.query).toString());
}

/** A created pet read back by its id (GET-ROUND-TRIP). */
async function byId(x: Explorer, c: Created): Promise<void> {
  const get = probeOf({ op: 'getPet', petId: c.id }, 'read back by id', x.naming.plainLength);
  const shot = await x.exchange(getPet(c.id), SOURCES.stateful, (ex) => readBack(c, ex), get);
  x.reporter.forward(shot.findings);
  const replay = x.reporter.replayOf(c.probe, { phase: 'stateful', reproduce: `--seed ${x.settings.seed}` }, 'stateful', maxLimit());
  x.pace.of(SOURCES.stateful).counterexamples += x.reporter.report(shot.failures, replay);
}

/** Every pet the phase created so far, looked for in bulk: on its status's page (or the unfiltered one), and some by id. */
export async function bulkReadBack(x: Explorer): Promise<void> {
  const groups = new Map<string | undefined, Created[]>();
  for (const c of x.memory.created) groups.set(listedStatus(c), [...(groups.get(listedStatus(c)) ?? []), c]);
  let aborted: RunAborted | undefined;
  const suspect: Created[] = [];
  const unsure: Created[] = [];
  for (const [status, pets] of groups) {
    if (x.pace.left() <= 0) break;
    const left = await guarded(
      () => bulkPage(x, status, pets),
      (e) => (aborted = e),
    );
    if (!left) break;
    suspect.push(...left.suspect);
    unsure.push(...left.unsure);
  }
  // Read by id as many at a time as the phase sends (a slow server costs seconds).
  const reads = aborted ? [] : byIdOrder(suspect, unsure, x.memory.created, BY_ID);
  for (let i = 0; i < reads.length && !aborted;) {
    const n = Math.min(x.pace.width(), reads.length - i, x.pace.left());
    if (n <= 0) break;
    await Promise.all(
      reads.slice(i, i + n).map((c) =>
        guarded(
          () => byId(x, c),
          (e) => (aborted = e),
        ),
      ),
    );
    i += n;
  }
  x.memory.created.length = 0;
  if (aborted) throw aborted;
}

/** Generated sequences of creates and reads (sequences.ts), shrunk as sequences. */
export function statefulPhase(x: Explorer): Promise<void> {
  const op = operation('createPet');
  const limit = operation('listPets').params.find((p) => p.name === 'limit')!.schema;
  const run = (v: { pets: JNode[]; limit: number }) =>
    runSequence(
      x,
      v.pets.map((body) => x.materialize({ op: 'createPet', body, label: 'a stored sequence' })),
      v.limit,
    );
  return hunt(x, sequenceArb(op.body!, limit), run, {
    cap: Math.max(0, x.pace.left() - 4),
    shrinkCap: 160,
    source: SOURCES.stateful,
    phase: 'stateful',
  });
}

/**
 * The refused creates whose name no other create of the phase carried: a pet listed under such a name is the refused
 * create stored. A name without the run's prefix (one that wholly spells another value, on the suite's own server)
 * may come again in another create, which the server may store rightly: listed, it proves nothing.
 */
export function ownNames(writes: readonly { probe: Probe }[], refused: readonly Probe[]): Probe[] {
  const carriers = new Map<string, Set<Probe>>();
  for (const { probe } of writes)
    if (probe.name !== undefined) carriers.set(probe.name, (carriers.get(probe.name) ?? new Set()).add(probe));
  return refused.filter((p) => [...(carriers.get(p.name!) ?? [])].every((q) => q === p));
}

/**
 * CREATE-400-NOTHING-STORED: no refused create shows up on a page of its status that lists every match. A refused
 * create that sent no valid status would have the server's default status, which the spec does not show: it is looked
 * for on the unfiltered page, and when that page cannot prove it absent (a store of a hundred animals or more), on the
 * page of every status (each shorter than the unfiltered page: they prove it, together).
 */
export async function nothingStored(x: Explorer, refused: readonly Probe[], source: string): Promise<Attempt[]> {
  const statuses = (operation('listPets').params.find((p) => p.name === 'status')!.schema.enum ?? []).map(String);
  const groups = new Map<string | undefined, Probe[]>();
  for (const p of ownNames(x.memory.writes, refused)) {
    const st = sentStatus(p);
    const key = st !== undefined && statuses.includes(st) ? st : undefined;
    groups.set(key, [...(groups.get(key) ?? []), p]);
  }
  const out: Attempt[] = [];
  for (const [status, probes] of groups) {
    const attempt = await storedOnPages(x, probes, status === undefined ? [undefined, ...statuses] : [status], source);
    if (attempt) out.push(attempt);
  }
  return out;
}

/**
 * The refused creates `probes` looked for on the pages of `pages` (undefined: the unfiltered page) in order, until one
 * lists them or proves them absent — the unfiltered page, or a status's page when it is the only one asked — or every
 * status's page has proved them absent together.
 */
async function storedOnPages(
  x: Explorer,
  probes: readonly Probe[],
  pages: readonly (string | undefined)[],
  source: string,
): Promise<Attempt | undefined> {
  const max = maxLimit();
  const byStatus = pages.filter((p): p is string => p !== undefined);
  let hit: Probe | undefined;
  let settled = false;
  let proved = 0;
  const findings: Attempt['findings'] = [];
  const failures: Attempt['failures'] = [];
  for (const status of pages) {
    if (x.pace.left() <= 0 || hit || settled) break;
    const list = listProbe(x, status, max, 'refused creates');
    const judge = (ex: ApiExchange): Judgement[] => {
      const listing = listingOf(ex, max, x.session.largestPage(max), new URLSearchParams(list.query).toString());
      if (!listing) return [];
      const alone = status === undefined || byStatus.length === 1;
      const absent = provesAbsence(listing);
      if (absent && status !== undefined) proved++;
      const r = storedVerdicts(listing, probes, alone ? status : `${byStatus.join(', ')} (each page)`);
      hit = r.hit;
      settled = !!hit || (absent && (alone || proved === byStatus.length));
      return settled ? r.verdicts : [];
    };
    const shot = await x.exchange(requestOf(list), source, judge);
    findings.push(...shot.findings);
    failures.push(...shot.failures);
  }
  return findings.length || failures.length || hit ? { probe: hit ?? probes[0], findings, failures, kind: 'stored' } : undefined;
}

export async function storedPhase(x: Explorer): Promise<void> {
  const replay = (p: Probe): Replay => x.reporter.replayOf(p, { phase: 'stateful', reproduce: `--seed ${x.settings.seed}` }, 'stored');
  for (const a of await nothingStored(x, x.memory.refused, SOURCES.stateful)) {
    x.reporter.forward(a.findings);
    x.pace.of(SOURCES.stateful).counterexamples += x.reporter.report(a.failures, replay(a.probe));
  }
}
