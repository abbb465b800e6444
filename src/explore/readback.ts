/**
 * The read-back invariants of the stateful part: a created pet comes back
 * exactly as sent by id (GET-ROUND-TRIP) and in its status's list
 * (LIST-STATUS-FILTER), and a refused create shows up nowhere
 * (CREATE-400-NOTHING-STORED). Pure: an exchange in, verdicts out.
 */
import { exactInteger, isObject } from '../harness/ops.ts';
import type { Judgement } from '../core/judgement.ts';
import type { ApiExchange } from '../http/client.ts';
import { petDiffs, type Sent } from './oracle.ts';
import type { Probe } from './probe.ts';

/** GET-ROUND-TRIP: the created pet, read back by its id, is exactly what was sent. */
export function readBack(sent: Sent, ex: ApiExchange, id: string): Judgement[] {
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
        evidence: { expected: '200', actual: String(s) },
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
          evidence: { expected: 'the sent fields', actual: diffs.join('; ') },
        },
      ]
    : [{ requirement: 'GET-ROUND-TRIP', outcome: 'pass', title: 'Created pet reads back exactly', message: shown }];
}

/** LIST-STATUS-FILTER: a complete page of the pet's status lists it, exactly as created. */
export function listedBack(sent: Sent, ex: ApiExchange, id: string, limit: number): Judgement[] {
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
            evidence: { expected: `pet ${id} listed`, actual: `${page.length} animals without it` },
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
          evidence: { expected: 'the sent fields', actual: diffs.join('; ') },
        },
      ]
    : [{ requirement: 'LIST-STATUS-FILTER', outcome: 'pass', title: 'Created pet listed exactly under its status', message: what }];
}

/** CREATE-400-NOTHING-STORED on one page: refused creates listed (by their unique names), or a complete page without them. */
export function storedVerdicts(ex: ApiExchange, probes: readonly Probe[], status?: string): { verdicts: Judgement[]; hit?: Probe } {
  const page = ex.response?.status === 200 && Array.isArray(ex.json) ? ex.json : undefined;
  if (!page) return { verdicts: [] };
  const names = new Map(probes.map((p) => [p.name, p]));
  const found = page.filter((item) => isObject(item) && typeof item.name === 'string' && names.has(item.name));
  const hit = found.length ? names.get((found[0] as { name: string }).name) : undefined;
  if (hit)
    return {
      hit,
      verdicts: [
        {
          requirement: 'CREATE-400-NOTHING-STORED',
          outcome: 'fail',
          title: 'A refused createPet was stored anyway',
          message: `${found.length} pet(s) of ${probes.length} refused createPet request(s) listed, e.g. ${JSON.stringify(hit.name)} (${hit.why})`,
          evidence: { expected: 'no refused pet listed', actual: `${found.length} listed` },
        },
      ],
    };
  if (page.length < 100)
    return {
      verdicts: [
        {
          requirement: 'CREATE-400-NOTHING-STORED',
          outcome: 'pass',
          title: 'No refused createPet was stored',
          message: `${probes.length} refused, none in a complete page${status ? ` of status ${status}` : ''}`,
        },
      ],
    };
  return { verdicts: [] };
}
