/**
 * `npm run load -- --scenarios ceiling,recovery --plan free [--engine auto|k6|node]`
 *
 * Runs rate-limit scenarios with k6 (when asked, or on PATH) or the Node engine,
 * through the one orchestrator. With no base URL the embedded reference server
 * runs every per-minute scenario on its short window; a real target must name
 * its scenarios and its plan. Reports go into a run folder of their own
 * (reports/load/<run id>/), never over a certificate's files; the last line is
 * one verdict across the scenarios.
 */
import { exitFlushed } from '../../src/config/exit.ts';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { ConfigError, configFrom, requireLimits, runFolder, shownPath, type Config } from '../../src/config/command-config.ts';
import { loadJunit, loadSummaryText } from '../lib/report-text.ts';
import { reportBaseName, type LoadReport } from '../../src/core/load-report.ts';
import { envKeys, keysOf } from '../../src/settings/plan-keys.ts';
import { makeRedactor } from '../../src/core/redact.ts';
import { FULL_SCENARIOS, type ScenarioName } from '../../src/core/scenarios.ts';
import { optionsHelp } from '../../src/config/help.ts';
import { closeTransport } from '../../src/http/transport.ts';
import { checkNetworkFiles } from '../../src/http/network.ts';
import { networkText } from '../../src/core/target-info.ts';
import { preflight } from '../../src/http/preflight.ts';
import { openTarget, type Target } from '../../src/target/target.ts';
import { unverifiedK6, type EngineRecord } from '../../src/core/engine-record.ts';
import { costLines, pickEngine, runRateLimits, type RateLimitRun } from './run.ts';

export { EXIT } from '../../src/config/exit.ts';
import { EXIT, ignoreClosedPipes } from '../../src/config/exit.ts';

export const USAGE = `Usage: npm run load -- [options]

Runs the rate-limit scenarios (ceiling, recovery, sustained, overload; daily
only with --allow-daily) against the embedded reference server, or against a
server you name with its plan. k6 runs the bundles when it is on PATH (or
K6_BIN, or --engine k6) and a release the suite runs (load/README.md, k6
versions: a newer minor runs, not yet verified); the Node engine otherwise,
saying why. The API key comes only from
ANIMAL_STORE_API_KEY (environment or .env), never from a flag. Several plans side
by side, each on its own key: ANIMAL_STORE_API_KEY_FREE, _PRO, _BUSINESS,
_ENTERPRISE (and --plans free,pro to pick among them). The shares of a distributed
k6 run (--distributed on every instance) become one verdict with npm run load:merge.

${optionsHelp('load')}

Exit codes: 0 every scenario passed (or passed with requirements not exercised),
1 a MUST requirement failed, 2 usage or configuration error, 3 target unreachable,
6 stopped early (a wait longer than --max-wait-ms, the deadline), 130 interrupted.`;

/** One line across the scenarios: the worst verdict wins (fail > incomplete > pass); it names a k6 the suite is not yet verified on. */
export function verdictLine(run: RateLimitRun, engine?: EngineRecord): { line: string; code: number } {
  // Several plans: each scenario named with its plan.
  const several = run.lanes.length > 1;
  const name = (scenario: string, plan: string) => (several ? `${scenario} (${plan})` : scenario);
  const failed = run.reports.filter((r) => r.verdict === 'fail').map((r) => name(r.scenario, r.plan));
  const incomplete = run.reports.filter((r) => r.verdict === 'incomplete').map((r) => name(r.scenario, r.plan));
  const notRun = run.lanes.flatMap((l) => l.notRun.map((n) => name(n.scenario, l.plan)));
  const requests = run.reports.reduce((n, r) => n + r.requestsSent, 0);
  const plans = several ? ` on ${run.lanes.length} plans (${run.lanes.map((l) => l.plan).join(', ')}) side by side` : '';
  const unverified = unverifiedK6(engine);
  const tail = `${run.reports.length} scenario(s)${plans}, ${requests} requests, ${run.engine} engine${unverified ? ` on ${unverified}, not yet verified` : ''}`;
  if (run.unreachable) return { line: `load: TARGET UNREACHABLE — ${run.unreachable}`, code: EXIT.unreachable };
  if (failed.length) return { line: `load: FAIL — ${failed.join(', ')} failed a MUST requirement (${tail})`, code: EXIT.notConformant };
  if (run.stopped && run.stopped.kind === 'interrupted') return { line: `load: INTERRUPTED (${tail})`, code: EXIT.interrupted };
  if (run.stopped)
    return { line: `load: STOPPED EARLY — ${run.stopped.reason}; not run: ${notRun.join(', ')} (${tail})`, code: EXIT.stopped };
  if (incomplete.length)
    return { line: `load: PASSED, INCOMPLETE — ${incomplete.join(', ')} left MUST requirements not exercised (${tail})`, code: EXIT.ok };
  return { line: `load: PASS — every scenario passed (${tail})`, code: EXIT.ok };
}

