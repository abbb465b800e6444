/**
 * What reproduces a finding of the exploration phase. A single request is offered as minimal only when it alone
 * reproduces the finding: it is replayed, alone, and must fail the same way again. A failure of a page of the list
 * (a 500, a schema error, another status on a filtered page…) may come from what the store holds rather than from the
 * request: when the same filter's page passed earlier in the phase and fails now, the pets stored since are the
 * cause, and the finding shows that sequence — the requests that stored them, then the list — and says so.
 */
import { dependsOnEarlierRequests } from '../core/catalogue.ts';
import type { Finding, Replay } from '../results/types.ts';
import { isPageProblem, listKey, type Attribution } from './reproduction.ts';
import type { Explorer } from './explorer.ts';
import type { Sent } from './memory.ts';
import { signature } from './reporter.ts';
import { sentStatus } from './checks.ts';
import { probeOf, type Probe, type Wire } from './probe.ts';
import { httpForms } from './surface.ts';

/** Send the exchange of `s` again, alone, judged the same way: does it fail with `sig` again? */
async function failsAgain(x: Explorer, s: Sent, sig: string, source: string): Promise<boolean> {
  const shot = s.probe?.op === 'createPet' ? await x.send(s.probe, source) : await x.exchange(s.req, source, s.judge, s.probe);
  return shot.failures.some((f) => signature(f) === sig);
}

/** The list of the same filter, of the largest page: the read that proves whether the store, not the query, is the cause. */
function baselineOf(x: Explorer, s: Sent): Probe {
  const { filter } = listKey(s.req);
  return probeOf({ op: 'listPets', query: { ...(filter ? { status: filter } : {}), limit: '100' } }, 'baseline', x.naming.plainLength);
}

/** The creates sent since the same filter's page last passed, that may show on it (its status, or none sent). */
function storedSince(x: Explorer, s: Sent): Probe[] | undefined {
  const { filter, limit } = listKey(s.req);
  const pass = x.memory.listPasses.filter((p) => p.filter === filter && p.limit >= limit && p.index < s.index).pop();
  if (!pass) return undefined;
  return x.memory.writes
    .filter((w) => w.index > pass.index && w.index < s.index && w.stored)
    .map((w) => w.probe)
    .filter((p) => filter === '' || sentStatus(p) === undefined || sentStatus(p) === filter);
}

/** A failure that did not come back alone: does it come back right after the request the phase sent before it? */
async function afterPrevious(x: Explorer, s: Sent, sig: string, source: string): Promise<Attribution> {
  const prev = x.memory.previousOf(s);
  if (!prev || x.pace.left() < 2) return { kind: 'not-alone' };
  await (prev.probe?.op === 'createPet' ? x.send(prev.probe, source) : x.exchange(prev.req, source, prev.judge, prev.probe));
  if (!(await failsAgain(x, s, sig, source))) return { kind: 'not-alone' };
  return { kind: 'after-previous', failing: probeFor(x, s), before: [probeFor(x, prev)] };
}

/** The probe of an exchange (one built from its request when it had none: a read-back). */
function probeFor(x: Explorer, s: Sent): Probe {
  if (s.probe) return s.probe;
  const petId = s.req.operation === 'getPet' ? decodeURIComponent(s.req.path.split('/').pop() ?? '') : undefined;
  return probeOf(
    { op: s.req.operation, query: s.req.query ?? {}, ...(petId !== undefined ? { petId } : {}) },
    'read back',
    x.naming.plainLength,
  );
}

/**
 * The plain request a request's HTTP-equivalent forms spell: the same request without their header fields, their
 * spelling of the credentials and their shape of the query (undefined when it has no such form).
 */
export function withoutHttpForms(p: Probe, plainLength: number): Probe | undefined {
  const forms = httpForms(p.surface);
  if (!forms.length) return undefined;
  const headers = { ...p.headers };
  for (const f of forms) if (f.kind === 'header') delete headers[f.id];
  const wire: Wire = {
    op: p.op,
    ...(p.query ? { query: p.query } : {}),
    ...(p.petId !== undefined ? { petId: p.petId } : {}),
    ...(p.body !== undefined ? { body: p.body } : {}),
    ...(p.readings ? { readings: p.readings } : {}),
    ...(Object.keys(headers).length ? { headers } : {}),
    ...(p.spelled && !forms.some((f) => f.kind === 'auth') ? { spelled: p.spelled } : {}),
    ...(p.rawQuery !== undefined && !forms.some((f) => f.kind === 'query') ? { rawQuery: p.rawQuery } : {}),
    ...(p.chunks && !forms.some((f) => f.kind === 'framing') ? { chunks: p.chunks } : {}),
    ...(p.method ? { method: p.method } : {}),
    ...(p.credential ? { credential: p.credential } : {}),
    surface: p.surface.filter((f) => f.cls !== 'equivalent-http'),
  };
  return probeOf(wire, 'the same request without its equivalent forms', plainLength, p.name);
}

/**
 * A failure of a request with forms HTTP makes equivalent: the plain request its forms spell, sent — when it fails too,
 * the forms are not the cause (a stored pet breaking every page, an id that breaks getPet whatever the headers): its
 * failures are the ones to report, not the forms' warning.
 */
async function formsOrNot(x: Explorer, s: Sent, source: string): Promise<Attribution | undefined> {
  const plain = s.probe ? withoutHttpForms(s.probe, x.naming.plainLength) : undefined;
  if (!plain || x.pace.left() < 2) return undefined;
  const shot = await x.send(plain, source);
  if (!shot.failures.length) return undefined;
  const fresh = shot.failures.find((g) => !x.reporter.isKnown(g));
  return { kind: 'not-the-forms', plain, failures: shot.failures, ...(fresh ? { then: await attribute(x, fresh, source) } : {}) };
}

/** Decide what reproduces `f`, replaying what it takes (a few requests, within the phase's budget). */
export async function attribute(x: Explorer, f: Finding, source: string): Promise<Attribution> {
  const s = x.memory.sentOf(f);
  if (!s || dependsOnEarlierRequests(f.requirement) || x.pace.left() < 2) return { kind: 'unchecked' };
  // A failure of a request with forms HTTP makes equivalent: are the forms the cause, or does the plain request fail too?
  const notForms = await formsOrNot(x, s, source);
  if (notForms) return notForms;
  const sig = signature(f);
  if (!(await failsAgain(x, s, sig, source))) return afterPrevious(x, s, sig, source);
  if (s.req.operation !== 'listPets' || !isPageProblem(f)) return { kind: 'alone' };
  const base = baselineOf(x, s);
  const baseFails = (await x.send(base, source)).failures.some((g) => signature(g) === sig);
  if (!baseFails) return { kind: 'alone' }; // this query, not the store: it fails alone on any store
  const before = storedSince(x, s);
  if (!before?.length) return { kind: 'alone' }; // it never passed in the phase: not caused by the phase's writes
  return { kind: 'stored', failing: probeFor(x, s), before };
}

/** Report the failures of one exchange, each new one with what reproduces it (one attribution for the exchange). */
export async function reportAttributed(x: Explorer, failures: readonly Finding[], replay: Replay, source: string): Promise<number> {
  const fresh = failures.find((f) => !x.reporter.isKnown(f));
  const a = fresh ? await attribute(x, fresh, source) : undefined;
  return x.reporter.report(failures, replay, a);
}
