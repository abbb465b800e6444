/**
 * Every finding of the exploration phase is replayable: the same seed sends the
 * same requests to the same server (another seed sends others); counterexamples
 * are saved per target and the next run replays them first — failing again, or
 * reported fixed and dropped; one the run cannot replay (a POST with writes off)
 * is kept for a run that can. A rate-limit finding says that its minimal request
 * alone may not reproduce it (the answer depends on the requests before it), and
 * is never saved: replayed alone, a pass would be a false "fixed".
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { keepCounterexamples, loadCounterexamples, loadStore, STORE_FILE, storeKey } from '../../src/explore/counterexample-store.ts';
import { replayLines } from '../../src/results/writers/replay.ts';
import { runSuiteAgainst } from '../support/suite.ts';
import { tempDir } from '../support/temp.ts';

/** The requests a run sent after the specs (the exploration phase's), as method, URL and body. */
async function phaseRequests(seed: string, faults: string[] = []): Promise<string[]> {
  const all: string[] = [];
  const run = await runSuiteAgainst(
    { faults: faults as never },
    { env: { ANIMAL_STORE_SEED: seed }, onRequest: (r) => all.push(`${r.method} ${r.url} ${r.body ?? ''}`) },
  );
  const specs = run.requests - Number(/, (\d+) of its/.exec(run.notes.join(' '))![1]);
  return all.slice(specs);
}

test('The same seed sends the same exploration requests to the same server, and another seed sends other generated ones.', async () => {
  const a = await phaseRequests('4242');
  const b = await phaseRequests('4242');
  const c = await phaseRequests('4243');
  expect(a.length).toBeGreaterThan(300);
  // The same requests, in whatever order: the phase sends several at a time when the server is slow (a loaded
  // machine), so two creates may reach the server, and get their ids, in either order.
  const sorted = (x: string[]) => [...x].sort();
  expect(sorted(b)).toEqual(sorted(a));
  expect(sorted(c)).not.toEqual(sorted(a));
});

test('A rate-limit finding says that its minimal request alone may not reproduce it: how many requests the run had sent before the one that failed, and the seed that replays them all; another finding says nothing of it.', async () => {
  const sent: string[] = [];
  const run = await runSuiteAgainst(
    { faults: ['limit-varies', 'get-mid-id-500'] },
    { onRequest: (r) => sent.push(`${r.method} ${r.url}`) },
  );
  const found = run.findings.filter((f) => f.replay && (f.outcome === 'fail' || f.outcome === 'warn'));
  const rateLimit = found.filter((f) => f.requirement.startsWith('RL-'));
  expect(rateLimit.map((f) => f.requirement).sort()).toEqual(['RL-LIMIT-CONSTANT', 'RL-LIMIT-PLAN']);
  for (const { replay: r } of rateLimit) {
    // A coverage case: the request that failed is the minimal request itself, the run's (requestsBefore + 1)th.
    expect(r?.requestsBefore).toBeGreaterThan(0);
    expect(sent[r!.requestsBefore!]).toBe(`${r!.method} ${r!.url}`);
    const lines = replayLines(r);
    const curl = lines.findIndex((l) => l.startsWith('minimal request: curl '));
    expect(lines[curl + 1]).toBe(
      `this request alone may not reproduce it: rate-limit headers depend on the requests sent on the key before it (the run had sent ${r!.requestsBefore}, those of its window among them); replay the whole run with --seed 1`,
    );
  }
  const other = found.find((f) => f.requirement === 'GET-404-UNKNOWN');
  expect(other?.replay?.requestsBefore).toBeUndefined();
  expect(replayLines(other?.replay).join('\n')).not.toContain('alone may not reproduce');
});

test('A failing run saves its counterexamples; the next run replays them first and reports them as failing since then.', async () => {
  const dir = tempDir('animal-store-explore');
  const env = { ANIMAL_STORE_REPORTS_DIR: dir };
  const first = await runSuiteAgainst({ faults: ['get-mid-id-500'] }, { env });
  expect(first.status('GET-404-UNKNOWN')).toBe('fail');
  expect(keepCounterexamples(dir, { baseUrl: 'http://127.0.0.1:4010/v1', embedded: true }, first.findings)).toMatch(
    /counterexamples? saved/,
  );
  const saved = loadCounterexamples(dir, storeKey('http://127.0.0.1:4010/v1', true));
  expect(saved.map((c) => c.requirement)).toContain('GET-404-UNKNOWN');

  const second = await runSuiteAgainst({ faults: ['get-mid-id-500'] }, { env: { ...env, ANIMAL_STORE_SEED: '99' } });
  const replayed = second.findings.find((f) => f.requirement === 'GET-404-UNKNOWN' && f.outcome === 'fail');
  expect(replayed?.replay?.phase).toBe('replayed');
  expect(replayed?.replay?.firstSeen).toBe(saved.find((c) => c.requirement === 'GET-404-UNKNOWN')!.firstSeen);
  // The replay came first: before any coverage case was sent.
  expect(second.findings.findIndex((f) => f === replayed)).toBeLessThan(second.findings.findIndex((f) => f.source === 'explore: coverage'));
});

