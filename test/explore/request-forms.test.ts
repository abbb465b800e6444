/**
 * The method, the credential and the held id's shifts are dimensions of the exploration's own requests (issue 39):
 * the reference server's faults on them are found by the exploration alone — the table-driven specs off — in every
 * seed tried, by the requirement the spec files judge them by; the valid variants of them raise no alarm; a failure
 * shrinks to the smallest variation (the smallest edit of the key; the method kept), and a saved counterexample
 * replays the exact request without ever holding the key.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { FaultName } from '../../reference/faults.ts';
import { DEMO_KEYS } from '../../reference/keys.ts';
import type { AppOptions } from '../../reference/options.ts';
import type { SpecFile } from '../../src/harness/define-spec.ts';
import { keepCounterexamples, STORE_FILE } from '../../src/explore/counterexample-store.ts';
import { runSuiteAgainst } from '../support/suite.ts';
import { tempDir } from '../support/temp.ts';

const EXPLORATION_ALONE = (f: SpecFile) => f.operation === 'exploration';
const GENERATED_ALONE = (f: SpecFile) => f.operation === 'exploration' && f.behaviour === 'generated-requests';
const REPLAY_ALONE = (f: SpecFile) => f.operation === 'exploration' && f.behaviour === 'counterexamples-replayed';

/**
 * Faults run together, one requirement and title each (the phase reports a kind of failure once); each is told by
 * its requirement, outcome and what the finding's request shows of it.
 */
const GROUPS: readonly (readonly [FaultName, string, 'fail' | 'warn', RegExp])[][] = [
  [
    ['head-skips-auth', 'AUTH-EVERY-METHOD', 'fail', /^HEAD /],
    ['key-case-insensitive', 'AUTH-UNKNOWN-KEY-401', 'fail', /case of/],
    ['key-from-query', 'AUTH-KEY-CHANNEL', 'fail', /query parameter/],
    ['basic-password-key', 'AUTH-WRONG-SCHEME-401', 'fail', /password of a Basic/],
    ['method-405-bare', 'METHOD-405-ALLOW', 'fail', /^(TRACE|QUERY|POST|PUT|PATCH|DELETE) /],
    ['petid-uint64-wrap', 'GET-404-UNKNOWN', 'fail', /2\^64/],
    ['access-token-query-accepted', 'AUTH-KEY-IN-URL', 'warn', /access_token/],
  ],
  [
    ['undocumented-delete-no-auth', 'AUTH-EVERY-METHOD', 'fail', /^DELETE /],
    ['token-unanchored', 'AUTH-UNKNOWN-KEY-401', 'fail', /more word/],
    ['key-from-header', 'AUTH-KEY-CHANNEL', 'fail', /x-api-key/],
    ['petid-low-32-bits', 'GET-404-UNKNOWN', 'fail', /HTTP 200 with id/],
    ['method-405-allow-partial', 'METHOD-405-DETAILS', 'warn', /omits POST/],
    ['head-ignores-query', 'METHOD-HEAD-AS-GET', 'fail', /^HEAD \/pets\?limit=.* with the key: HTTP 200; GET .*: HTTP 400/],
  ],
  // A token sharing the key's first 16 characters is the key: any near-miss past them shows it.
  [['auth-prefix-match', 'AUTH-UNKNOWN-KEY-401', 'fail', /the key/]],
];

const SEEDS = ['1', '2', '3', '4', '5'];

describe('found by the exploration alone', () => {
  test.each(GROUPS.flatMap((g, i) => SEEDS.map((seed) => [i + 1, seed, g] as const)))(
    'Group %s, seed %s: every fault of the group is reported by its requirement, with a replayable counterexample.',
    async (_, seed, group) => {
      const run = await runSuiteAgainst({ faults: group.map(([f]) => f) }, { env: { ANIMAL_STORE_SEED: seed }, specs: EXPLORATION_ALONE });
      for (const [fault, requirement, outcome, shows] of group) {
        const found = run.findings.filter((f) => f.requirement === requirement && f.outcome === outcome && f.replay);
        expect(
          found.some((f) => shows.test(f.message)),
          `${fault}: ${found.map((f) => f.message).join(' | ') || run.problems().join('\n')}`,
        ).toBe(true);
      }
      expect(JSON.stringify(run.findings)).not.toContain(DEMO_KEYS.business);
    },
  );
});

const VARIANTS: readonly [string, AppOptions][] = [
  ['head=405', { variants: { head: '405' } }],
  ['cors', { variants: { cors: true } }],
  ['options=open', { variants: { options: 'open' } }],
  ['options=express', { variants: { options: 'express' } }],
  ['routerFirst', { variants: { routerFirst: true } }],
  ['trailingSlash', { variants: { trailingSlash: true } }],
  ['idNotInt64=400 with strictIntegers', { variants: { idNotInt64: '400', strictIntegers: true } }],
  ['idNotInt64=404', { variants: { idNotInt64: '404' } }],
  ['outOfRangeLimit=clamp with nonIntegerLimit=default', { variants: { outOfRangeLimit: 'clamp', nonIntegerLimit: 'default' } }],
];

