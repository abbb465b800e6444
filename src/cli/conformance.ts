/**
 * `npm run conformance` — the conformance specs only; writes conformance.json and
 * junit.xml into a run folder of its own (reports/conformance/<run id>/), never
 * over a certification's files at the top of reports/. Its scope is the conformance
 * requirements: CONFORMANT only when every one of their MUSTs was exercised and
 * passed. Same options parser, target and exit codes as `npm start`.
 */
import { join } from 'node:path';
import { configFrom, runFolder, shownPath, type Config } from '../config/command-config.ts';
import { keysOf } from '../settings/plan-keys.ts';
import { makeRedactor } from '../core/redact.ts';
import { optionsHelp } from '../config/help.ts';
import { buildReport } from '../results/aggregate.ts';
import { compareWithBaseline } from '../results/compare.ts';
import { specSha256, suiteName, suiteVersion } from '../results/meta.ts';
import { applyWaivers, loadWaivers, type Waiver } from '../results/waivers.ts';
import type { RunReport } from '../results/types.ts';
import { renderConsole } from '../results/writers/console.ts';
import { CONFORMANCE_FORMATS, writeReports } from '../results/writers/index.ts';
import { openTarget, type Target } from '../target/target.ts';
import { EXIT, EXIT_HELP, exitCodeOf, failUsage, guardOutput } from './entry.ts';
import { preflight } from '../http/preflight.ts';
import { planFacts, planLine } from './run-plan.ts';
import { checkNetworkFiles } from '../http/network.ts';
import { ignoreClosedPipes } from '../config/exit.ts';
import { keepCounterexamples } from '../explore/counterexample-store.ts';
import { HAR_FILE } from '../results/har-lines.ts';
import { harRunOf, writeHar } from '../results/writers/har.ts';
import { openTrafficLog, type TrafficLog } from './traffic-file.ts';
import type { ConformanceOutcome } from './run-conformance.ts';

const HELP = `Usage: npm run conformance -- [options]

Runs the Vitest conformance specs against the embedded reference server or the
target you name; writes conformance.json, junit.xml and traffic.har (every request
and response, HAR 1.2) into a run folder of its own, reports/conformance/<run id>/. The API key is read
only from ANIMAL_STORE_API_KEY (environment or .env), never from a flag.

${optionsHelp('conformance')}

${EXIT_HELP}`;

async function main(): Promise<number> {
  let config: Config;
  let waivers: ReturnType<typeof loadWaivers> = [];
  try {
    config = configFrom(process.argv.slice(2), 'conformance');
    checkNetworkFiles(config.network);
    if (config.certify.waivers) waivers = loadWaivers(config.certify.waivers);
  } catch (e) {
    failUsage(e);
  }
  if (config.help) {
    process.stdout.write(`${HELP}\n`);
    return EXIT.ok;
  }
  guardOutput(keysOf(config));
  const target = await openTarget(config);
  let traffic: TrafficLog | undefined;
  try {
    const reach = await preflight(target);
    if (!reach.ok) {
      process.stderr.write(`animal-store: target unreachable: ${reach.diagnosis}\n`);
      return EXIT.unreachable;
    }
    if (reach.hint) process.stderr.write(`animal-store: note: ${reach.hint}\n`);
    if (reach.protocol && target.info.network) target.info.network.negotiated = reach.protocol;
    process.stderr.write(`${planLine(planFacts(target, reach.latencyMs ?? 0))}\n`);
    // Vitest is loaded only when the specs run: --help, a usage error, a dry run or a load-only run start 0.5 s sooner.
    const { runConformance } = await import('./run-conformance.ts');
    traffic = openTrafficLog(config.reportsDir);
    const out = await runConformance(target, { verbose: config.output.verbose, trafficFile: traffic.path });
    const kept = keepCounterexamples(config.reportsDir, target.info, out.findings);
    const notes = [
      ...(reach.hint ? [reach.hint] : []),
      ...out.notes,
      ...(kept ? [kept] : []),
      ...out.errors.map((e) => `Vitest error: ${e}`),
    ];
    const report = reportOf({ config, waivers, target }, out, notes);
    const redact = makeRedactor(keysOf(target.config));
    const paths = writeRunFolder(report, config, traffic, redact);
    process.stdout.write(`\n${redact(renderConsole(report, { verbose: config.output.verbose, reports: paths }))}`);
    return exitCodeOf(report, { requireComplete: config.certify.requireComplete, abortReason: out.abort?.reason });
  } finally {
    traffic?.close();
    await target.close();
  }
}

/** The conformance report of the run: what the specs found, the waivers applied, compared with the baseline. */
function reportOf(
  { config, waivers, target }: { config: Config; waivers: Waiver[]; target: Target },
  out: ConformanceOutcome,
  notes: string[],
): RunReport {
  const base = buildReport({
    kind: 'conformance',
    suiteName: suiteName(),
    suiteVersion: suiteVersion(),
    specSha256: specSha256(),
    target: target.info,
    startedAt: out.startedAt,
    endedAt: out.endedAt,
    interrupted: out.interrupted,
    abort: out.abort?.message,
    diagnosis: out.abort?.diagnosis,
    keyRefused: out.abort?.reason === 'key-refused',
    requestsSent: out.requests + 1,
    findings: out.findings,
    notes,
  });
  return compareWithBaseline(
    applyWaivers(base, waivers, { allowMustWaivers: config.certify.allowMustWaivers }),
    config.reportsDir,
    config.certify.baseline,
  );
}

/** The run folder's files: traffic.har from the traffic log, then conformance.json and junit.xml; returns their paths as shown. */
function writeRunFolder(report: RunReport, config: Config, traffic: TrafficLog, redact: (s: string) => string): string[] {
  const folder = runFolder(config.reportsDir, 'conformance');
  const har = join(folder, HAR_FILE);
  const withTraffic = { ...report, traffic: writeHar(har, traffic.lines, harRunOf(report), redact) };
  return [...writeReports(withTraffic, folder, CONFORMANCE_FORMATS, redact), har].map(shownPath);
}

ignoreClosedPipes();
main().then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    process.stderr.write(`animal-store: internal error: ${(e as Error).message}\n`);
    process.exitCode = EXIT.usage;
  },
);