test('A saved counterexample that no longer fails is reported fixed and dropped from the store.', async () => {
  const dir = tempDir('animal-store-explore');
  const env = { ANIMAL_STORE_REPORTS_DIR: dir };
  const target = { baseUrl: 'http://127.0.0.1:4010/v1', embedded: true };
  keepCounterexamples(dir, target, (await runSuiteAgainst({ faults: ['limit-sign-500'] }, { env })).findings);
  expect(loadCounterexamples(dir, storeKey(target.baseUrl, true)).length).toBeGreaterThan(0);
  const fixed = await runSuiteAgainst({}, { env });
  expect(fixed.problems()).toEqual([]);
  expect(fixed.findings.filter((f) => f.replay?.fixed).map((f) => f.title)).toContain('Saved counterexample fixed');
  expect(keepCounterexamples(dir, target, fixed.findings)).toMatch(/fixed and dropped/);
  expect(loadCounterexamples(dir, storeKey(target.baseUrl, true))).toEqual([]);
});

test('A saved createPet counterexample is not replayed when writes are off, and stays saved for a run that may write.', async () => {
  const dir = tempDir('animal-store-explore');
  const target = { baseUrl: 'http://127.0.0.1:4010/v1', embedded: true };
  keepCounterexamples(
    dir,
    target,
    (await runSuiteAgainst({ faults: ['name-astral-500'] }, { env: { ANIMAL_STORE_REPORTS_DIR: dir } })).findings,
  );
  const before = loadCounterexamples(dir, storeKey(target.baseUrl, true));
  expect(before.some((c) => c.probe.op === 'createPet')).toBe(true);
  const posts: string[] = [];
  const readOnly = await runSuiteAgainst(
    { faults: ['name-astral-500'] },
    {
      env: { ANIMAL_STORE_REPORTS_DIR: dir, ANIMAL_STORE_ALLOW_WRITES: 'false' },
      // POST /pets: a create (every-method.spec.ts sends POST only to an id no server issued, without a valid key).
      onRequest: (r) => r.method === 'POST' && r.url.endsWith('/pets') && posts.push(r.url),
    },
  );
  expect(posts).toEqual([]);
  keepCounterexamples(dir, target, readOnly.findings);
  expect(loadCounterexamples(dir, storeKey(target.baseUrl, true)).filter((c) => c.probe.op === 'createPet')).toEqual(
    before.filter((c) => c.probe.op === 'createPet'),
  );
});

test('Counterexamples are kept per target: another base URL starts with none.', () => {
  const dir = tempDir('animal-store-explore');
  keepCounterexamples(dir, { baseUrl: 'https://a.example/v1', embedded: false }, [
    {
      requirement: 'GET-404-UNKNOWN',
      outcome: 'fail',
      title: 'An id no pet has not answered 404',
      message: 'x',
      source: 'explore: coverage',
      replay: { phase: 'coverage', request: 'GET /pets/5', probe: { kind: 'single', op: 'getPet', petId: '5' } },
    },
  ]);
  expect(loadCounterexamples(dir, 'https://a.example/v1')).toHaveLength(1);
  expect(loadCounterexamples(dir, 'https://b.example/v1')).toEqual([]);
});

