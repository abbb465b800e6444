/**
 * The diff of two `npm run bench:verdicts` files (bench/verdicts-compare.ts), on made-up files: identical verdicts
 * give no difference and exit 0; a changed aggregated status, a change of raw findings alone, a configuration run on
 * one side only and a run that failed are each a difference (exit 1); a key that differed between a
 * configuration's attempts is unstable — listed, never counted. Nothing is run.
 */
import { describe, expect, it } from 'vitest';
import { diffFiles, exitCodeOf, formatDiff } from '../../bench/verdicts-compare.ts';
import { unstableOf, type RunEntry, type Verdicts, type VerdictsFile } from '../../bench/verdicts-model.ts';

const SHOULD_TITLE = 'Non-integer id not rejected';

/** A run whose GET-NON-INTEGER-ID-4XX (a SHOULD) has the given raw outcome and status, and whose LIST-200-PETS passed. */
const run = (raw = 'fail', status = 'warn', extra: Partial<RunEntry> = {}): RunEntry => ({
  settings: { name: 'conformance/fault/x', group: 'conformance' },
  verdicts: {
    status: [
      ['run', '*outcome', 'incomplete'],
      ['run', 'GET-NON-INTEGER-ID-4XX', status],
      ['run', 'LIST-200-PETS', 'pass'],
    ],
    raw: [
      ['run', 'GET-NON-INTEGER-ID-4XX', raw, SHOULD_TITLE],
      ['run', 'LIST-200-PETS', 'pass', 'Page of animals'],
    ],
  },
  volatile: {},
  ...extra,
});

const file = (runs: Record<string, RunEntry>): VerdictsFile => ({ meta: { label: 't' }, runs });
const one = (e: RunEntry) => file({ 'conformance/fault/x': e });

describe('the diff of two verdicts files', () => {
  it('Two files with the same verdicts have no difference and exit 0.', () => {
    const d = diffFiles(one(run()), one(run()));
    expect([d.differences, d.unstable, d.compared, exitCodeOf(d)]).toEqual([[], [], 1, 0]);
    expect(formatDiff(d).at(-1)).toMatch(/^1 of 1 configurations in both files; 0 differences/);
  });

  it('A changed aggregated status is a status difference, with the raw findings that changed with it, and exits 1.', () => {
    const d = diffFiles(one(run('pass', 'pass')), one(run('fail', 'warn')));
    expect(d.differences).toEqual([
      {
        config: 'conformance/fault/x',
        kind: 'status',
        scope: 'run',
        requirement: 'GET-NON-INTEGER-ID-4XX',
        before: 'pass',
        after: 'warn',
        raw: { before: `pass "${SHOULD_TITLE}"`, after: `fail "${SHOULD_TITLE}"` },
      },
    ]);
    expect([exitCodeOf(d), exitCodeOf(d, true)]).toEqual([1, 1]);
    expect(formatDiff(d)[0]).toBe(
      `status  conformance/fault/x  run GET-NON-INTEGER-ID-4XX: pass → warn  (raw: pass "${SHOULD_TITLE}" → fail "${SHOULD_TITLE}")`,
    );
  });

  it("A SHOULD whose raw outcome went 'fail' → 'warn' with its status 'warn' unchanged is a raw-only difference: exit 1, 0 with --status-only.", () => {
    const d = diffFiles(one(run('fail', 'warn')), one(run('warn', 'warn')));
    expect(d.differences.map((x) => [x.kind, x.requirement, x.before, x.after])).toEqual([
      ['raw', 'GET-NON-INTEGER-ID-4XX', `fail "${SHOULD_TITLE}"`, `warn "${SHOULD_TITLE}"`],
    ]);
    expect([exitCodeOf(d), exitCodeOf(d, true)]).toEqual([1, 0]);
    expect(formatDiff(d)[0]).toMatch(/^raw .* \(status unchanged\)$/);
  });

  it('A requirement exercised on one side only differs from its skip on the other.', () => {
    const skipped = run();
    skipped.verdicts = { status: skipped.verdicts!.status.slice(0, 2), raw: skipped.verdicts!.raw.slice(0, 1) };
    const d = diffFiles(one(skipped), one(run()));
    expect(d.differences.map((x) => [x.kind, x.requirement, x.before, x.after])).toEqual([['status', 'LIST-200-PETS', 'skip', 'pass']]);
  });

  it('A key unstable between the attempts of either file is listed as unstable, not as a difference, and exits 0.', () => {
    const unstable = { 'run GET-NON-INTEGER-ID-4XX': ['warn: fail "x"', 'pass: pass "x"'] };
    const d = diffFiles(one(run('pass', 'pass')), one(run('fail', 'warn', { unstable })));
    expect(d.differences).toEqual([]);
    expect(d.unstable).toEqual([
      {
        config: 'conformance/fault/x',
        key: 'run GET-NON-INTEGER-ID-4XX',
        side: 'after',
        attempts: unstable['run GET-NON-INTEGER-ID-4XX'].map((s) => `after: ${s}`),
      },
    ]);
    expect(exitCodeOf(d)).toBe(0);
    expect(formatDiff(d)[0]).toMatch(/^unstable conformance\/fault\/x {2}run GET-NON-INTEGER-ID-4XX \(after\)/);
  });

  it('A configuration run on one side only, and a run that failed, are differences.', () => {
    const failed = run('fail', 'warn', { errors: ['attempt 2: no answer within 90 s: killed'] });
    const d = diffFiles(file({ a: run(), b: run() }), file({ b: failed, c: run() }));
    expect(d.differences.map((x) => [x.config, x.kind, x.before, x.after])).toEqual([
      ['a', 'missing', 'run', 'not run'],
      ['b', 'error', 'no error', 'attempt 2: no answer within 90 s: killed'],
      ['c', 'missing', 'not run', 'run'],
    ]);
    expect([d.configs, d.compared, exitCodeOf(d, true)]).toEqual([3, 1, 1]);
  });
});

describe('the attempts of one configuration', () => {
  const v = (status: string, outcome: string): Verdicts => run(outcome, status).verdicts!;

  it('Attempts with the same verdicts have no unstable key.', () => {
    expect(unstableOf([v('warn', 'fail'), v('warn', 'fail')])).toEqual({});
  });

  it("Attempts that differ on a key give that key with each attempt's verdict, raw findings included.", () => {
    expect(unstableOf([v('warn', 'fail'), v('warn', 'warn')])).toEqual({
      'run GET-NON-INTEGER-ID-4XX': [`warn: fail "${SHOULD_TITLE}"`, `warn: warn "${SHOULD_TITLE}"`],
    });
  });
});
