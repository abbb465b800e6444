/**
 * The operations the ceiling and the recovery interleave (load/lib/operations.ts), and what they catch on both engines
 * (the Node engine, the k6 bundles in the emulator; simulated time): a limiter counted per route fails
 * RL-REMAINING-DECREMENTS by name, writes on or off; a createPet refused with 429 and stored anyway fails
 * RL-429-NOTHING-STORED in the ceiling alone and in the recovery; the correct server passes both; with writes off no
 * POST is ever sent. The mix itself: a table of what it sends.
 */
import { describe, expect, it } from 'vitest';
import type { App, AppOptions } from '../../reference/app.ts';
import type { ScenarioName } from '../../src/core/scenarios.ts';
import { OperationMix, PAGE_LIMIT, type LoadRequest, type MixOptions } from '../../load/lib/operations.ts';
import { builtBundles } from '../support/bundles.ts';
import { PER_MINUTE, runVirtual, type EngineKind } from './helpers.ts';

const bundles = builtBundles('operations-dist');

/** The methods and paths a run sent to the app. */
function recorder(): { sent: string[]; before: (app: App) => void } {
  const sent: string[] = [];
  return {
    sent,
    before: (app) => {
      const call = app.call;
      app.call = (req) => (sent.push(`${req.method ?? 'GET'} ${req.url ?? ''}`), call(req));
    },
  };
}

async function run(kind: EngineKind, scenarios: ScenarioName[], options: AppOptions, writes: boolean) {
  const rec = recorder();
  const out = await runVirtual(kind, scenarios, options, { dist: bundles.dir, job: { allowWrites: writes }, before: rec.before });
  return { ...out, sent: rec.sent };
}

/** k6's setup() probes the target once per single-VU scenario (its reachability; not one of the scenario's requests). */
const probes = (kind: EngineKind, scenarios: number) => (kind === 'k6' ? scenarios : 0);

const judgement = (r: Awaited<ReturnType<typeof run>>, scenario: ScenarioName, requirement: string) =>
  r.reports.find((x) => x.scenario === scenario)?.judgements.find((j) => j.requirement === requirement);

describe.each(['node', 'k6'] as const)('on the %s engine', (kind) => {
  it.each([
    ['the correct server', 'pass', 'A createPet refused with 429 stored nothing', []],
    ['create-429-stored', 'fail', 'A createPet refused with 429 was stored anyway', ['create-429-stored']],
  ] as const)(
    'The ceiling alone, writes on, %s: RL-429-NOTHING-STORED %s, in Limit + 2 requests.',
    async (_name, outcome, title, faults) => {
      const r = await run(kind, ['ceiling'], { faults: [...faults] }, true);
      const j = judgement(r, 'ceiling', 'RL-429-NOTHING-STORED');
      expect([j?.outcome, j?.title]).toEqual([outcome, title]);
      if (j?.outcome === 'fail') expect(j.evidence?.request?.url).toMatch(/\/v1\/pets\?status=\w+&limit=100$/); // the read-back
      expect(r.sent.filter((x) => x.startsWith('POST'))).toHaveLength(2); // one create on the way, one at the limit
      expect(r.sent).toHaveLength(PER_MINUTE + 2 + probes(kind, 1)); // the limit, the POST refused, its read-back
      expect(r.sent.at(-1)).toMatch(/^GET \/v1\/pets\?status=\w+&limit=100$/);
    },
  );

  it('Ceiling then recovery, writes on: the ceiling leaves its POST at the limit to the recovery, whose probe reads it back.', async () => {
    const r = await run(kind, ['ceiling', 'recovery'], { faults: ['create-429-stored'] }, true);
    expect(judgement(r, 'ceiling', 'RL-429-NOTHING-STORED')).toBeUndefined();
    expect(judgement(r, 'recovery', 'RL-429-NOTHING-STORED')?.outcome).toBe('fail');
    expect(judgement(r, 'recovery', 'RL-RECOVERY')?.outcome).toBe('pass');
    expect(r.sent).toHaveLength(2 * PER_MINUTE + 3 + probes(kind, 2)); // the ceiling's 429 a GET, the recovery's a POST, its read-back
  });

  it.each([true, false])('limit-per-route fails RL-REMAINING-DECREMENTS by name in the ceiling (writes %s).', async (writes) => {
    const r = await run(kind, ['ceiling'], { faults: ['limit-per-route'] }, writes);
    const j = judgement(r, 'ceiling', 'RL-REMAINING-DECREMENTS');
    expect([j?.outcome, j?.title]).toEqual(['fail', 'Remaining counted per operation, not per key']);
    expect(r.sent.some((x) => /^GET \/v1\/pets\/\d+$/.test(x))).toBe(true);
  });

  it('Writes off (production): only GETs, listPets and getPet interleaved, and no RL-429-NOTHING-STORED judgement.', async () => {
    const r = await run(kind, ['ceiling', 'recovery'], {}, false);
    expect(r.sent.every((x) => x.startsWith('GET '))).toBe(true);
    expect(r.sent.filter((x) => /^GET \/v1\/pets\/\d+$/.test(x)).length).toBeGreaterThan(PER_MINUTE / 4);
    expect(r.reports.map((x) => [x.scenario, x.verdict])).toEqual([
      ['ceiling', 'pass'],
      ['recovery', 'pass'],
    ]);
    for (const x of r.reports) expect(x.judgements.some((j) => j.requirement === 'RL-429-NOTHING-STORED')).toBe(false);
  });
});

