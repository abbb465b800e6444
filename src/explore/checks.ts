/**
 * The checks a generated request is judged by, registered once and called by every part of the phase (replay,
 * coverage, generated, stateful) as Schemathesis's checks.py: each says which requests it judges and what it says of
 * the answer, through the core's rules of each operation (src/core/sections) — the ones the conformance specs call. The
 * check registry of src/checks judges every response on top (status documented, content type and coding, schema,
 * Error.status, rate-limit headers). A new rule is one more entry of CHECKS; the policy of `judgeProbe` — what a
 * request's surface class makes of a refusal, and the HTTP-EQUIVALENT-FORMS warning for an equivalent form served
 * otherwise — applies to every check alike.
 *
 * - createPet: a valid NewPet is answered 201 and echoed exactly (CREATE-201-PET); a silent one is accepted (and
 *   echoed exactly) or refused cleanly (observed, INPUT-SILENT-HANDLING); an invalid one is refused with 400
 *   (CREATE-400-*); one that is JSON only through an extension (RFC 8259 §9) is refused, or accepted as the
 *   extension reads it (HYGIENE-JSON-EXTENSION warns, naming the extension and its risk);
 * - listPets: a valid query is answered 200 (LIST-200-PETS) with at most `limit` animals (LIST-LIMIT-HONOURED) of the
 *   asked status (LIST-STATUS-FILTER); any other limit never yields more than 100 animals nor a 5xx
 *   (LIST-LIMIT-OUT-OF-RANGE); an unknown status never a 5xx (LIST-STATUS-UNKNOWN-NO-5XX);
 * - getPet: an id no pet has is 404, and a 200 is the pet asked for (GET-404-UNKNOWN); a non-integer id is a 4xx
 *   (GET-NON-INTEGER-ID-4XX).
 */
import { integerDigits } from '../core/json.ts';
import type { Judgement } from '../core/sections/define.ts';
import { judgeBadCredential, judgeKeyChannel, judgeKeyRefused, judgeMethodWithoutKey } from '../core/sections/auth/rules.ts';
import { judgeMethodNotTaken } from '../core/sections/responses/rules.ts';
import { channelLabel, isAccessToken, placementLabel } from '../core/credentials.ts';
import { documentedAt, pathOf } from '../core/methods.ts';
import { judgeJsonExtension } from '../core/sections/hygiene/rules.ts';
import { judgeEquivalentForms, judgeSilentRefusal } from '../core/sections/responses/rules.ts';
import { judgeCreated, judgeRefused, type Answer } from '../core/sections/create-pet/rules.ts';
import { judgeIdOutsideInt64, judgeNonIntegerId, judgeUnknownId } from '../core/sections/get-pet/rules.ts';
import { OUTSIDE_INT64 } from './classify.ts';
import {
  judgeOutOfRange,
  judgePage,
  judgePageSize,
  judgeStatusFilter,
  judgeUnknownStatus,
  pageOf,
} from '../core/sections/list-pets/rules.ts';
import { sentPet } from '../core/sections/pets.ts';
import type { ApiExchange, OperationId } from '../http/client.ts';
import { answered, answerOf, methodAnswer, notTakenAnswer } from '../harness/ops.ts';
import { withoutKey, type Probe } from './probe.ts';
import { httpForms, idsOf, labelOf } from './surface.ts';

export const statusText = (ex: ApiExchange): string => (ex.error ? `transport failure: ${ex.error.kind}` : `HTTP ${ex.response!.status}`);

/** The body a correct server reads of a probe (its first reading: a BOM ignored, an extension's reading…), when it has one. */
export const readingOf = (p: Probe): string | undefined => p.readings?.[0] ?? p.body;

/** The status a probe's body sent, when it is a string. */
export function sentStatus(p: Probe): string | undefined {
  const text = readingOf(p);
  const st = text !== undefined ? sentPet(text)?.fields.status : undefined;
  const v = st !== undefined ? (JSON.parse(st) as unknown) : undefined;
  return typeof v === 'string' ? v : undefined;
}