test('A rate-limit counterexample is never saved (replayed alone it proves nothing), and one an older run saved — or one under a requirement id the catalogue no longer has — is dropped, never reported fixed.', async () => {
  const dir = tempDir('animal-store-explore');
  const target = { baseUrl: 'http://127.0.0.1:4010/v1', embedded: true };
  const run = await runSuiteAgainst({ faults: ['limit-varies', 'get-mid-id-500'] }, { env: { ANIMAL_STORE_REPORTS_DIR: dir } });
  expect(run.findings.some((f) => f.replay && f.outcome === 'fail' && f.requirement.startsWith('RL-'))).toBe(true);
  keepCounterexamples(dir, target, run.findings);
  const saved = loadCounterexamples(dir, storeKey(target.baseUrl, true));
  expect(saved.map((c) => c.requirement)).toContain('GET-404-UNKNOWN');
  expect(saved.filter((c) => c.requirement.startsWith('RL-'))).toEqual([]);
  // A store written before: a rate-limit counterexample in it.
  const old = { ...saved[0], requirement: 'RL-LIMIT-CONSTANT', signature: 'RL-LIMIT-CONSTANT · X-RateLimit-Limit changed' };
  const file = join(dir, STORE_FILE);
  const store = JSON.parse(readFileSync(file, 'utf8')) as { targets: Record<string, unknown[]> };
  const renamed = { ...saved[0], requirement: 'GET-UNKNOWN-404', signature: 'GET-UNKNOWN-404 · 5xx for an unknown id' };
  store.targets[storeKey(target.baseUrl, true)] = [old, renamed];
  writeFileSync(file, JSON.stringify(store));
  expect(loadCounterexamples(dir, storeKey(target.baseUrl, true))).toEqual([]);
  const next = await runSuiteAgainst({}, { env: { ANIMAL_STORE_REPORTS_DIR: dir } });
  expect(next.findings.filter((f) => f.replay?.fixed)).toEqual([]);
  expect(loadCounterexamples(dir, storeKey(target.baseUrl, true))).toEqual([]);
});

test("A store of the old shape still loads: each saved surface variant becomes the form it was (a HTTP-EQUIVALENT-FORMS signature naming that form's dimension), and it replays; one no form stands for is left out with a note, and dropped at the next save.", async () => {
  const dir = tempDir('animal-store-explore');
  const key = storeKey('http://127.0.0.1:4010/v1', true);
  const saved = (variant: string, extra: Record<string, unknown>) => ({
    signature: 'HTTP-EQUIVALENT-FORMS · Not served like its equivalent request (ct-charset)',
    requirement: 'HTTP-EQUIVALENT-FORMS',
    title: 'Not served like its equivalent request (ct-charset)',
    request: `POST /pets (content-type: application/json; charset=utf-8) {"name":"animal-store-conformance-old-${variant}","categoryId":1}`,
    probe: {
      kind: 'single',
      op: 'createPet',
      body: `{"name":"animal-store-conformance-old-${variant}","categoryId":1}`,
      variant,
      ...extra,
    },
    firstSeen: '2026-11-01T00:00:00.000Z',
    lastSeen: '2026-11-01T00:00:00.000Z',
  });
  writeFileSync(
    join(dir, STORE_FILE),
    JSON.stringify({
      version: 1,
      targets: {
        [key]: [saved('ct-charset', { headers: { 'content-type': 'application/json; charset=utf-8' } }), saved('no-such-variant', {})],
      },
    }),
  );
  const { saved: loaded, dropped } = loadStore(dir, key);
  expect(loaded).toHaveLength(1);
  expect(loaded[0].probe.surface).toEqual([expect.objectContaining({ kind: 'header', id: 'content-type', cls: 'equivalent-http' })]);
  expect(loaded[0].probe.variant).toBeUndefined();
  expect(loaded[0].signature).toBe('HTTP-EQUIVALENT-FORMS · Not served like its equivalent request (content-type)');
  expect(dropped).toEqual([
    expect.stringMatching(/names a surface variant "no-such-variant" this suite no longer has; it is not replayed/),
  ]);
  // Replayed against a server that refuses a charset parameter: it still fails, the same way.
  const run = await runSuiteAgainst({ faults: ['charset-415'] }, { env: { ANIMAL_STORE_REPORTS_DIR: dir } });
  const replayed = run.findings.find((f) => f.replay?.phase === 'replayed' && f.requirement === 'HTTP-EQUIVALENT-FORMS');
  expect(replayed?.replay?.firstSeen).toBe('2026-11-01T00:00:00.000Z');
  expect(run.notes.join('\n')).toMatch(/no-such-variant/);
  keepCounterexamples(dir, { baseUrl: 'http://127.0.0.1:4010/v1', embedded: true }, run.findings);
  expect(JSON.stringify(JSON.parse(readFileSync(join(dir, STORE_FILE), 'utf8')))).not.toMatch(/no-such-variant|"variant"/);
});
