/**
 * The workflows carry what the suite remembers. A CI job starts on a fresh machine: every file a later run reads of
 * the earlier ones (RUN_MEMORY, src/cli/run-memory.ts — the newest certifications for the comparison, the
 * exploration's counterexamples for the replay) must be restored into the reports folder before the certify step and
 * saved after it, or the nightly compares with nothing and re-checks none of last night's failures. Each workflow's
 * keep and put-back steps are run here with bash: every remembered file goes round, nothing else does. And a second
 * `npm start` is traced to see that the files it reads of the first run's reports folder are exactly RUN_MEMORY's,
 * so that a new reader cannot be forgotten by the list (and so by the workflows).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isRemembered, patternOf, RUN_MEMORY } from '../../src/cli/run-memory.ts';
import { ROOT, runCli, withReference } from '../support/cli.ts';
import { tempDir } from '../support/temp.ts';
import { type Step, type Workflow, certifyJob, indexOf, load, runShell, stepById } from '../support/workflows.ts';

const FILES = ['nightly-production.yml', 'pre-release-staging.yml'];

const find = (w: Workflow, test: (s: Step) => boolean, what: string): Step => {
  const s = certifyJob(w).steps.find(test);
  if (!s) throw new Error(`no step that ${what}`);
  return s;
};
const restoreOf = (w: Workflow) => find(w, (s) => s.uses === 'actions/cache/restore@v4', 'restores the cache');
const saveOf = (w: Workflow) => find(w, (s) => s.uses === 'actions/cache/save@v4', 'saves the cache');
const putBackOf = (w: Workflow) => find(w, (s) => s.name === 'Put them back in the reports folder', 'puts the memory back');
const keepOf = (w: Workflow) => find(w, (s) => !!s.name?.startsWith('Keep what the next run reads'), 'keeps the memory');

/** Every file below `dir`, as paths relative to it with `/`. */
function filesBelow(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) =>
      join(e.parentPath, e.name)
        .slice(dir.length + 1)
        .split('\\')
        .join('/'),
    )
    .sort();
}

function write(dir: string, path: string, text: string) {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), text);
}

/**
 * A finished run's reports folder: every file RUN_MEMORY lists (eight runs' worth of each one per run), and beside
 * them files no later run reads (each run's other reports, the top-level copies, latest.json).
 */
function finishedRun(dir: string): void {
  const runs = [1, 2, 3, 4, 5, 6, 7, 8].map((day) => ({ day, id: `2026-01-0${day}T03-17-00-000Z-${day}` }));
  for (const m of RUN_MEMORY)
    for (const { day, id } of m.path.includes('*') ? runs : runs.slice(-1))
      write(dir, `reports/${m.path.replace('*', id)}`, `${m.path} of day ${day}\n`);
  for (const { day, id } of runs)
    for (const f of ['index.html', 'junit.xml']) write(dir, `reports/runs/${id}/${f}`, `${f} of day ${day}\n`);
  for (const f of ['certification.json', 'index.html', 'junit.xml', 'summary.md', 'badge.svg', 'latest.json'])
    write(dir, `reports/${f}`, `${f} of day 8\n`);
}

/** The remembered files a run would find after the keep step of one job and the put-back step of the next. */
function roundTrip(keep: Step, putBack: Step): { before: string[]; after: string[]; dir: string } {
  const first = tempDir('wf-memory');
  finishedRun(first);
  const kept = runShell(keep.run!, keep.env ?? {}, first);
  if (kept.code !== 0) throw new Error(`keep step failed: ${kept.stderr}`);
  const memory = String(keep.env?.MEMORY);
  // the cache holds the kept folder: the next job (a fresh machine) gets it back at the same path
  const next = tempDir('wf-memory');
  for (const f of filesBelow(join(first, memory))) write(next, `${memory}/${f}`, readFileSync(join(first, memory, f), 'utf8'));
  const put = runShell(putBack.run!, putBack.env ?? {}, next);
  if (put.code !== 0) throw new Error(`put-back step failed: ${put.stderr}`);
  return { before: filesBelow(join(first, 'reports')), after: filesBelow(join(next, 'reports')), dir: next };
}