describe('what the mix sends', () => {
  const mix = (o: Partial<MixOptions> = {}) =>
    new OperationMix({ mixed: true, writes: true, postAtLimit: true, namePrefix: 'p-', random: () => 0.5, ...o });
  const show = (r: LoadRequest) => `${r.method} ${r.path}`;
  /** Big ids above 2^53 are kept as their digits. */
  const PAGE = '[{"id":9007199254740993,"name":"Rex","categoryId":1,"status":"available"}]';

  it.each([
    [
      'writes on',
      {},
      [
        'GET /pets?limit=1',
        'GET /pets?status=available&limit=100',
        'GET /pets?status=pending&limit=100',
        'GET /pets?status=sold&limit=100',
        'POST /pets',
        'GET /pets/9007199254740993',
        'GET /pets?limit=1',
        'GET /pets?limit=1',
        'GET /pets/9007199254740993',
      ],
    ],
    [
      'writes off',
      { writes: false },
      [
        'GET /pets?limit=1',
        'GET /pets?limit=1',
        'GET /pets/9007199254740993',
        'GET /pets?limit=1',
        'GET /pets?limit=1',
        'GET /pets/9007199254740993',
        'GET /pets?limit=1',
        'GET /pets?limit=1',
        'GET /pets/9007199254740993',
      ],
    ],
    ['not mixed (the paced scenarios)', { mixed: false }, Array(9).fill('GET /pets?limit=1')],
  ] as const)('%s: the way to the limit', (_name, o, expected) => {
    const m = mix(o);
    const sent = expected.map(() => {
      const r = m.next('body');
      m.observe(r, r.op === 'createPet' ? 201 : 200, r.op === 'listPets' ? PAGE : '{}');
      return show(r);
    });
    expect(sent).toEqual(expected);
  });

  it.each([
    ['writes on', {}, ['POST /pets', 'POST /pets', 'GET /pets?limit=1'], 'GET /pets?status=sold&limit=100'],
    ['writes off', { writes: false }, ['GET /pets?limit=1', 'GET /pets?limit=1', 'GET /pets?limit=1'], 'GET /pets?limit=1'],
    // no POST at the limit: the requests go on along the way to it (each status's page first)
    [
      'left to the recovery',
      { postAtLimit: false },
      ['GET /pets?limit=1', 'GET /pets?status=available&limit=100', 'GET /pets?status=pending&limit=100'],
      'GET /pets?limit=1',
    ],
  ] as const)('%s: at most two POSTs at the limit, the probe reads a refused one back', (_name, o, atLimit, probe) => {
    const m = mix(o);
    // pages of 40, 30 and 20 animals: the shortest (sold) is the one that can prove a refused create absent
    for (const [status, n] of [
      ['available', 40],
      ['pending', 30],
      ['sold', 20],
    ] as const)
      m.observe({ op: 'listPets', method: 'GET', path: '', status }, 200, JSON.stringify(Array(n).fill({ name: 'x' })));
    const sent = atLimit.map(() => {
      const r = m.next('limit');
      m.observe(r, 429, '{}');
      return show(r);
    });
    expect(sent).toEqual(atLimit);
    expect(show(m.next('probe'))).toBe(probe);
  });

  it('A POST at the limit that was served (a window turned unseen) makes the next request at the limit a POST again, up to eight in all.', () => {
    const m = mix();
    const answers = [201, 201, 201, 429];
    const sent = answers.map((status) => {
      const r = m.next('limit');
      m.observe(r, status, '{}');
      return show(r);
    });
    expect(sent).toEqual(Array(4).fill('POST /pets'));
    const served = mix();
    const all = Array.from({ length: 10 }, () => {
      const r = served.next('limit');
      served.observe(r, r.op === 'createPet' ? 201 : 200, '{}');
      return r.op;
    });
    expect(all.filter((op) => op === 'createPet').length).toBe(8);
  });

  it('A read-back page says which refused creates it lists, and how many animals it held.', () => {
    const m = mix();
    const post = m.next('limit');
    expect(m.observe(post, 429, '{}')).toBeUndefined();
    const back = m.next('probe');
    const page = JSON.stringify([{ name: 'other' }, { name: post.name }]);
    expect(m.observe(back, 200, page)).toEqual({ status: back.status, size: 2, limit: PAGE_LIMIT, listed: [post.name] });
  });
});
