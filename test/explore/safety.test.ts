/**
 * The exploration phase is safe and bounded: it spends at most its budget and
 * never more than what the run's budget leaves, 0 turns it off, it sends no
 * POST when writes are off, a deadline ends it cleanly, and its report line
 * says what it spent.
 */
import { expect, test } from 'vitest';
import { runSuiteAgainst } from '../support/suite.ts';
import { DEMO_KEYS } from '../../reference/keys.ts';

async function counted(env: Record<string, string>, plan?: 'free') {
  const sent: string[] = [];
  const unsafe: string[] = [];
  const key = (h?: Record<string, string>) => Object.values(DEMO_KEYS).some((k) => h?.authorization === `Bearer ${k}`);
  const run = await runSuiteAgainst(
    {},
    {
      env,
      plan,
      onRequest: (r) => {
        sent.push(r.method);
        if (!['GET', 'HEAD', 'OPTIONS', 'TRACE', 'QUERY'].includes(r.method))
          unsafe.push(`${r.method} ${new URL(r.url).pathname} ${key(r.headers) ? 'with a key' : 'no valid key'}`);
      },
    },
  );
  const spent = Number(/, (\d+) of its/.exec(run.notes.join(' '))?.[1] ?? 0);
  return { run, sent, unsafe, spent };
}

test('The phase sends at most its budget, and 0 turns it off.', async () => {
  const specsOnly = await counted({ ANIMAL_STORE_EXPLORE_BUDGET: '0' });
  expect(specsOnly.run.notes.join(' ')).not.toMatch(/Exploration/);
  const small = await counted({ ANIMAL_STORE_EXPLORE_BUDGET: '50' });
  expect(small.spent).toBeGreaterThan(0);
  expect(small.spent).toBeLessThanOrEqual(50);
  expect(small.sent.length - specsOnly.sent.length).toBe(small.spent);
  expect(small.run.problems()).toEqual([]);
});

test('The phase never spends more than the run budget leaves, and the run is not cut short by it.', async () => {
  const specsOnly = await counted({ ANIMAL_STORE_EXPLORE_BUDGET: '0' });
  const capped = await counted({ ANIMAL_STORE_MAX_REQUESTS: String(specsOnly.sent.length + 30) });
  expect(capped.sent.length).toBeLessThanOrEqual(specsOnly.sent.length + 30);
  expect(capped.run.abort).toBeUndefined();
  expect(capped.run.problems()).toEqual([]);
});

test('With writes off the whole run, the exploration phase included, sends no POST, and the phase still explores the reads.', async () => {
  const r = await counted({ ANIMAL_STORE_ALLOW_WRITES: 'false' });
  // No method that could write, but those the method spec sends to an id no server issued: without a valid key, and
  // DELETE with it (conformance/auth/every-method.spec.ts).
  const harmless = /^\S+ \/v1\/pets\/9223372036854770001 (?:no valid key|with a key)$/;
  expect(
    r.unsafe.filter((u) => !harmless.test(u)),
    r.unsafe.join('\n'),
  ).toEqual([]);
  expect(r.unsafe.length).toBeGreaterThan(0);
  expect(r.spent).toBeGreaterThan(50);
  expect(r.run.notes.join(' ')).toMatch(/GET only \(writes are off\)/);
  expect(r.run.problems()).toEqual([]);
});

test('A deadline reached during the phase ends the run cleanly: an abort, no suite error, nothing blamed on the server.', async () => {
  // A Free key paces at 60 a minute: the specs and the phase need several minutes of simulated time.
  const r = await counted({ ANIMAL_STORE_DEADLINE_MS: String(4 * 60_000) }, 'free');
  expect(r.run.abort).toMatch(/deadline/);
  expect(r.run.findings.filter((f) => f.outcome === 'error')).toEqual([]);
  expect(r.run.problems()).toEqual([]);
});