/** A check of the phase: which requests it judges, and its verdicts on a conclusive answer to one of them. */
export interface ExploreCheck {
  name: string;
  op: OperationId;
  /** Judges a request the server refused cleanly too (a refusal is its pass). */
  onRefusal?: boolean;
  applies(p: Probe): boolean;
  judge(p: Probe, a: Answer): Judgement[];
}

/** The statuses a clean refusal may use where the spec is silent. */
const isCleanRefusal = (s: number) => s === 400 || s === 413 || s === 422;
const is2xx = (s: number) => s >= 200 && s < 300;

/** The judgements of the reading a server took (the first that holds), else of the first reading. */
function asOneReading(each: readonly Judgement[][]): Judgement[] {
  return each.find((js) => !js.some((j) => j.outcome === 'fail' || j.outcome === 'warn')) ?? each[0];
}

const created: ExploreCheck = {
  name: 'created-or-refused',
  op: 'createPet',
  applies: () => true,
  judge(p, a) {
    const part = p.parts.body;
    const what = `${p.label} (${p.why})`;
    if (p.cls === 'invalid') return [judgeRefused(part?.requirement ?? 'CREATE-400-WRONG-TYPE', a, what)];
    const readings = (p.readings ?? (p.body !== undefined ? [p.body] : [])).map(sentPet).filter((x) => x !== undefined);
    // Behind a form HTTP makes equivalent, 406, 411 and 415 answer the form (a media type, the framing), not the value: even for a value
    // the spec is silent about, that is not serving the request alike (HTTP-EQUIVALENT-FORMS, once wrapped).
    const media = (a.status === 406 || a.status === 411 || a.status === 415) && httpForms(p.surface).length > 0;
    const served = a.status === 201 || p.cls === 'valid' || media;
    if (readings.length && served) return asOneReading(readings.map((r) => judgeCreated(r, a, what)));
    return isCleanRefusal(a.status) ? [judgeSilentRefusal(`createPet with ${part?.why ?? 'no body'}: refused with ${a.status}`)] : [];
  },
};

const jsonExtension: ExploreCheck = {
  name: 'json-extension',
  op: 'createPet',
  onRefusal: true,
  applies: (p) => p.cls === 'latitude' || p.surfaceClass === 'latitude',
  judge(p, a) {
    const extension = p.extensions?.join(', ') ?? labelOf(p.surface.filter((f) => f.cls === 'latitude'));
    // Accepted is created (201); another success status is RESP-STATUS-DOCUMENTED's to fail, whatever the body.
    if (is2xx(a.status) && a.status !== 201) return [];
    return [judgeJsonExtension({ label: p.label, extension, status: a.status })];
  },
};

const listed: ExploreCheck = {
  name: 'list-page',
  op: 'listPets',
  applies: () => true,
  judge(p, a) {
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
  },
};

const byId: ExploreCheck = {
  name: 'get-by-id',
  op: 'getPet',
  applies: () => true,
  judge(p, a) {
    const id = p.parts.petId;
    const shown = `GET /pets/${p.petId} (${p.label})`;
    // An integer outside int64 (a held id shifted by ±2^64): no animal has it — a 200 is another animal (GET-404-UNKNOWN).
    if (id.cls === 'invalid' && id.why === OUTSIDE_INT64) return [judgeIdOutsideInt64(integerDigitsOf(p.petId), a, shown)];
    if (id.cls === 'invalid') return [judgeNonIntegerId(a, shown)];
    if (id.cls === 'silent' && (a.status === 400 || a.status === 422))
      return [judgeSilentRefusal(`getPet with ${id.why} (${p.petId}): ${a.status}`)];
    return [judgeUnknownId(integerDigitsOf(p.petId), a, shown)];
  },
};

/** The exact digits of an integer petId (`+12`, ` 12 ` are 12), as text: an int64 never goes through a JS number. */
const integerDigitsOf = (petId: string | undefined): string => integerDigits((petId ?? '').trim().replace(/^\+/, '')) ?? '';

/** Every check of the phase, in the order their verdicts are listed. */
export const CHECKS: readonly ExploreCheck[] = [created, jsonExtension, listed, byId];

/** The clean refusals an RFC leaves to the server for a request's surface (406, 413, 415 and the spec's 400, 422). */
const SURFACE_REFUSALS = new Set([400, 406, 413, 415, 422]);

