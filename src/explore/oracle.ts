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
import type { ApiExchange } from '../http/client.ts';
import { exactInteger, isObject } from '../harness/ops.ts';
import { hasLoneSurrogate } from './classify.ts';
import type { Probe } from './probe.ts';

export interface Verdict {
  requirement: string;
  outcome: 'pass' | 'fail' | 'observe';
  /** Stable title (a failure's title is its signature). */
  title: string;
  message: string;
  expected?: string;
  actual?: string;
}

const pass = (requirement: string, title: string, message: string): Verdict => ({ requirement, outcome: 'pass', title, message });
const fail = (requirement: string, title: string, message: string, expected: string, actual: string): Verdict => ({
  requirement,
  outcome: 'fail',
  title,
  message,
  expected,
  actual,
});
const observe = (requirement: string, title: string, message: string): Verdict => ({ requirement, outcome: 'observe', title, message });

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

function judgeCreate(p: Probe, ex: ApiExchange): Verdict[] {
  const s = ex.response!.status;
  const part = p.parts.body;
  const what = `${p.label} (${p.why})`;
  if (p.cls === 'invalid') {
    const req = part.requirement ?? 'CREATE-400-WRONG-TYPE';
    return s === 400
      ? [pass(req, 'Invalid body refused with 400', what)]
      : [
          fail(
            req,
            s < 300 ? 'Invalid body accepted' : 'Invalid body not refused with 400',
            `${what}: ${statusText(ex)}`,
            '400',
            statusText(ex),
          ),
        ];
  }
  if (s === 201) {
    const { diffs, trimmed } = petDiffs(sentFields(p), ex, '');
    const out: Verdict[] = [];
    if (trimmed)
      out.push(observe('INPUT-SILENT-HANDLING', 'Name trimmed', `${what}: the name was stored without its leading and trailing spaces`));
    out.push(
      diffs.length
        ? fail(
            'CREATE-201-PET',
            'Created Pet differs from the request',
            `${what}: ${diffs.join('; ')}`,
            'the sent fields',
            diffs.join('; '),
          )
        : pass('CREATE-201-PET', '201 with the sent fields', what),
    );
    return out;
  }
  if (p.cls === 'valid')
    return [fail('CREATE-201-PET', 'Valid NewPet not answered 201', `${what}: ${statusText(ex)}`, '201', statusText(ex))];
  if (s === 400 || s === 413 || s === 422)
    return [observe('INPUT-SILENT-HANDLING', 'Refused where the spec is silent', `createPet with ${part.why}: refused with ${s}`)];
  return [];
}

function judgeList(p: Probe, ex: ApiExchange): Verdict[] {
  const s = ex.response!.status;
  const limit = p.parts.limit;
  const status = p.parts.status;
  const page = s === 200 && Array.isArray(ex.json) ? ex.json : undefined;
  const qs = new URLSearchParams(p.query ?? {}).toString() || '(no query)';
  const out: Verdict[] = [];
  if (limit.cls === 'valid' && status.cls === 'valid') {
    if (!page) return [fail('LIST-200-PETS', 'Valid listPets query not answered 200', `${qs}: ${statusText(ex)}`, '200', statusText(ex))];
    out.push(pass('LIST-200-PETS', 'Valid query answered 200', qs));
  }
  if (limit.cls !== 'valid') {
    const ok = s < 500 && (!page || page.length <= 100);
    out.push(
      ok
        ? pass('LIST-LIMIT-OUT-OF-RANGE', 'Out-of-range limit handled', `limit ${JSON.stringify(p.query?.limit)}: ${statusText(ex)}`)
        : fail(
            'LIST-LIMIT-OUT-OF-RANGE',
            s >= 500 ? 'Out-of-range limit causes a server error' : 'Out-of-range limit returns more than 100 animals',
            `limit ${JSON.stringify(p.query?.limit)} (${limit.why}): ${statusText(ex)}${page ? `, ${page.length} animals` : ''}`,
            '400 with an Error, or 200 with at most 100 animals',
            `${statusText(ex)}${page ? `, ${page.length} animals` : ''}`,
          ),
    );
  } else if (page && p.query?.limit !== undefined) {
    const n = Number(p.query.limit);
    out.push(
      page.length <= n
        ? pass('LIST-LIMIT-HONOURED', 'Page within the limit', `${qs}: ${page.length} animals`)
        : fail('LIST-LIMIT-HONOURED', 'Page larger than the limit', `${qs}: ${page.length} animals`, `at most ${n}`, String(page.length)),
    );
  }
  if (status.cls !== 'valid')
    out.push(
      s < 500
        ? pass('LIST-STATUS-UNKNOWN-NO-5XX', 'Unknown status answered without a 5xx', `${qs}: ${statusText(ex)}`)
        : fail('LIST-STATUS-UNKNOWN-NO-5XX', 'Unknown status causes a server error', `${qs}: ${statusText(ex)}`, 'no 5xx', statusText(ex)),
    );
  else if (page && p.query?.status !== undefined) {
    const other = page.filter((x) => !isObject(x) || x.status !== p.query!.status);
    out.push(
      other.length
        ? fail(
            'LIST-STATUS-FILTER',
            'Filtered page holds another status',
            `${qs}: ${other.length} of ${page.length} animals`,
            `only ${p.query.status}`,
            `${other.length} others`,
          )
        : pass('LIST-STATUS-FILTER', 'Filtered page holds only that status', qs),
    );
  }
  return out;
}

function judgeGet(p: Probe, ex: ApiExchange): Verdict[] {
  const s = ex.response!.status;
  const id = p.parts.petId;
  const shown = `GET /pets/${p.petId} (${p.label})`;
  if (id.cls === 'invalid') {
    const ok = s >= 400 && s < 500;
    return [
      ok
        ? pass('GET-NON-INTEGER-ID-4XX', 'Non-integer id refused', `${shown}: ${s}`)
        : fail(
            'GET-NON-INTEGER-ID-4XX',
            s >= 500 ? 'Non-integer id causes a server error' : 'Non-integer id not rejected',
            `${shown}: ${statusText(ex)}`,
            '4xx',
            statusText(ex),
          ),
    ];
  }
  const digits = integerDigits((p.petId ?? '').trim().replace(/^\+/, '')) ?? '';
  if (s === 200) {
    const got = exactInteger(ex, '/id');
    return got === digits
      ? [pass('GET-404-UNKNOWN', 'A 200 is the pet asked for', shown)]
      : [
          fail(
            'GET-404-UNKNOWN',
            'Another pet returned for an id',
            `${shown}: 200 with id ${got ?? '(none)'}`,
            `404, or the pet with id ${digits}`,
            `200 with id ${got ?? '(none)'}`,
          ),
        ];
  }
  if (s === 404) return [pass('GET-404-UNKNOWN', 'An id no pet has answered 404', shown)];
  if (id.cls === 'silent' && (s === 400 || s === 422))
    return [observe('INPUT-SILENT-HANDLING', 'Refused where the spec is silent', `getPet with ${id.why} (${p.petId}): ${s}`)];
  return [fail('GET-404-UNKNOWN', 'An id no pet has not answered 404', `${shown}: ${statusText(ex)}`, '404', statusText(ex))];
}

/** The invariants' verdicts on one conclusive exchange of a probe. */
export function judgeProbe(p: Probe, ex: ApiExchange): Verdict[] {
  if (!ex.response || ex.response.status === 401 || ex.response.status === 429) return [];
  if (p.op === 'createPet') return judgeCreate(p, ex);
  if (p.op === 'listPets') return judgeList(p, ex);
  return judgeGet(p, ex);
}