export async function main(argv: readonly string[]): Promise<number> {
  const cfg = readLoadConfig(argv);
  if (typeof cfg === 'number') return cfg;
  if (cfg.help) {
    process.stdout.write(`${USAGE}\n`);
    return EXIT.ok;
  }
  const scenarios = cfg.load.scenarios || (cfg.baseUrl ? undefined : [...FULL_SCENARIOS]);
  if (!scenarios) {
    process.stderr.write('load: name the scenarios to run against a real target: --scenarios ceiling,recovery (see --help)\n');
    return EXIT.usage;
  }
  const target = await openLoadTarget(cfg);
  if (typeof target === 'number') return target;
  const out = outputOf(target);
  const ac = new AbortController();
  const onSigint = () => ac.abort();
  process.once('SIGINT', onSigint);
  try {
    return await runLoad(cfg, target, scenarios, { out, signal: ac.signal });
  } catch (e) {
    if (e instanceof ConfigError) {
      out.warn(`load: ${e.message}\n`);
      return EXIT.usage;
    }
    throw e;
  } finally {
    process.off('SIGINT', onSigint);
    await closeTransport();
    await target.close();
  }
}

/** Where the command writes, the keys redacted: `say` on stdout, `warn` on stderr. */
interface Output {
  redact: (s: string) => string;
  say: (s: string) => void;
  warn: (s: string) => void;
}

function outputOf(target: Target): Output {
  const redact = makeRedactor(keysOf(target.config));
  return { redact, say: (s) => process.stdout.write(redact(s)), warn: (s) => process.stderr.write(redact(s)) };
}

/** The Config, or the exit code of a configuration error (one line, the keys of the environment redacted). */
function readLoadConfig(argv: readonly string[]): Config | number {
  try {
    const c = configFrom(argv, 'load');
    checkNetworkFiles(c.network);
    return c;
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`load: ${makeRedactor(envKeys(process.env))(e.message)}\n`);
      return EXIT.usage;
    }
    throw e;
  }
}

/** The target, once the plan and its limits are known; or the exit code of a configuration error. */
async function openLoadTarget(cfg: Config): Promise<Target | number> {
  try {
    // The plan and its limits are never assumed, on any target (exit 2 before anything starts).
    requireLimits(cfg);
    return await openTarget(cfg);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    process.stderr.write(`load: ${e.message}\n`);
    return EXIT.usage;
  }
}

/**
 * The run: the engine and the cost, the dry run or the preflight, then the scenarios, each report written as it ends,
 * and the verdict; `out` says it, `signal` stops it.
 */
async function runLoad(
  cfg: Config,
  target: Target,
  scenarios: ScenarioName[],
  { out, signal }: { out: Output; signal: AbortSignal },
): Promise<number> {
  const { say, warn } = out;
  const picked = pickEngine(target.config, warn);
  const plan = costLines(target, scenarios);
  if (cfg.certify.dryRun) {
    const network = target.info.network ? `Network: ${networkText(target.info.network, target.info.baseUrl)}.\n` : '';
    say(`Dry run: nothing was sent to ${target.info.baseUrl}.\n${network}${plan.lines.join('\n')}\n`);
    return EXIT.ok;
  }
  // One request first, as npm start does: an unreachable target gets its one-line diagnosis (exit 3), whichever engine.
  const reach = await preflight(target);
  if (!reach.ok) {
    warn(`load: target unreachable: ${reach.diagnosis}\n`);
    return EXIT.unreachable;
  }
  if (reach.hint) warn(`load: note: ${reach.hint}\n`);
  warn(`${picked.line}\n${plan.lines.join('\n')}\n`);
  const dir = runFolder(cfg.reportsDir, 'load');
  const run = await runRateLimits(target, scenarios, {
    engine: picked.engine,
    budget: cfg.maxRequests - 1, // the preflight's request
    earlierRequests: 1, // the same, on the key
    signal,
    onWait: (line) => warn(`${line}\n`),
    onReport: reportWriter(dir, out),
  });
  for (const l of run.lanes)
    for (const n of l.notRun) say(`${n.scenario} (${l.plan}): NOT RUN — ${n.reason}${n.remedy ? ` (${n.remedy})` : ''}\n`);
  const v = verdictLine(run, picked.record);
  say(`reports: ${shownPath(dir)}\n${v.line}\n`);
  return v.code;
}

/** Each scenario's report as it ends: its JSON and JUnit files in the run folder, its summary on stdout. */
function reportWriter(dir: string, out: Output): (r: LoadReport) => void {
  return (r) => {
    const base = join(dir, reportBaseName(r.scenario, r.plan));
    writeFileSync(`${base}.json`, out.redact(JSON.stringify(r, null, 2)) + '\n');
    writeFileSync(`${base}.junit.xml`, out.redact(loadJunit(r)));
    out.say(loadSummaryText(r));
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  ignoreClosedPipes();
  main(process.argv.slice(2)).then(
    (code) => exitFlushed(code),
    (e: unknown) => {
      process.stderr.write(`load: internal error: ${(e as Error).stack || String(e)}\n`);
      exitFlushed(1);
    },
  );
}
