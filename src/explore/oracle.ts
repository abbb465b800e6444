/**
 * The invariants a generated request is judged by: the core's rules of each operation (src/core/spec), the ones the
 * conformance specs call, picked by the request's class. The check registry judges every response on top (status
 * documented, content type, schema, Error.status, rate-limit headers); these say what the answer must be:
 *
 * - createPet: a valid NewPet is answered 201 and echoed exactly (CREATE-201-PET);
 *   a silent one is accepted (and echoed exactly) or refused cleanly (observed,
 *   INPUT-SILENT-HANDLING); an invalid one is refused with 400 (CREATE-400-*);
 * - listPets: a valid query is answered 200 (LIST-200-PETS) with at most `limit`
 *   animals (LIST-LIMIT-HONOURED) of the asked status (LIST-STATUS-FILTER); any
 *   other limit never yields more than 100 animals nor a 5xx
 *   (LIST-LIMIT-OUT-OF-RANGE); an unknown status never a 5xx (LIST-STATUS-UNKNOWN-NO-5XX);
 * - getPet: an id no pet has is 404, and a 200 is the pet asked for
 *   (GET-404-UNKNOWN); a non-integer id is a 4xx (GET-NON-INTEGER-ID-4XX).
 */
import { integerDigits } from '../core/json.ts';
import type { Judgement } from '../core/spec/define.ts';
import { AUTH } from '../core/spec/auth/requirements.ts';
import { RESPONSES } from '../core/spec/responses/requirements.ts';
import { judgeCreated, judgeRefused, type Answer } from '../core/spec/create-pet/rules.ts';
import { judgeNonIntegerId, judgeUnknownId } from '../core/spec/get-pet/rules.ts';
import { judgeOutOfRange, judgePage, judgePageSize, judgeStatusFilter, judgeUnknownStatus, pageOf } from '../core/spec/list-pets/rules.ts';
import { sentPet } from '../core/spec/pets.ts';
import type { ApiExchange } from '../http/client.ts';
import { answerOf } from '../harness/ops.ts';
import type { Probe, Variant } from './probe.ts';

export const statusText = (ex: ApiExchange): string => (ex.error ? `transport failure: ${ex.error.kind}` : `HTTP ${ex.response!.status}`);

/** The body a correct server reads of a probe (its first reading: a BOM ignored…), when it has one. */
export const readingOf = (p: Probe): string | undefined => p.readings?.[0] ?? p.body;

/** The status a probe's body sent, when it is a string. */
export function sentStatus(p: Probe): string | undefined {
  const text = readingOf(p);
  const st = text !== undefined ? sentPet(text)?.fields.status : undefined;
  const v = st !== undefined ? (JSON.parse(st) as unknown) : undefined;
  return typeof v === 'string' ? v : undefined;
}

/** INPUT-SILENT-HANDLING: an input the spec is silent about, refused cleanly (observed, never failed). */
const refusedSilently = (message: string): Judgement =>
  RESPONSES.judge('INPUT-SILENT-HANDLING', { outcome: 'observe', title: 'refused', message });

/** The statuses a clean refusal may use where the spec is silent. */
const isCleanRefusal = (s: number) => s === 400 || s === 413 || s === 422;

function judgeCreate(p: Probe, a: Answer): Judgement[] {
  const part = p.parts.body;
  const what = `${p.label} (${p.why})`;
  if (p.cls === 'invalid') return [judgeRefused(p.variant?.requirement ?? part.requirement ?? 'CREATE-400-WRONG-TYPE', a, what)];
  const readings = (p.readings ?? (p.body !== undefined ? [p.body] : [])).map(sentPet).filter((x) => x !== undefined);
  if (readings.length && (a.status === 201 || p.cls === 'valid')) return asOneReading(readings.map((r) => judgeCreated(r, a, what)));
  return isCleanRefusal(a.status) ? [refusedSilently(`createPet with ${part.why}: refused with ${a.status}`)] : [];
}