/** What RUN_MEMORY says the next run must find, of the files a run left. */
function expected(files: readonly string[]): string[] {
  return RUN_MEMORY.flatMap((m) => {
    const matches = files.filter((f) => patternOf(m.path).test(f)).sort();
    return m.newest ? matches.slice(-m.newest) : matches;
  }).sort();
}

describe.each(FILES)('%s', (file) => {
  const w = load(file);

  it('It restores the cache before the certify step, puts it back in the reports folder, and keeps and saves the same folder under the same key after it, even when the run fails.', () => {
    const [restore, putBack, keep, save] = [restoreOf(w), putBackOf(w), keepOf(w), saveOf(w)];
    const certify = stepById(w, 'certify');
    expect(indexOf(w, restore)).toBeLessThan(indexOf(w, putBack));
    expect(indexOf(w, putBack)).toBeLessThan(indexOf(w, certify));
    expect(indexOf(w, keep)).toBeGreaterThan(indexOf(w, certify));
    expect(indexOf(w, save)).toBeGreaterThan(indexOf(w, keep));
    const memory = String(restore.with?.path);
    expect(memory).toMatch(/^\.[\w-]+-history$/);
    for (const s of [putBack, keep]) expect(s.env?.MEMORY).toBe(memory);
    expect(save.with?.path).toBe(memory);
    expect(save.with?.key).toBe(restore.with?.key);
    expect(String(save.with?.key).startsWith(String(restore.with?.['restore-keys']))).toBe(true);
    for (const s of [keep, save]) expect(s.if).toBe("always() && hashFiles('reports/certification.json') != ''");
  });

  it('Every file a later run reads of the earlier ones goes round, from the reports folder through the cache back into the next run’s, and nothing else does.', () => {
    const { before, after, dir } = roundTrip(keepOf(w), putBackOf(w));
    expect(after).toEqual(expected(before));
    for (const m of RUN_MEMORY)
      expect(
        after.some((f) => patternOf(m.path).test(f)),
        m.path,
      ).toBe(true);
    for (const f of after) expect(readFileSync(join(dir, 'reports', f), 'utf8')).toMatch(/ of day [4-8]\n$/);
  });

  it('The put-back step says what it found: nothing, or how many certifications and whether counterexamples.', () => {
    const putBack = putBackOf(w);
    expect(runShell(putBack.run!, putBack.env ?? {}).stdout).toBe(
      'Nothing in the cache: this run has no comparison and no counterexample to replay.\n',
    );
    const { dir } = roundTrip(keepOf(w), putBack);
    const again = runShell(putBack.run!, putBack.env ?? {}, dir).stdout;
    expect(again).toContain('Comparing with 5 earlier certification(s).');
    expect(again).toContain('The counterexamples of earlier runs (counterexamples.json) are replayed first.');
  });
});

describe('the check that the workflows carry the suite’s memory', () => {
  const w = load('nightly-production.yml');

  it('Both workflows carry it with the same scripts.', () => {
    const staging = load('pre-release-staging.yml');
    expect(keepOf(staging).run).toBe(keepOf(w).run);
    expect(putBackOf(staging).run).toBe(putBackOf(w).run);
  });

  it('It fails when a keep step leaves the counterexample store behind, or keeps every run instead of the newest.', () => {
    const keep = keepOf(w);
    const forgetful = { ...keep, run: keep.run!.replace(/^.*counterexamples\.json.*$/m, '') };
    const lost = roundTrip(forgetful, putBackOf(w));
    expect(lost.after).not.toEqual(expected(lost.before));
    expect(expected(lost.before).filter((f) => !lost.after.includes(f))).toEqual(['counterexamples.json']);
    const hoarding = { ...keep, run: keep.run!.replace('| tail -n 5', '') };
    const all = roundTrip(hoarding, putBackOf(w));
    expect(all.after).not.toEqual(expected(all.before));
  });

  it('RUN_MEMORY names what each file is read by, and its patterns match whole paths only.', () => {
    for (const m of RUN_MEMORY) expect(existsSync(join(ROOT, m.readBy.split(':')[0])), m.readBy).toBe(true);
    expect(isRemembered('runs/2026-01-01T03-17-00-000Z-1/certification.json')).toBe(true);
    expect(isRemembered('runs/a/b/certification.json')).toBe(false);
    expect(isRemembered('runs/2026-01-01T03-17-00-000Z-1/index.html')).toBe(false);
    expect(isRemembered('counterexamples.json')).toBe(true);
    expect(isRemembered('latest.json')).toBe(false);
  });
});

