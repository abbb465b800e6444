/**
 * The k6 engine: runs the bundled script of a job with the k6 binary (K6_BIN,
 * else k6 on PATH), passing the job as environment variables (k6 exposes them
 * as __ENV), then reads the report its handleSummary wrote (each requirement's
 * outcome) and completes it with the lines k6's log carried (messages, timeline,
 * the key's state: load/lib/k6-log.ts). k6 runs with its
 * REST API off (`--address=`: no port, so parallel k6 processes never collide)
 * and quiet; its own output is shown only when it failed without a report.
 * Exit 108 (setup aborted) means the target was unreachable.
 */
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RATE_LIMIT_LOAD } from '../../src/core/sections/rate-limit-load/requirements.ts';
import { buildLoadReport, reportBaseName, type LoadReport } from '../../src/core/load-report.ts';
import { keyVariable } from '../../src/settings/plan-keys.ts';
import { makeRedactor } from '../../src/core/redact.ts';
import { networkSecrets } from '../../src/settings/network.ts';
import { applyK6Network, networkVars } from './k6-network.ts';
import { completeReport, LINE_PREFIX, logMessages, readCarriage } from '../lib/k6-log.ts';
import { judgeVusAsOne } from '../lib/merge.ts';
import { SCENARIOS } from '../lib/load-shapes.ts';
import {
  DAY_QUOTA_VAR as DAY_QUOTA,
  EARLIER_REQUESTS_VAR as EARLIER,
  FRESH_QUOTA_DAY_VAR,
  NO_EARLIER_429_VAR as NO_EARLIER_429,
  POST_AT_LIMIT_VAR,
} from '../lib/scenario-options.ts';
import type { ScenarioName } from '../lib/types.ts';
import type { K6Status } from '../../src/core/engine-record.ts';
import { jobOptions, type EngineResult, type LoadEngine, type LoadJob } from './engine.ts';