/** The judgements of the reading a server took (the first that holds), else of the first reading. */
function asOneReading(each: readonly Judgement[][]): Judgement[] {
  return each.find((js) => !js.some((j) => j.outcome === 'fail' || j.outcome === 'warn')) ?? each[0];
}

function judgeList(p: Probe, a: Answer): Judgement[] {
  const { limit, status } = p.parts;
  const page = pageOf(a);
  const qs = new URLSearchParams(p.query ?? {}).toString() || '(no query)';
  const out: Judgement[] = [];
  if (limit.cls === 'valid' && status.cls === 'valid') {
    out.push(judgePage(a, qs));
    if (!page) return out;
  }
  if (limit.cls !== 'valid') out.push(judgeOutOfRange(a, `limit ${JSON.stringify(p.query?.limit)} (${limit.why})`));
  else if (page && p.query?.limit !== undefined) out.push(judgePageSize(page, Number(p.query.limit), qs));
  if (status.cls !== 'valid') out.push(judgeUnknownStatus(a, qs));
  else if (page && p.query?.status !== undefined) out.push(judgeStatusFilter(page, p.query.status, qs));
  return out;
}

function judgeGet(p: Probe, a: Answer): Judgement[] {
  const id = p.parts.petId;
  const shown = `GET /pets/${p.petId} (${p.label})`;
  if (id.cls === 'invalid') return [judgeNonIntegerId(a, shown)];
  if (id.cls === 'silent' && a.status !== 200 && a.status !== 404 && (a.status === 400 || a.status === 422))
    return [refusedSilently(`getPet with ${id.why} (${p.petId}): ${a.status}`)];
  const digits = integerDigits((p.petId ?? '').trim().replace(/^\+/, '')) ?? '';
  return [judgeUnknownId(digits, a, shown)];
}

/** The invariants' verdicts on one conclusive exchange of a probe (the core's rules, as the specs call them). */
export function judgeProbe(p: Probe, ex: ApiExchange): Judgement[] {
  const a = answerOf(ex);
  if (!a || a.status === 429) return [];
  const v = p.variant;
  if (a.status === 401) return v && p.spelled ? notServedAlike(v, [keyRefused(a)]) : [];
  if (v?.cls === 'refusable' && SURFACE_REFUSALS.has(a.status))
    return [refusedSilently(`${v.label}: refused with ${a.status} (${v.source})`)];
  // Left open by an RFC and not served: whatever else it got (a 5xx, an undocumented status) is the registry's to judge.
  if (v?.cls === 'refusable' && (a.status < 200 || a.status >= 300)) return [];
  const base = p.op === 'createPet' ? judgeCreate(p, a) : p.op === 'listPets' ? judgeList(p, a) : judgeGet(p, a);
  return v?.cls === 'served-http' ? notServedAlike(v, base) : base;
}

/** The clean refusals an RFC leaves to the server for a request's surface (406, 413, 415 and the spec's 400, 422). */
const SURFACE_REFUSALS = new Set([400, 406, 413, 415, 422]);

const keyRefused = (a: Answer): Judgement => AUTH.judge('AUTH-VALID-KEY-ACCEPTED', { ok: false, message: `HTTP ${a.status}` });

/**
 * A request HTTP or URI syntax makes equivalent to a valid one: what would fail the operation's requirement is the
 * HTTP-EQUIVALENT-FORMS warning instead (the spec names no such form; the RFC makes it equivalent), with the RFC.
 */
function notServedAlike(v: Variant, base: readonly Judgement[]): Judgement[] {
  const problems = base.filter((j) => j.outcome === 'fail' || j.outcome === 'warn');
  const kept = base.filter((j) => !problems.includes(j));
  const shown = problems.map((j) => `${j.requirement}: ${j.title} — ${j.message}`).join('; ');
  return [
    ...kept,
    RESPONSES.judge('HTTP-EQUIVALENT-FORMS', {
      ok: problems.length === 0,
      args: { variant: v.id },
      message: problems.length ? `${v.label} (${v.source}): ${shown}` : v.label,
      evidence: { expected: `served as the request it is equivalent to (${v.source})`, actual: shown },
    }),
  ];
}
