/**
 * The invariants a generated request is judged by, each tied to a catalogue
 * requirement. The check registry judges every response on top (status
 * documented, content type, schema, Error.status, rate-limit headers); these
 * say what the answer must be for the request's class:
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
import { integerDigits, parseJson, rawNumber, type JsonValue } from '../core/json.ts';
import type { Judgement } from '../core/judgement.ts';
import type { ApiExchange } from '../http/client.ts';
import { exactInteger, isObject } from '../harness/ops.ts';
import { hasLoneSurrogate } from './classify.ts';
import type { Probe } from './probe.ts';

export const statusText = (ex: ApiExchange): string => (ex.error ? `transport failure: ${ex.error.kind}` : `HTTP ${ex.response!.status}`);

/** Fields of a sent NewPet a Pet must carry back: name, canonical categoryId digits, status if sent. */
export interface Sent {
  name?: unknown;
  categoryId?: string;
  status?: unknown;
}

export function sentFields(p: Probe): Sent {
  if (p.body === undefined) return {};
  let parsed: JsonValue;
  try {
    parsed = parseJson(p.body).value;
  } catch {
    return {}; // an invalid body: nothing to compare
  }
  if (!isObject(parsed)) return {};
  const raw = rawNumber(parsed, '/categoryId');
  return {
    name: parsed.name,
    categoryId: raw === undefined ? undefined : integerDigits(raw),
    ...('status' in parsed ? { status: parsed.status } : {}),
  };
}

