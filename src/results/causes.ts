/**
 * One finding per cause (issue 30 §3): a run's failures and warnings grouped by what caused them, so that a report
 * shows each bug once, with every requirement it breaks and one reproduction — a list answering 500 is one cause, not
 * five failed requirements.
 *
 * 1. Units. The findings about one exchange (the request and the response their evidence records, every response
 *    check's and the spec test's alike) are one unit, and so are those a producer gave the same `cause.key` (the
 *    exploration: a request, or a stored-state sequence). A load scenario's findings are one unit only when they judge
 *    the same request of the same run (an early 429 breaks RL-NOT-EARLY and RL-CEILING-429): a scenario's
 *    requirements are otherwise independent of one another.
 * 2. The primary of a unit names the bug: a transport failure, then an undocumented status (a 5xx), a body that is no
 *    JSON, a schema violation, then what a spec test found; a failure before a warning (`rankOf`).
 * 3. Consequences. When the primary says the response itself is broken (rank 3 or less, or a 5xx), everything else
 *    found on it follows from that (an error page's content type, its missing rate-limit headers). Otherwise the spec
 *    tests' findings on the same request stay with the primary, and the properties every response is checked for
 *    (content type, Error fields, rate-limit headers, deprecation, hygiene) are causes of their own: one cause, one bug.
 * 4. Causes. Units whose primaries fail the same way are one cause: the same undocumented status (or 5xx) to the same
 *    operation, or the same requirement and title (titles are stable, never a value). Its id is a hash of that
 *    signature, so the same failure has the same id in every run (the run-to-run comparison names causes by it).
 */
import { levelOf } from '../core/catalogue.ts';
import type { Level } from '../core/sections/define.ts';
import {
  causeId,
  exchangeKey,
  pathTemplate,
  rankOf,
  requestKey,
  requestLine,
  scenarioOf,
  SPEC_RANK,
  undocumentedSuccess,
} from './cause-keys.ts';
import type { CauseRequirement, CauseResult, Finding } from './types.ts';

/** The order of levels in a cause's list of requirements. */
const LEVELS: readonly Level[] = ['MUST', 'SHOULD', 'INFO', 'ADVISORY'];

/** How many other requests a cause names besides its representative. */
const SEEN_ON = 5;

interface Item {
  f: Finding;
  /** Its place in the stream (ties are broken by it: the first found first). */
  i: number;
  rank: number;
}

interface Member {
  item: Item;
  consequence: boolean;
}

/** A unit: a primary and the findings that go with it. */
interface Unit {
  primary: Item;
  members: Member[];
  signature: string;
}

const isProblem = (f: Finding) => f.outcome === 'fail' || f.outcome === 'warn';
const isLoad = (f: Finding) => f.source.startsWith('load: ');

const statusOf = (f: Finding) => f.evidence?.response?.status;

/** The response is broken as a whole: what else is found on it follows from it. */
function breaksResponse(p: Item): boolean {
  const status = statusOf(p.f) ?? 0;
  const q = p.f.evidence?.request;
  return p.rank <= 3 || status >= 500 || (!!q?.url && undocumentedSuccess(q.method ?? 'GET', q.url, status));
}

/** What groups units into one cause. */
function signatureOf(p: Finding, rank: number): string {
  const status = statusOf(p);
  const q = p.evidence?.request;
  const method = q?.method ?? 'GET';
  // An undocumented status names the bug, whether or not its own finding is among these (the exploration reports
  // each requirement and title once: a later probe answered the same way shows only what else it broke).
  if (!isLoad(p) && q?.url && status !== undefined && (rank === 1 || status >= 500 || undocumentedSuccess(method, q.url, status)))
    return `http ${status} ${method} ${pathTemplate(q.url)}`;
  return `${p.requirement} · ${p.title}`;
}

/** A tiny union-find over string nodes. */
class Groups {
  private readonly parent = new Map<string, string>();
  find(x: string): string {
    let r = x;
    while (this.parent.has(r) && this.parent.get(r) !== r) r = this.parent.get(r)!;
    this.parent.set(x, r);
    return r;
  }
  union(a: string, b: string): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra !== rb) this.parent.set(rb, ra);
  }
}

