/**
 * .github/scripts/nightly-issue.cjs, the nightly workflow's trace in the issue
 * tracker, against a stand-in for github-script's `github`, `context` and
 * `core`: a failing night opens one issue (or updates the open one and
 * comments) with the failing requirement ids; a passing night closes it; a
 * cancelled run changes nothing; an issue someone else opened is never taken
 * over; text from the server cannot mention people or leak the address.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { EXIT } from '../../src/cli/entry.ts';
import type { RunReport } from '../../src/results/types.ts';
import { headline } from '../../src/results/writers/common.ts';
import { ROOT } from '../support/cli.ts';
import { tempDir } from '../support/temp.ts';

interface Verdict {
  status: 'pass' | 'fail' | 'cancelled';
  headline: string;
  failing: { id: string; level: string; title: string }[];
  lines: string[];
}
interface NightlyIssue {
  main(args: {
    github: unknown;
    context: unknown;
    core: unknown;
    env: Record<string, string | undefined>;
  }): Promise<{ action: string; number?: number }>;
  assess(args: { result?: string; exitCode?: string; configError?: string; report?: unknown }): Verdict;
  clean(text: unknown, max?: number): string;
  readReport(file: string): unknown;
  headlineOf(report: unknown): string;
  LABEL: string;
  MARKER: string;
  EXIT_MEANINGS: Record<string, string>;
}

const nightly = createRequire(import.meta.url)(join(ROOT, '.github', 'scripts', 'nightly-issue.cjs')) as NightlyIssue;

type Req = { id: string; level: 'MUST' | 'SHOULD'; status: string; title: string };

function report(o: Partial<RunReport> & { reqs?: Req[] } = {}): RunReport {
  const reqs = o.reqs ?? [
    { id: 'RL-CEILING-429', level: 'MUST', status: 'fail', title: 'Requests beyond the limit are answered 429.' },
    { id: 'PETS-LIST-SCHEMA', level: 'MUST', status: 'fail', title: 'listPets answers the Pets schema.' },
    { id: 'AUTH-BEARER', level: 'MUST', status: 'pass', title: 'The key is a bearer token.' },
  ];
  const { reqs: _r, ...rest } = o;
  return {
    kind: 'certification',
    suiteVersion: '0.1.0',
    specSha256: 'e507',
    target: { env: 'production', baseUrl: 'https://secret-host.example/v1', plan: 'pro', embedded: false },
    startedAt: '2026-11-23T03:17:00.000Z',
    endedAt: '2026-11-23T03:20:00.000Z',
    interrupted: false,
    outcome: reqs.some((r) => r.status === 'fail') ? 'not-conformant' : 'incomplete',
    counts: { pass: 1, fail: 2, warn: 0, skip: 3, waived: 0, observed: 7 },
    notExercised: [],
    requestsSent: 700,
    requirements: reqs.map((r) => ({
      ...r,
      section: '',
      quote: '',
      area: '',
      counts: { pass: 0, fail: 0, warn: 0, skip: 0, observe: 0, error: 0 },
      findings: [],
      observations: [],
    })) as RunReport['requirements'],
    load: [{ engine: 'k6' }] as unknown as RunReport['load'],
    suiteErrors: [],
    notes: [],
    ...rest,
  };
}

interface Issue {
  number: number;
  body: string;
  pull_request?: object;
}

function fakeGitHub(open: Issue[] = [], o: { labelError?: number } = {}) {
  const calls: [string, Record<string, unknown>][] = [];
  const record = (name: string, data: unknown) => async (p: Record<string, unknown>) => {
    calls.push([name, p]);
    return { data };
  };
  const github = {
    paginate: async (fn: (p: unknown) => Promise<{ data: unknown }>, params: unknown) => (await fn(params)).data,
    rest: {
      issues: {
        listForRepo: record('list', open),
        create: record('create', { number: 42 }),
        update: record('update', {}),
        createComment: record('comment', {}),
        createLabel: async (p: Record<string, unknown>) => {
          calls.push(['label', p]);
          if (o.labelError) throw Object.assign(new Error(`HTTP ${o.labelError}`), { status: o.labelError });
          return { data: {} };
        },
      },
    },
  };
  return { github, calls, writes: () => calls.filter(([n]) => n !== 'list') };
}

const context = {
  serverUrl: 'https://github.com',
  repo: { owner: 'acme', repo: 'store-suite' },
  runId: 987,
  runNumber: 65,
  eventName: 'schedule',
};

/** Run the script as the workflow does: results through env, certification.json on disk, a summary file. */
async function night(o: {
  result: string;
  exitCode?: string;
  configError?: string;
  report?: RunReport;
  open?: Issue[];
  labelError?: number;
}) {
  const dir = tempDir('nightly');
  const file = join(dir, 'certification.json');
  if (o.report) writeFileSync(file, JSON.stringify(o.report));
  const summary = join(dir, 'summary.md');
  writeFileSync(summary, '');
  const gh = fakeGitHub(o.open, { labelError: o.labelError });
  const core = { notice: vi.fn(), error: vi.fn() };
  const env = {
    CERTIFY_RESULT: o.result,
    EXIT_CODE: o.exitCode ?? '',
    CONFIG_ERROR: o.configError ?? '',
    REPORT_FILE: file,
    GITHUB_STEP_SUMMARY: summary,
  };
  const done = await nightly.main({ github: gh.github, context, core, env });
  return { done, ...gh, core, summary: readFileSync(summary, 'utf8') };
}