/** The k6 executable: K6_BIN if set, else k6 on PATH. */
export function findK6(path = process.env.PATH || '', bin = process.env.K6_BIN): string | undefined {
  if (bin) return bin;
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    const file = join(dir, 'k6');
    try {
      accessSync(file, constants.X_OK);
      if (statSync(file).isFile()) return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * The flags every k6 run of the suite gets, each present on every k6 of K6_VERIFIED: no REST API (k6 v1 listens on
 * localhost:6565 unless told otherwise, v2 only when asked: an empty address keeps parallel runs from colliding on
 * either), no usage report, ES modules as they are (no Babel step), the log as JSON lines (it carries the report's
 * details: load/lib/k6-log.ts).
 */
export const K6_FLAGS = ['--quiet', '--address=', '--no-usage-report', '--compatibility-mode=base', '--log-format=json'];

/** The k6 releases the bundles and K6_FLAGS are verified on (test/load/real-k6.test.ts on the first and the last). */
export const K6_VERIFIED = { from: [1, 0, 0], below: [2, 3, 0], text: 'k6 v1.0.0 to v2.2.x' } as const;

/**
 * Newer releases below this run, unverified: those of the newest verified major, whose script API k6 keeps stable
 * (a minor adds, a major removes). A newer major is refused: it may drop a flag of K6_FLAGS or change what the
 * bundles use (handleSummary, __ENV, http.batch, execution segments), and a changed API must not fail a server.
 */
export const K6_NEXT_MAJOR = [3, 0, 0] as const;

/** How to verify a k6 release: the real-k6 test file run with it (load/README.md). */
const verifyHint = (binary: string): string => `to verify it: K6_BIN=${binary} npx vitest run test/load/real-k6.test.ts`;

/** The version `k6 version` printed ("k6 v2.2.0 (commit/devel, go1.25.12, linux/amd64)" → [2, 2, 0]), if it printed one. */
export function parseK6Version(out: string): [number, number, number] | undefined {
  // k6 names itself by the file it was run as: `k6 v2.2.0 (…)`, or `k6-1.0 v1.0.0 (…)` for a binary kept beside another.
  const m = /^\S+ v(\d+)\.(\d+)\.(\d+)\b/m.exec(out);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

const compare = (a: readonly number[], b: readonly number[]): number => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** How the suite stands on a k6 binary that printed `out` to `k6 version`. */
export interface K6Standing {
  binary: string;
  /** "2.3.0"; absent when it printed no version. */
  version?: string;
  status: K6Status;
  /** Unverified or refused: why, after the binary's name ("is k6 v2.3.0, newer than …"). */
  why?: string;
  /** Refused: what to do instead. */
  remedy?: string;
}

/** The suite's standing on a k6 that printed `out` to `k6 version`: verified, unverified (it runs, saying so) or refused. */
export function k6Standing(binary: string, out: string): K6Standing {
  const v = parseK6Version(out);
  const remedy = `install a k6 from ${K6_VERIFIED.text} (K6_BIN or PATH), or run with --engine node`;
  const range = `the versions the suite is verified on (${K6_VERIFIED.text})`;
  if (!v)
    return {
      binary,
      status: 'refused',
      why: `did not print a k6 version to \`k6 version\` (${JSON.stringify(out.trim().slice(0, 80))})`,
      remedy,
    };
  const version = v.join('.');
  const is = `is k6 v${version}`;
  if (compare(v, K6_VERIFIED.from) < 0) return { binary, version, status: 'refused', why: `${is}, older than ${range}`, remedy };
  if (compare(v, K6_VERIFIED.below) < 0) return { binary, version, status: 'verified' };
  if (compare(v, K6_NEXT_MAJOR) < 0)
    return { binary, version, status: 'unverified', why: `${is}, newer than ${range}: it runs, not yet verified; ${verifyHint(binary)}` };
  const why = `${is}, a major release newer than ${range}, whose script API may have changed`;
  return { binary, version, status: 'refused', why, remedy: `${remedy}; ${verifyHint(binary)}` };
}

/** The one line that refuses a k6 (undefined unless refused). */
export function refusalLine(s: K6Standing): string | undefined {
  return s.status === 'refused' ? `${s.binary} ${s.why}: ${s.remedy}` : undefined;
}

/** Why a k6 that printed `out` to `k6 version` is not one the suite is verified on (one line: refused or unverified), or undefined when it is. */
export function k6VersionProblem(binary: string, out: string): string | undefined {
  const s = k6Standing(binary, out);
  return s.status === 'verified' ? undefined : (refusalLine(s) ?? `${binary} ${s.why}`);
}

const checked = new Map<string, K6Standing>();

/** The suite's standing on a k6 binary; `k6 version` is read once per binary and process. */
export function standingOf(binary: string): K6Standing {
  let s = checked.get(binary);
  if (!s) {
    const r = spawnSync(binary, ['version'], { encoding: 'utf8', timeout: 30000, stdio: ['ignore', 'pipe', 'pipe'] });
    s = k6Standing(binary, r.error ? String(r.error.message) : `${r.stdout || ''}${r.stderr || ''}`);
    checked.set(binary, s);
  }
  return s;
}

const LOAD_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');

export function bundlePath(scenario: ScenarioName, dist = join(LOAD_DIR, 'dist')): string {
  return join(dist, `${scenario}.js`);
}

/** Build the bundles when missing or older than their sources. */
export async function ensureBundles(dist = join(LOAD_DIR, 'dist')): Promise<void> {
  const file = bundlePath('ceiling', dist);
  const newest = (dir: string): number =>
    Math.max(
      0,
      ...readdirRecursive(dir)
        .filter((f) => f.endsWith('.ts'))
        .map((f) => statSync(f).mtimeMs),
    );
  const src = Math.max(newest(join(LOAD_DIR, 'lib')), newest(join(LOAD_DIR, 'k6')), newest(join(LOAD_DIR, '..', 'src', 'core')));
  if (existsSync(file) && statSync(file).mtimeMs >= src) return;
  const { buildLoad } = await import('../build.ts');
  await buildLoad(dist);
}

function readdirRecursive(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

/** The ANIMAL_STORE_* variables of a job, as the k6 script reads them. */
export function jobEnv(job: LoadJob, reportsDir: string): Record<string, string> {
  const env: Record<string, string> = {
    ANIMAL_STORE_BASE_URL: job.baseUrl,
    ANIMAL_STORE_API_KEY: job.apiKey,
    ANIMAL_STORE_PLAN: job.plan,
    ANIMAL_STORE_WINDOW_MS: String(job.windowMs),
    ANIMAL_STORE_DAY_MS: String(job.dayMs),
    ANIMAL_STORE_LOAD_DAILY: job.scenario === 'daily' ? 'yes' : 'no',
    ANIMAL_STORE_LOAD_MAX_VUS: String(job.maxVus),
    ANIMAL_STORE_LOAD_DISTRIBUTED: job.distributed ? 'yes' : 'no',
    ANIMAL_STORE_TIMEOUT_MS: String(job.timeoutMs),
    ANIMAL_STORE_MAX_WAIT_MS: String(job.maxWaitMs),
    ANIMAL_STORE_REPORTS_DIR: reportsDir,
    // internal: the run's overall deadline (epoch ms), which the bundle's scenario keeps
    ANIMAL_STORE_DEADLINE_AT: String(job.deadlineAt),
    // writes as the job allows them, never left to the bundle's default for the target
    ANIMAL_STORE_ALLOW_WRITES: job.allowWrites ? 'true' : 'false',
    // the client certificate, --insecure, --http2 and --allow-cleartext-proxy, as the bundle's options and its check read them
    ...networkVars(job.network),
  };
  if (job.plan === 'enterprise') {
    env.ANIMAL_STORE_RPM = String(job.perMinute);
    if (job.perDay !== undefined) env.ANIMAL_STORE_RPD = String(job.perDay);
  }
  if (job.namePrefix) env.ANIMAL_STORE_NAME_PREFIX = job.namePrefix;
  // internal: a ceiling that leaves its POST at the limit to the recovery after it
  if (job.postAtLimit === false) env[POST_AT_LIMIT_VAR] = 'no';
  // internal: the per-day quota the server runs with (the embedded server's short day has its own), which --rpd gives only for enterprise
  if (job.perDay !== undefined) env[DAY_QUOTA] = String(job.perDay);
  // internal: what the daily scenario's judgement knows of the key before it (load/lib/scenario-options.ts)
  if (job.earlierRequests !== undefined) env[EARLIER] = String(job.earlierRequests);
  if (job.scenario === 'daily' && job.nextDayAt) env[FRESH_QUOTA_DAY_VAR] = 'yes';
  // internal: no 429 came on the key earlier in the run (a ban on the scenario's first 429 was not earned)
  if (job.noEarlier429) env[NO_EARLIER_429] = 'yes';
  return env;
}

/**
 * The variables of a batch: the same scenario for several keys (a plan each), as
 * one k6 process runs them — ANIMAL_STORE_PLANS and a key per plan
 * (ANIMAL_STORE_API_KEY_<PLAN>), one k6 scenario per plan. A single job on a key
 * that is not dedicated keeps the single-key form.
 */
export function batchEnv(jobs: readonly LoadJob[], reportsDir: string): Record<string, string> {
  const env = jobEnv(jobs[0], reportsDir);
  // One k6 process: the VUs of every plan's scenario are the most any of them needs.
  env.ANIMAL_STORE_LOAD_MAX_VUS = String(Math.max(...jobs.map((j) => j.maxVus)));
  if (jobs.length === 1 && !jobs[0].dedicatedKey) return env;
  delete env.ANIMAL_STORE_API_KEY;
  delete env.ANIMAL_STORE_PLAN;
  delete env.ANIMAL_STORE_RPM;
  delete env.ANIMAL_STORE_RPD;
  delete env[DAY_QUOTA];
  delete env[EARLIER];
  delete env[NO_EARLIER_429];
  env.ANIMAL_STORE_PLANS = jobs.map((j) => j.plan).join(',');
  for (const j of jobs) {
    env[keyVariable(j.plan)] = j.apiKey;
    if (j.perDay !== undefined) env[`${DAY_QUOTA}_${j.plan.toUpperCase()}`] = String(j.perDay);
    if (j.earlierRequests !== undefined) env[`${EARLIER}_${j.plan.toUpperCase()}`] = String(j.earlierRequests);
    if (j.noEarlier429) env[`${NO_EARLIER_429}_${j.plan.toUpperCase()}`] = 'yes';
    if (j.plan === 'enterprise') {
      env.ANIMAL_STORE_RPM = String(j.perMinute);
      if (j.perDay !== undefined) env.ANIMAL_STORE_RPD = String(j.perDay);
    }
  }
  return env;
}

/**
 * A paced scenario on several VUs of this process: each VU judged its share and carried its requests; the report is
 * judged on all of them as one run (load/lib/merge.ts). A distributed run's shares are merged by load:merge instead.
 */
export function asOne(job: LoadJob, report: LoadReport, lines: readonly string[], env: Record<string, string | undefined>): LoadReport {
  // The VUs the process ran every plan's scenario on (batchEnv: the most any job of the batch needs).
  const vus = Number(env.ANIMAL_STORE_LOAD_MAX_VUS) || 1;
  if (vus <= 1 || job.distributed || !SCENARIOS[job.scenario].pace) return report;
  const c = readCarriage(lines, env.ANIMAL_STORE_PLANS ? job.plan : undefined, undefined);
  return c.samples && c.samples.length ? judgeVusAsOne(report, c.samples, jobOptions(job), vus) : report;
}

/** Each job's report from the folder handleSummary wrote to (undefined when k6 wrote none). */
export function readReports(jobs: readonly LoadJob[], dir: string): Array<LoadReport | undefined> {
  return jobs.map((job) => {
    try {
      return JSON.parse(readFileSync(join(dir, `${reportBaseName(job.scenario, job.plan)}.json`), 'utf8')) as LoadReport;
    } catch {
      return undefined;
    }
  });
}

export class K6Engine implements LoadEngine {
  readonly name = 'k6' as const;

  constructor(
    readonly binary: string,
    private readonly dist = join(LOAD_DIR, 'dist'),
    private readonly log: (line: string) => void = (l) => process.stderr.write(l),
  ) {}

  async run(job: LoadJob, signal?: AbortSignal): Promise<EngineResult> {
    return (await this.runBatch([job], signal))[0];
  }

  /** The same scenario for every job's key in one k6 process (a k6 scenario per plan); a report per job. */
  async runBatch(jobs: readonly LoadJob[], signal?: AbortSignal): Promise<EngineResult[]> {
    await ensureBundles(this.dist);
    const dir = mkdtempSync(join(tmpdir(), 'animal-store-k6-'));
    const redact = makeRedactor([...jobs.map((j) => j.apiKey), ...networkSecrets(jobs[0].network)]);
    const job = jobs[0];
    try {
      const env: NodeJS.ProcessEnv = {};
      for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('ANIMAL_STORE_') && !k.startsWith('K6_')) env[k] = v;
      Object.assign(env, batchEnv(jobs, dir));
      // The proxy, the CA and HTTP/2 or not: Go's own variables, set from the run's settings (k6-network.ts).
      applyK6Network(env, job.network, dir);
      const carried: string[] = [];
      const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
        const child = spawn(this.binary, ['run', ...K6_FLAGS, bundlePath(job.scenario, this.dist)], {
          env,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let output = '';
        // Line by line, a partial line per stream: the carried lines are kept whole (a timeline's can be long),
        // the rest is k6's own output, of which the end is kept.
        const line = (l: string) => {
          if (l.indexOf(CARRIED) >= 0) carried.push(l);
          else output = `${output}${l}\n`.slice(-20000);
        };
        const partial = { stdout: '', stderr: '' };
        const keep = (stream: 'stdout' | 'stderr') => (d: string) => {
          const lines = (partial[stream] + d).split('\n');
          partial[stream] = lines.pop() as string;
          lines.forEach(line);
        };
        // decoded per stream, so that a character split between two chunks stays whole
        child.stdout.setEncoding('utf8').on('data', keep('stdout'));
        child.stderr.setEncoding('utf8').on('data', keep('stderr'));
        const kill = setTimeout(() => child.kill('SIGKILL'), Math.max(10000, job.deadlineAt - Date.now() + 30000));
        const onAbort = () => child.kill('SIGINT');
        signal?.addEventListener('abort', onAbort, { once: true });
        child.on('error', reject);
        child.on('close', (c) => {
          for (const rest of [partial.stdout, partial.stderr]) if (rest) line(rest);
          clearTimeout(kill);
          signal?.removeEventListener('abort', onAbort);
          resolve({ code: c, output });
        });
      });
      const lines = logMessages(carried.join('\n'));
      const tagged = !!env.ANIMAL_STORE_PLANS;
      const reports = readReports(jobs, dir).map((r, n) => r && asOne(jobs[n], completeReport(r, lines, tagged, redact), lines, env));
      if (code === 108) {
        const why = /target unreachable: ([^"\n]*)/.exec(output);
        const unreachable = redact(why ? why[1] : 'k6 aborted in setup');
        return jobs.map((j, n) => ({ report: reports[n] || this.failed(j, code, output, redact), unreachable }));
      }
      if (reports.some((r) => !r))
        this.log(redact(`k6 exited with code ${code} without a report; its last output:\n${output.slice(-3000)}\n`));
      return jobs.map((j, n) => ({ report: reports[n] || this.failed(j, code, output, redact) }));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  private failed(job: LoadJob, code: number | null, output: string, redact: (s: string) => string): LoadReport {
    const last = output.trim().split('\n').slice(-3).join(' | ');
    return buildLoadReport(
      {
        scenario: job.scenario,
        plan: job.plan,
        engine: 'k6',
        target: job.baseUrl,
        startedAt: Date.now(),
        endedAt: Date.now(),
        requestsSent: 0,
        judgements: [
          RATE_LIMIT_LOAD.judge(SCENARIOS[job.scenario].requirements[0], {
            outcome: 'error',
            title: 'no-report',
            message: `k6 exited with code ${code}: ${last}`,
          }),
        ],
        stoppedBecause: `k6 exited with code ${code} without a report`,
      },
      redact,
    );
  }
}

const CARRIED = LINE_PREFIX.trim();