/** The findings of one exchange or one producer's key together; every other finding alone. */
function partition(items: readonly Item[]): Item[][] {
  const g = new Groups();
  const nodeOf = (it: Item): string => {
    const self = `f:${it.i}`;
    // A scenario's findings about one of its requests (an early 429 breaks RL-NOT-EARLY and RL-CEILING-429) are one.
    const at = it.f.evidence?.at;
    if (isLoad(it.f)) {
      if (at) g.union(self, `l:${it.f.source}#${at.request}`);
      return self;
    }
    const ex = exchangeKey(it.f.evidence);
    if (ex !== undefined) g.union(self, `x:${ex}`);
    if (it.f.cause?.key) g.union(self, `k:${it.f.cause.key}`);
    return self;
  };
  const nodes = items.map(nodeOf);
  const out = new Map<string, Item[]>();
  items.forEach((it, n) => {
    const root = g.find(nodes[n]);
    const list = out.get(root);
    if (list) list.push(it);
    else out.set(root, [it]);
  });
  return [...out.values()];
}

/** The primary first: what a producer did not mark a consequence, then by rank, a failure before a warning, the first found. */
function byPrimacy(a: Item, b: Item): number {
  const c = (x: Item) => (x.f.cause?.consequence ? 1 : 0);
  const o = (x: Item) => (x.f.outcome === 'fail' ? 0 : 1);
  return c(a) - c(b) || a.rank - b.rank || o(a) - o(b) || a.i - b.i;
}

/** A group split into units: its primary with what follows from it or goes with it, and the independent findings alone. */
function unitsOf(group: readonly Item[]): Unit[] {
  const [primary, ...rest] = [...group].sort(byPrimacy);
  // A scenario's judgements of one request are views of one response: each its own requirement, none a consequence.
  if (isLoad(primary.f))
    return [
      {
        primary,
        members: [primary, ...rest].map((item) => ({ item, consequence: false })),
        signature: signatureOf(primary.f, primary.rank),
      },
    ];
  const broken = breaksResponse(primary);
  const members: Member[] = [{ item: primary, consequence: false }];
  const alone: Unit[] = [];
  for (const item of rest) {
    const marked = item.f.cause?.consequence === true;
    if (marked || broken) members.push({ item, consequence: true });
    else if (item.rank <= SPEC_RANK || item.f.cause?.key) members.push({ item, consequence: false });
    else alone.push({ primary: item, members: [{ item, consequence: false }], signature: signatureOf(item.f, item.rank) });
  }
  return [{ primary, members, signature: signatureOf(primary.f, primary.rank) }, ...merged(alone)];
}

/** Units of the same signature, found apart on one exchange, as one. */
function merged(units: readonly Unit[]): Unit[] {
  const by = new Map<string, Unit>();
  for (const u of units) {
    const known = by.get(u.signature);
    if (known) known.members.push(...u.members);
    else by.set(u.signature, { ...u, members: [...u.members] });
  }
  return [...by.values()];
}

/**
 * The unit that names and reproduces the cause: among those whose primary names it best (the lowest rank: the
 * undocumented status rather than a spec test's view of it), one the exploration established a replay for, else the
 * shortest request, else the first found.
 */
function representative(units: readonly Unit[]): Unit {
  const best = [...units].sort((a, b) => byPrimacy(a.primary, b.primary))[0].primary;
  const score = (u: Unit) => [u.primary.f.replay ? 0 : 1, (requestLine(u.primary.f) ?? '').length, u.primary.i];
  return units
    .filter((u) => u.primary.rank === best.rank && u.primary.f.requirement === best.f.requirement)
    .sort((a, b) => {
      const [x, y] = [score(a), score(b)];
      return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
    })[0];
}

/** The cause in words: the producer's, else the status and request, else the primary's title and request. */
function titleOf(u: Unit): string {
  const f = u.primary.f;
  if (f.cause?.title) return f.cause.title;
  const line = requestLine(f);
  if (u.signature.startsWith('http ') && line) return `HTTP ${statusOf(f)} to ${line}`;
  if (isLoad(f)) return `${f.title} (the ${scenarioOf(f.source) ?? 'rate-limit'} scenario)`;
  return line ? `${f.title} (${line})` : f.title;
}