const ours = (n: number): Issue => ({ number: n, body: `${nightly.MARKER}\n\n### ❌ NOT CONFORMANT` });

describe('a failing night', () => {
  it('With no nightly issue open, it opens one, labelled, whose title and description name the failing requirement ids.', async () => {
    const r = await night({ result: 'failure', exitCode: '1', report: report() });
    expect(r.done).toEqual({ action: 'opened', number: 42 });
    const [label, create] = r.writes();
    expect(label[0]).toBe('label');
    expect(label[1]).toMatchObject({ owner: 'acme', repo: 'store-suite', name: nightly.LABEL });
    expect(create[0]).toBe('create');
    expect(create[1].labels).toEqual([nightly.LABEL]);
    expect(create[1].title).toBe(
      'Nightly production certification failing: NOT CONFORMANT: 2 requirements failed (RL-CEILING-429, PETS-LIST-SCHEMA)',
    );
    const body = String(create[1].body);
    expect(body.startsWith(nightly.MARKER)).toBe(true);
    expect(body).toContain('- `RL-CEILING-429` (MUST): Requests beyond the limit are answered 429.');
    expect(body).toContain('- `PETS-LIST-SCHEMA` (MUST): listPets answers the Pets schema.');
    expect(body).not.toContain('AUTH-BEARER');
    expect(body).toContain('[run 65](https://github.com/acme/store-suite/actions/runs/987)');
    expect(body).toContain('**Exit code:** 1 (not conformant: a MUST requirement failed)');
    expect(body).toContain('**Load engine:** k6');
    expect(body).not.toContain('secret-host');
    expect(r.core.error).toHaveBeenCalledWith(expect.stringContaining('NOT CONFORMANT: 2 requirements failed'), expect.anything());
    expect(r.summary).toContain('opened #42');
  });

  it('It lists what changed since the previous night from the comparison.', async () => {
    const comparison = {
      baseline: { startedAt: '2026-11-22T03:17:00.000Z', outcome: 'incomplete' as const, file: 'x' },
      newProblems: ['RL-CEILING-429'],
      fixed: ['AUTH-BEARER'],
      stillFailing: ['PETS-LIST-SCHEMA'],
      flapping: [],
    };
    const r = await night({ result: 'failure', exitCode: '1', report: report({ comparison }) });
    const body = String(r.writes().find(([n]) => n === 'create')![1].body);
    expect(body).toContain('**Since the previous night (compared with the run of 2026-11-22T03:17:00.000Z):**');
    expect(body).toContain('- New problems: `RL-CEILING-429`');
    expect(body).toContain('- Still failing: `PETS-LIST-SCHEMA`');
    expect(body).toContain('- Fixed: `AUTH-BEARER`');
    expect(body).not.toContain('Flapping');
  });

  it('With its issue open, it updates the title and description and adds a comment, and opens nothing new.', async () => {
    const r = await night({ result: 'failure', exitCode: '1', report: report(), open: [ours(7)] });
    expect(r.done).toEqual({ action: 'updated', number: 7 });
    expect(r.writes().map(([n]) => n)).toEqual(['update', 'comment']);
    const [update, comment] = r.writes();
    expect(update[1]).toMatchObject({ issue_number: 7, title: expect.stringContaining('RL-CEILING-429') });
    expect(String(update[1].body).startsWith(nightly.MARKER)).toBe(true);
    expect(String(comment[1].body)).toContain('`RL-CEILING-429`');
    expect(String(comment[1].body)).not.toContain(nightly.MARKER);
    expect(r.summary).toContain('updated #7');
  });

  it('An issue a person opened with the same label, and pull requests, are never taken over.', async () => {
    const r = await night({
      result: 'failure',
      exitCode: '1',
      report: report(),
      open: [
        { number: 3, body: 'Nightly is red again, looking into it' },
        { number: 4, body: nightly.MARKER, pull_request: {} },
      ],
    });
    expect(r.done).toEqual({ action: 'opened', number: 42 });
    expect(r.writes().some(([, p]) => p.issue_number === 3 || p.issue_number === 4)).toBe(false);
    expect(r.calls[0]).toEqual(['list', { owner: 'acme', repo: 'store-suite', state: 'open', labels: nightly.LABEL, per_page: 100 }]);
  });

  it('A label that exists already is no error; any other failure to create it is.', async () => {
    expect((await night({ result: 'failure', exitCode: '1', report: report(), labelError: 422 })).done.action).toBe('opened');
    await expect(night({ result: 'failure', exitCode: '1', report: report(), labelError: 403 })).rejects.toThrow('HTTP 403');
  });

  it('When the configuration check stopped the run, the issue says what is missing.', async () => {
    const configError = 'The variable ANIMAL_STORE_PLAN is not set: set it to the plan of the key (free, pro, business or enterprise).';
    const r = await night({ result: 'failure', configError });
    const create = r.writes().find(([n]) => n === 'create')!;
    expect(create[1].title).toBe('Nightly production certification failing: not run: its configuration is incomplete');
    expect(String(create[1].body)).toContain('The variable ANIMAL\\_STORE\\_PLAN is not set');
  });

  it('When the suite wrote no report, the issue gives its exit code and what it means.', async () => {
    const r = await night({ result: 'failure', exitCode: '3' });
    const create = r.writes().find(([n]) => n === 'create')!;
    expect(create[1].title).toBe('Nightly production certification failing: exit 3, the target was unreachable; no report was written');
  });

  it('When the job failed before the certify step, the issue says so.', async () => {
    const r = await night({ result: 'failure' });
    expect(r.writes().find(([n]) => n === 'create')![1].title).toBe(
      'Nightly production certification failing: failed before the certification ran',
    );
  });

  it('A run stopped early shows the reason and diagnosis without addresses, mentions or Markdown from the server.', async () => {
    const r = await night({
      result: 'failure',
      exitCode: '6',
      report: report({
        reqs: [{ id: 'AUTH-BEARER', level: 'MUST', status: 'pass', title: 't' }],
        outcome: 'incomplete',
        abort: 'deadline reached while https://secret-host.example/v1/pets answered [click](http://evil.example) @octocat',
        diagnosis: '<img src=x> **bold**\n# heading',
      }),
    });
    const create = r.writes().find(([n]) => n === 'create')!;
    expect(create[1].title).toBe('Nightly production certification failing: STOPPED EARLY');
    const body = String(create[1].body);
    expect(body).toContain('**Stopped early:** deadline reached while ‹address› answered \\[click\\]\\(‹address›\\) &#64;octocat');
    expect(body).toContain('**Diagnosis:** &lt;img src=x\\> \\*\\*bold\\*\\* \\# heading');
    expect(body).not.toMatch(/secret-host|evil\.example|@octocat/);
  });
});