test.each(VARIANTS.flatMap(([name, options]) => ['1', '2'].map((seed) => [name, seed, options] as const)))(
  'The valid variant %s (seed %s) gets no alarm from the exploration alone.',
  async (_, seed, options) => {
    const run = await runSuiteAgainst(options, { env: { ANIMAL_STORE_SEED: seed }, specs: EXPLORATION_ALONE });
    expect(run.problems()).toEqual([]);
  },
);

describe('shrinking', () => {
  test('A credential counterexample shrinks to the smallest edit of the key: the case of its first letter.', async () => {
    const run = await runSuiteAgainst(
      { faults: ['key-case-insensitive'] },
      { env: { ANIMAL_STORE_SEED: '2' }, specs: GENERATED_ALONE, exploreBudget: 1200 },
    );
    const f = run.findings.find((x) => x.requirement === 'AUTH-UNKNOWN-KEY-401' && x.outcome === 'fail')!;
    expect(f.replay?.phase).toBe('generated');
    expect(f.replay?.shrinkPath?.[0]).toMatch(/case of every letter/);
    expect(f.replay?.shrinks).toBeGreaterThan(0);
    expect(f.replay?.probe?.credential).toEqual({ near: { edit: 'case', at: 0 } });
  });

  test('A method counterexample keeps its method and shrinks its credential to none.', async () => {
    const run = await runSuiteAgainst(
      { faults: ['undocumented-delete-no-auth'] },
      { env: { ANIMAL_STORE_SEED: '1' }, specs: GENERATED_ALONE, exploreBudget: 1200 },
    );
    const f = run.findings.find((x) => x.requirement === 'AUTH-EVERY-METHOD' && x.outcome === 'fail')!;
    expect(f.replay?.shrinkPath?.[0]).toMatch(/^DELETE .*another key/);
    expect(f.replay?.shrinks).toBeGreaterThan(0);
    expect(f.replay?.probe).toMatchObject({ method: 'DELETE', headers: { authorization: null }, petId: '9223372036854770001' });
    expect(f.replay?.probe?.credential).toBeUndefined();
  });
});

/** Run a fault's exploration, save its counterexamples, replay them alone: the wire of the failing request, then of its replay. */
async function savedAndReplayed(fault: FaultName, requirement: string, seed: string) {
  const dir = tempDir('animal-store-request-forms');
  const wires: { method: string; url: string; authorization?: string }[] = [];
  const onRequest = (r: { method: string; url: string; headers?: Record<string, string> }) =>
    wires.push({ method: r.method, url: r.url, ...(r.headers?.authorization ? { authorization: r.headers.authorization } : {}) });
  const env = { ANIMAL_STORE_REPORTS_DIR: dir, ANIMAL_STORE_SEED: seed };
  const first = await runSuiteAgainst({ faults: [fault] }, { env, specs: EXPLORATION_ALONE, onRequest });
  const f = first.findings.find((x) => x.requirement === requirement && x.outcome === 'fail' && x.replay)!;
  expect(keepCounterexamples(dir, { baseUrl: 'http://127.0.0.1:4010/v1', embedded: true }, first.findings)).toMatch(/saved/);
  const store = readFileSync(join(dir, STORE_FILE), 'utf8');
  const sent = wires.filter((w) => w.method === f.replay!.method && w.url.startsWith(f.replay!.url!.split('?')[0]));
  wires.length = 0;
  const second = await runSuiteAgainst({ faults: [fault] }, { env: { ...env, ANIMAL_STORE_SEED: '77' }, specs: REPLAY_ALONE, onRequest });
  const replayed = second.findings.find((x) => x.requirement === requirement && x.outcome === 'fail');
  return { f, store, sent, replayedWire: wires, replayed };
}

describe('replay', () => {
  test('A saved method counterexample replays the exact request: the method, the path, no valid credential.', async () => {
    const { f, sent, replayedWire, replayed } = await savedAndReplayed('undocumented-delete-no-auth', 'AUTH-EVERY-METHOD', '1');
    expect(f.replay?.probe?.method).toBe('DELETE');
    expect(replayed?.replay?.phase).toBe('replayed');
    expect(sent).toContainEqual(replayedWire[0]);
    expect(replayedWire[0]).toMatchObject({ method: 'DELETE', url: 'http://127.0.0.1:4010/v1/pets/9223372036854770001' });
    expect(replayedWire[0].authorization).not.toBe(`Bearer ${DEMO_KEYS.business}`);
  });

  test('A saved credential counterexample replays the exact near-miss of the key, and the store never holds the key.', async () => {
    const { f, store, sent, replayedWire, replayed } = await savedAndReplayed('key-case-insensitive', 'AUTH-UNKNOWN-KEY-401', '1');
    expect(f.replay?.probe?.credential).toHaveProperty('near');
    expect(replayed?.replay?.phase).toBe('replayed');
    const token = replayedWire[0].authorization!.slice('Bearer '.length);
    expect(token).not.toBe(DEMO_KEYS.business);
    expect(token.toLowerCase()).toBe(DEMO_KEYS.business.toLowerCase());
    expect(sent).toContainEqual(replayedWire[0]);
    expect(store.toLowerCase()).not.toContain(DEMO_KEYS.business.toLowerCase().slice(0, 17));
  });
});