const codePoints = (cs: string[]) => cs.map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`).join(' ');

/**
 * Where a name read back first differs from the one sent, in code points: look-alike
 * strings (NFC vs NFD, a stripped control character) read the same when printed.
 */
export function firstDifference(got: JsonValue | undefined, sent: string): string {
  if (typeof got !== 'string') return '';
  const [a, b] = [Array.from(got), Array.from(sent)];
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const show = (cs: string[]) => (i < cs.length ? codePoints(cs.slice(i, i + 4)) : '(end)');
  return ` (first difference at code point ${i}: read back ${show(a)}, sent ${show(b)})`;
}

/**
 * How a Pet in `ex` (at `pointer`) differs from what was sent: a list of
 * differences; `trimmed` when the only one is a name with its spaces removed
 * (observed, not failed), `unjudged` parts (a lone surrogate) left out.
 */
export function petDiffs(sent: Sent, ex: ApiExchange, pointer: string, id?: string): { diffs: string[]; trimmed: boolean } {
  const at = pointer
    ? pointer
        .split('/')
        .slice(1)
        .reduce<JsonValue | undefined>((v, k) => (v as never)?.[k], ex.json)
    : ex.json;
  if (!isObject(at)) return { diffs: ['not an object'], trimmed: false };
  const diffs: string[] = [];
  let trimmed = false;
  if (typeof sent.name === 'string' && !hasLoneSurrogate(sent.name) && at.name !== sent.name) {
    if (typeof at.name === 'string' && at.name === sent.name.trim()) trimmed = true;
    else diffs.push(`name ${JSON.stringify(at.name)} ≠ ${JSON.stringify(sent.name)}${firstDifference(at.name, sent.name)}`);
  }
  const cat = exactInteger(ex, `${pointer}/categoryId`);
  if (sent.categoryId !== undefined && cat !== sent.categoryId)
    diffs.push(`categoryId ${cat ?? JSON.stringify(at.categoryId)} ≠ ${sent.categoryId}`);
  if (sent.status !== undefined && at.status !== sent.status)
    diffs.push(`status ${JSON.stringify(at.status)} ≠ ${JSON.stringify(sent.status)}`);
  if (id !== undefined && exactInteger(ex, `${pointer}/id`) !== id)
    diffs.push(`id ${exactInteger(ex, `${pointer}/id`) ?? '(none)'} ≠ ${id}`);
  return { diffs, trimmed };
}

/** INPUT-SILENT-HANDLING: an input the spec is silent about, refused cleanly (observed, never failed). */
const refusedSilently = (message: string): Judgement => ({
  requirement: 'INPUT-SILENT-HANDLING',
  outcome: 'observe',
  title: 'Refused where the spec is silent',
  message,
});

function judgeCreate(p: Probe, ex: ApiExchange): Judgement[] {
  const s = ex.response!.status;
  const part = p.parts.body;
  const what = `${p.label} (${p.why})`;
  if (p.cls === 'invalid') {
    const req = part.requirement ?? 'CREATE-400-WRONG-TYPE';
    return s === 400
      ? [{ requirement: req, outcome: 'pass', title: 'Invalid body refused with 400', message: what }]
      : [
          {
            requirement: req,
            outcome: 'fail',
            title: s < 300 ? 'Invalid body accepted' : 'Invalid body not refused with 400',
            message: `${what}: ${statusText(ex)}`,
            evidence: { expected: '400', actual: statusText(ex) },
          },
        ];
  }
  if (s === 201) {
    const { diffs, trimmed } = petDiffs(sentFields(p), ex, '');
    const out: Judgement[] = [];
    if (trimmed)
      out.push({
        requirement: 'INPUT-SILENT-HANDLING',
        outcome: 'observe',
        title: 'Name trimmed',
        message: `${what}: the name was stored without its leading and trailing spaces`,
      });
    out.push(
      diffs.length
        ? {
            requirement: 'CREATE-201-PET',
            outcome: 'fail',
            title: 'Created Pet differs from the request',
            message: `${what}: ${diffs.join('; ')}`,
            evidence: { expected: 'the sent fields', actual: diffs.join('; ') },
          }
        : { requirement: 'CREATE-201-PET', outcome: 'pass', title: '201 with the sent fields', message: what },
    );
    return out;
  }
  if (p.cls === 'valid')
    return [
      {
        requirement: 'CREATE-201-PET',
        outcome: 'fail',
        title: 'Valid NewPet not answered 201',
        message: `${what}: ${statusText(ex)}`,
        evidence: { expected: '201', actual: statusText(ex) },
      },
    ];
  if (s === 400 || s === 413 || s === 422) return [refusedSilently(`createPet with ${part.why}: refused with ${s}`)];
  return [];
}

function judgeList(p: Probe, ex: ApiExchange): Judgement[] {
  const s = ex.response!.status;
  const limit = p.parts.limit;
  const status = p.parts.status;
  const page = s === 200 && Array.isArray(ex.json) ? ex.json : undefined;
  const qs = new URLSearchParams(p.query ?? {}).toString() || '(no query)';
  const out: Judgement[] = [];
  if (limit.cls === 'valid' && status.cls === 'valid') {
    if (!page)
      return [
        {
          requirement: 'LIST-200-PETS',
          outcome: 'fail',
          title: 'Valid listPets query not answered 200',
          message: `${qs}: ${statusText(ex)}`,
          evidence: { expected: '200', actual: statusText(ex) },
        },
      ];
    out.push({ requirement: 'LIST-200-PETS', outcome: 'pass', title: 'Valid query answered 200', message: qs });
  }
  if (limit.cls !== 'valid') {
    const ok = s < 500 && (!page || page.length <= 100);
    const shown = `${statusText(ex)}${page ? `, ${page.length} animals` : ''}`;
    out.push(
      ok
        ? {
            requirement: 'LIST-LIMIT-OUT-OF-RANGE',
            outcome: 'pass',
            title: 'Out-of-range limit handled',
            message: `limit ${JSON.stringify(p.query?.limit)}: ${statusText(ex)}`,
          }
        : {
            requirement: 'LIST-LIMIT-OUT-OF-RANGE',
            outcome: 'fail',
            title: s >= 500 ? 'Out-of-range limit causes a server error' : 'Out-of-range limit returns more than 100 animals',
            message: `limit ${JSON.stringify(p.query?.limit)} (${limit.why}): ${shown}`,
            evidence: { expected: '400 with an Error, or 200 with at most 100 animals', actual: shown },
          },
    );
  } else if (page && p.query?.limit !== undefined) {
    const n = Number(p.query.limit);
    const message = `${qs}: ${page.length} animals`;
    out.push(
      page.length <= n
        ? { requirement: 'LIST-LIMIT-HONOURED', outcome: 'pass', title: 'Page within the limit', message }
        : {
            requirement: 'LIST-LIMIT-HONOURED',
            outcome: 'fail',
            title: 'Page larger than the limit',
            message,
            evidence: { expected: `at most ${n}`, actual: String(page.length) },
          },
    );
  }
  if (status.cls !== 'valid')
    out.push(
      s < 500
        ? {
            requirement: 'LIST-STATUS-UNKNOWN-NO-5XX',
            outcome: 'pass',
            title: 'Unknown status answered without a 5xx',
            message: `${qs}: ${statusText(ex)}`,
          }
        : {
            requirement: 'LIST-STATUS-UNKNOWN-NO-5XX',
            outcome: 'fail',
            title: 'Unknown status causes a server error',
            message: `${qs}: ${statusText(ex)}`,
            evidence: { expected: 'no 5xx', actual: statusText(ex) },
          },
    );
  else if (page && p.query?.status !== undefined) {
    const other = page.filter((x) => !isObject(x) || x.status !== p.query!.status);
    out.push(
      other.length
        ? {
            requirement: 'LIST-STATUS-FILTER',
            outcome: 'fail',
            title: 'Filtered page holds another status',
            message: `${qs}: ${other.length} of ${page.length} animals`,
            evidence: { expected: `only ${p.query.status}`, actual: `${other.length} others` },
          }
        : { requirement: 'LIST-STATUS-FILTER', outcome: 'pass', title: 'Filtered page holds only that status', message: qs },
    );
  }
  return out;
}

function judgeGet(p: Probe, ex: ApiExchange): Judgement[] {
  const s = ex.response!.status;
  const id = p.parts.petId;
  const shown = `GET /pets/${p.petId} (${p.label})`;
  if (id.cls === 'invalid') {
    const ok = s >= 400 && s < 500;
    return [
      ok
        ? { requirement: 'GET-NON-INTEGER-ID-4XX', outcome: 'pass', title: 'Non-integer id refused', message: `${shown}: ${s}` }
        : {
            requirement: 'GET-NON-INTEGER-ID-4XX',
            outcome: 'fail',
            title: s >= 500 ? 'Non-integer id causes a server error' : 'Non-integer id not rejected',
            message: `${shown}: ${statusText(ex)}`,
            evidence: { expected: '4xx', actual: statusText(ex) },
          },
    ];
  }
  const digits = integerDigits((p.petId ?? '').trim().replace(/^\+/, '')) ?? '';
  if (s === 200) {
    const got = exactInteger(ex, '/id');
    return got === digits
      ? [{ requirement: 'GET-404-UNKNOWN', outcome: 'pass', title: 'A 200 is the pet asked for', message: shown }]
      : [
          {
            requirement: 'GET-404-UNKNOWN',
            outcome: 'fail',
            title: 'Another pet returned for an id',
            message: `${shown}: 200 with id ${got ?? '(none)'}`,
            evidence: { expected: `404, or the pet with id ${digits}`, actual: `200 with id ${got ?? '(none)'}` },
          },
        ];
  }
  if (s === 404) return [{ requirement: 'GET-404-UNKNOWN', outcome: 'pass', title: 'An id no pet has answered 404', message: shown }];
  if (id.cls === 'silent' && (s === 400 || s === 422)) return [refusedSilently(`getPet with ${id.why} (${p.petId}): ${s}`)];
  return [
    {
      requirement: 'GET-404-UNKNOWN',
      outcome: 'fail',
      title: 'An id no pet has not answered 404',
      message: `${shown}: ${statusText(ex)}`,
      evidence: { expected: '404', actual: statusText(ex) },
    },
  ];
}

/** The invariants' verdicts on one conclusive exchange of a probe. */
export function judgeProbe(p: Probe, ex: ApiExchange): Judgement[] {
  if (!ex.response || ex.response.status === 401 || ex.response.status === 429) return [];
  if (p.op === 'createPet') return judgeCreate(p, ex);
  if (p.op === 'listPets') return judgeList(p, ex);
  return judgeGet(p, ex);
}