describe('a passing night', () => {
  it('With the nightly issue open, it comments and closes it as completed.', async () => {
    const r = await night({ result: 'success', exitCode: '0', report: report({ reqs: [] }), open: [ours(7)] });
    expect(r.done).toEqual({ action: 'closed', number: 7 });
    const [comment, update] = r.writes();
    expect(comment[0]).toBe('comment');
    expect(String(comment[1].body)).toContain('Passing again: PASSED, INCOMPLETE');
    expect(update[1]).toMatchObject({ issue_number: 7, state: 'closed', state_reason: 'completed' });
    expect(r.summary).toContain('closed #7');
  });

  it('With no nightly issue open, it writes nothing.', async () => {
    const r = await night({ result: 'success', exitCode: '0', report: report({ reqs: [] }) });
    expect(r.done).toEqual({ action: 'none' });
    expect(r.writes()).toEqual([]);
  });
});

describe('a cancelled run', () => {
  it('It leaves the issue as it is and does not even look for it.', async () => {
    const r = await night({ result: 'cancelled', open: [ours(7)] });
    expect(r.done).toEqual({ action: 'none' });
    expect(r.calls).toEqual([]);
    expect(r.core.notice).toHaveBeenCalled();
  });
});

describe('agreement with the suite', () => {
  it("The exit codes it explains are exactly the suite's.", () => {
    expect(
      Object.keys(nightly.EXIT_MEANINGS)
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual(
      Object.values(EXIT)
        .map(Number)
        .sort((a, b) => a - b),
    );
  });

  it("Its headline is the suite's for every outcome.", () => {
    const cases: Partial<RunReport>[] = [
      { outcome: 'certified' },
      { outcome: 'incomplete' },
      { outcome: 'not-conformant' },
      { outcome: 'incomplete', abort: 'deadline' },
      { outcome: 'incomplete', interrupted: true },
      { outcome: 'not-conformant', keyRefused: true, abort: 'the API key was refused' },
    ];
    for (const c of cases) {
      const r = report({ reqs: [], ...c });
      expect(nightly.headlineOf(r)).toBe(headline(r));
    }
  });

  it('A missing or unreadable certification.json is no report at all.', () => {
    const dir = tempDir('nightly');
    writeFileSync(join(dir, 'bad.json'), '{"outcome":');
    expect(nightly.readReport(join(dir, 'bad.json'))).toBeUndefined();
    expect(nightly.readReport(join(dir, 'none.json'))).toBeUndefined();
  });

  it('Long server text is cut to one line of the given length.', () => {
    const s = nightly.clean(`a\nb ${'x'.repeat(500)}`, 50);
    expect(s).toHaveLength(50);
    expect(s.startsWith('a b ')).toBe(true);
    expect(s.endsWith('…')).toBe(true);
  });
});