/** The files a run read (or looked for) below its reports folder before it wrote them: what it knew of earlier runs. */
function readBeforeWriting(trace: string): string[] {
  const written = new Set<string>();
  const read = new Set<string>();
  for (const line of readFileSync(trace, 'utf8').split('\n').filter(Boolean)) {
    const [kind, path] = [line.slice(0, 1), line.slice(2)];
    if (kind === 'W') written.add(path);
    else if (!written.has(path)) read.add(path);
  }
  return [...read].sort();
}

describe('what a run reads of the runs before it', () => {
  it('A second npm start reads, of what the first left in the reports folder, only files RUN_MEMORY lists, and each of them (traced: every file read or looked for).', async () => {
    const dir = realpathSync(tempDir('run-memory'));
    const reports = join(dir, 'reports');
    const trace = join(dir, 'reads');
    const args = ['--reports-dir', reports, '--no-progress', '--explore-budget', '60'];
    // a first run: a certification and, when the exploration finds the fault (most seeds do), counterexamples
    await withReference({ faults: ['get-mid-id-500'] }, async (url, keys) => {
      const first = await runCli('src/cli/main.ts', ['--only', 'conformance', '--base-url', url, '--plan', 'pro', ...args], {
        env: { ANIMAL_STORE_API_KEY: keys.pro },
        killAfterMs: 170_000, // about 10 s on an idle machine; a minute beside other suites
      });
      expect([0, 1], first.stderr).toContain(first.code);
    });
    const left = filesBelow(reports);
    const folders = new Set(
      left.flatMap((f) =>
        f
          .split('/')
          .slice(0, -1)
          .map((_p, i, all) => all.slice(0, i + 1).join('/')),
      ),
    );
    // the second: conformance, exploration, a rate-limit scenario and every report, on the embedded server
    const second = await runCli('src/cli/main.ts', ['--scenarios', 'ceiling', ...args], {
      env: { NODE_OPTIONS: `--import ${join(ROOT, 'test/support/trace-reads.mjs')}`, TRACE_READS_ROOT: reports, TRACE_READS_OUT: trace },
      killAfterMs: 170_000,
    });
    expect(second.code, second.stderr).toBe(0);
    // Its own traffic log (.traffic-<pid>-….jsonl) is written by its conformance worker (a thread of its own), then read:
    // a working file of this run, removed when it ends, not a file of an earlier one.
    const own = /^\.traffic-\d+-[0-9a-f]+\.jsonl$/;
    const read = readBeforeWriting(trace).filter((f) => !folders.has(f) && !(own.test(f) && !left.includes(f)));
    for (const f of read) expect(isRemembered(f), `${f} is read by a later run but not in RUN_MEMORY`).toBe(true);
    for (const m of RUN_MEMORY)
      expect(
        read.some((f) => patternOf(m.path).test(f)),
        `${m.path} is never read`,
      ).toBe(true);
    expect(read.filter((f) => f.includes('/'))).toEqual(expected(left).filter((f) => f.includes('/')));
    if (left.includes('counterexamples.json')) expect(read).toContain('counterexamples.json');
  }, 400_000);
});