/**
 * Each requirement of a cause once: failed if any of its findings failed a MUST; a consequence only if every one is —
 * and, for an undocumented status or a 5xx, every requirement but the primary's: they follow from that status.
 */
function requirementsOf(members: readonly Member[], first: string, statusKind: boolean): CauseRequirement[] {
  const by = new Map<string, CauseRequirement & { rank: number }>();
  for (const m of members) {
    const { item } = m;
    const consequence = m.consequence || (statusKind && item.f.requirement !== first);
    const level = levelOf(item.f.requirement);
    const status = item.f.outcome === 'fail' && level === 'MUST' ? 'fail' : 'warn';
    const known = by.get(item.f.requirement);
    if (!known) by.set(item.f.requirement, { id: item.f.requirement, level, status, consequence, rank: item.rank });
    else {
      if (status === 'fail') known.status = 'fail';
      known.consequence &&= consequence;
    }
  }
  const order = (r: CauseRequirement & { rank: number }) => [
    r.id === first ? 0 : 1,
    r.consequence ? 1 : 0,
    LEVELS.indexOf(r.level),
    r.rank,
  ];
  return [...by.values()]
    .sort((a, b) => {
      const [x, y] = [order(a), order(b)];
      return x[0] - y[0] || x[1] - y[1] || x[2] - y[2] || x[3] - y[3] || a.id.localeCompare(b.id);
    })
    .map(({ rank: _rank, ...r }) => r);
}

/** One cause from the units of one signature. */
function causeOf(signature: string, units: readonly Unit[]): CauseResult {
  const rep = representative(units);
  const members = units.flatMap((u) => u.members);
  const requirements = requirementsOf(members, rep.primary.f.requirement, signature.startsWith('http '));
  const lines = new Set(units.filter((u) => u !== rep).map((u) => requestLine(u.primary.f)));
  lines.delete(undefined);
  lines.delete(requestLine(rep.primary.f));
  return {
    id: causeId(signature),
    title: titleOf(rep),
    signature,
    status: requirements.some((r) => r.status === 'fail') ? 'fail' : 'warn',
    requirements,
    requests: units.length,
    findings: members.length,
    seenOn: [...lines].slice(0, SEEN_ON) as string[],
    primary: rep.primary.f,
  };
}

/** Failing causes first, then those that break the most requirements, then by id. */
export function byWeight(a: CauseResult, b: CauseResult): number {
  const w = { fail: 0, warn: 1, waived: 2 } as const;
  return w[a.status] - w[b.status] || b.requirements.length - a.requirements.length || a.id.localeCompare(b.id);
}

export interface Grouped {
  causes: CauseResult[];
  /** The findings as given, each failure and warning with its `cause` (the report's cause id among it). */
  findings: Finding[];
}

/** The failures and warnings of `findings` grouped by cause (the module's comment says how). */
export function groupCauses(findings: readonly Finding[]): Grouped {
  const items: Item[] = [];
  findings.forEach((f, i) => {
    if (isProblem(f)) items.push({ f, i, rank: rankOf(f.requirement) });
  });
  const bySignature = new Map<string, Unit[]>();
  for (const u of partition(items).flatMap(unitsOf)) {
    const list = bySignature.get(u.signature);
    if (list) list.push(u);
    else bySignature.set(u.signature, [u]);
  }
  const annotated = [...findings];
  const causes = [...bySignature.entries()].map(([signature, units]) => {
    const c = causeOf(signature, units);
    const first = c.requirements[0].id;
    for (const { item, consequence } of units.flatMap((u) => u.members)) {
      const follows = consequence || (signature.startsWith('http ') && item.f.requirement !== first);
      const key = item.f.cause?.key ?? requestKey(item.f);
      annotated[item.i] = { ...item.f, cause: { ...item.f.cause, key, id: c.id, title: c.title, consequence: follows } };
    }
    return { ...c, primary: annotated[findings.indexOf(c.primary)] };
  });
  return { causes: causes.sort(byWeight), findings: annotated };
}