const keyRefused = (a: Answer): Judgement => judgeKeyRefused(a.status);

/** A request an RFC leaves open: its surface is refusable, or its body a NewPet only through an extension. */
const isOpen = (p: Probe) => p.surfaceClass === 'refusable' || p.surfaceClass === 'latitude' || p.cls === 'latitude';

/**
 * A request with another method or without the valid key (issue 39), judged by the rules the spec files call: without a
 * valid key no method is served (AUTH-EVERY-METHOD) — with the operation's own method, the credential's requirement
 * (AUTH-UNKNOWN-KEY-401 for a near-miss of the key, AUTH-KEY-CHANNEL or AUTH-KEY-IN-URL for the key placed elsewhere,
 * AUTH-WRONG-SCHEME-401 for the Basic scheme); with the key, a method the path does not take is refused, 405 with Allow
 * (METHOD-405-ALLOW). Undefined: the probe varies neither, the operation's checks judge it.
 */
export function judgeRequestForms(p: Probe, ex: ApiExchange): Judgement[] | undefined {
  if (!p.method && !p.credential) return undefined;
  if (!ex.response) return [];
  if (p.method && withoutKey(p)) return [judgeMethodWithoutKey(methodAnswer(ex), `with ${credentialWords(p)}`)];
  if (p.method) {
    const documented = documentedAt(pathOf(p.op));
    return documented.includes(p.method) || p.method === 'HEAD' || p.method === 'OPTIONS'
      ? []
      : judgeMethodNotTaken(notTakenAnswer(ex, documented));
  }
  const c = p.credential!;
  const a = answered(ex);
  if ('near' in c) return [judgeBadCredential(a, { requirement: 'AUTH-UNKNOWN-KEY-401', what: placementLabel(c) })];
  if ('basic' in c) return [judgeBadCredential(a, { requirement: 'AUTH-WRONG-SCHEME-401', what: placementLabel(c) })];
  return [judgeKeyChannel(a, channelLabel(c), isAccessToken(c) ? 'AUTH-KEY-IN-URL' : 'AUTH-KEY-CHANNEL')];
}

const credentialWords = (p: Probe): string => (p.credential ? placementLabel(p.credential) : 'no credentials');

/** The checks' verdicts on one conclusive exchange of a probe, as its surface's class makes them. */
export function judgeProbe(p: Probe, ex: ApiExchange): Judgement[] {
  const a = answerOf(ex);
  if (ex.response?.status === 429) return [];
  const forms = judgeRequestForms(p, ex);
  if (forms) return forms;
  if (!a) return [];
  const checks = CHECKS.filter((c) => c.op === p.op && c.applies(p));
  if (a.status === 401) return p.spelled ? notServedAlike(p, [keyRefused(a)]) : [];
  if (isOpen(p) && SURFACE_REFUSALS.has(a.status))
    return [
      judgeSilentRefusal(`${labelOf(p.surface) || p.why}: refused with ${a.status}`),
      ...checks.filter((c) => c.onRefusal).flatMap((c) => c.judge(p, a)),
    ];
  // Left open and not served: whatever else it got (a 5xx, an undocumented status) is the registry's to judge.
  if (isOpen(p) && !is2xx(a.status)) return [];
  const base = checks.flatMap((c) => c.judge(p, a));
  return httpForms(p.surface).length ? notServedAlike(p, base) : base;
}

/**
 * A request HTTP or URI syntax makes equivalent to a valid one: what would fail the operation's requirement is the
 * HTTP-EQUIVALENT-FORMS warning instead (the spec names no such form; the RFC makes it equivalent), naming the forms.
 */
function notServedAlike(p: Probe, base: readonly Judgement[]): Judgement[] {
  const forms = httpForms(p.surface);
  const problems = base.filter((j) => j.outcome === 'fail' || j.outcome === 'warn');
  const kept = base.filter((j) => !problems.includes(j));
  const sources = [...new Set(forms.map((f) => f.source))];
  return [...kept, judgeEquivalentForms({ ids: idsOf(forms), labels: labelOf(forms), sources, problems })];
}
