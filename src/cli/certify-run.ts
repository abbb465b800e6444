/**
 * A certification run of `npm start` once its command line is read (certify.ts): the target, the preflight request,
 * the conformance specs, then the rate-limit scenarios of the profile (through the one orchestrator, on k6 or the Node
 * engine), then one set of reports in a run folder and at the top of reports/; the exit code of its verdict.
 */
import { pickEngine, runRateLimits, costLines, type LaneRun, type PickedEngine } from '../../load/node/run.ts';
import { shownPath, type Config } from '../config/command-config.ts';
import { keysOf } from '../settings/plan-keys.ts';
import { makeRedactor } from '../core/redact.ts';
import { closeTransport } from '../http/transport.ts';
import { certificationReport } from '../results/certification.ts';
import { compareWithBaseline } from '../results/compare.ts';
import { specSha256, suiteName, suiteVersion } from '../results/meta.ts';
import type { Finding, RunReport } from '../results/types.ts';
import { applyWaivers, type Waiver } from '../results/waivers.ts';
import { renderConsole } from '../results/writers/console.ts';
import { embeddedNote, openTarget, type Target } from '../target/target.ts';
import { measureMachineRate } from './machine-rate.ts';
import { EXIT, exitCodeOf, failUsage, guardOutput } from './entry.ts';
import { preflight } from '../http/preflight.ts';
import { planFacts, planLine } from './run-plan.ts';
import { checkNetworkFiles } from '../http/network.ts';
import type { Profile } from './profiles.ts';
import { publishReports } from './publish.ts';
import { keepCounterexamples } from '../explore/counterexample-store.ts';
import { openTrafficLog, type TrafficLog } from './traffic-file.ts';

/** The run's settings: its Config, profile and waivers (undefined: --help was asked for and printed). */
export interface RunSetup {
  config: Config;
  profile: Profile;
  waivers: Waiver[];
}

/** What the run has found and sent so far, which each phase adds to and the report is built from. */
interface RunState {
  findings: Finding[];
  notes: string[];
  /** The preflight's request, then every phase's. */
  requests: number;
  abort?: { reason: string; message: string; diagnosis?: string };
  interrupted: boolean;
  lanes: LaneRun[];
}

/** The run, once its command line is read: `runStartedAt` is when the command started (the deadline counts from it). */
export async function runCertification(setup: RunSetup, stop: AbortController, runStartedAt: number): Promise<number> {
  const { config, profile } = setup;
  guardOutput(keysOf(config));
  try {
    checkNetworkFiles(config.network);
  } catch (e) {
    failUsage(e);
  }
  const target = await openRunTarget(config, profile);
  // The embedded server's daily keys (the daily scenario's own) are keys too: redacted like the run's.
  const redact = makeRedactor([...keysOf(target.config), ...Object.values(target.dailyKeys ?? {}).map((d) => d.key)]);
  let traffic: TrafficLog | undefined;
  try {
    const picked = engineFor(target, profile);
    if (config.certify.dryRun) {
      // The dry run counts the specs' requests in process (the harness, the exploration's drafts): loaded only for it.
      const { dryRun, formatPlan } = await import('./dry-run.ts');
      process.stdout.write(`${formatPlan(await dryRun(target, profile), target.info.baseUrl)}\n`);
      return EXIT.ok;
    }
    const reach = await preflight(target);
    if (!reach.ok) {
      process.stderr.write(`animal-store: target unreachable: ${reach.diagnosis}\n`);
      return EXIT.unreachable;
    }
    if (reach.hint) process.stderr.write(`animal-store: note: ${reach.hint}\n`);
    if (reach.protocol && target.info.network) target.info.network.negotiated = reach.protocol;
    if (profile.conformance) process.stderr.write(`${planLine(planFacts(target, reach.latencyMs ?? 0))}\n`);
    if (picked) process.stderr.write(`${picked.line}\n${costLines(target, profile.scenarios).lines.join('\n')}\n`);
    const startedAt = new Date();
    const state: RunState = {
      findings: [],
      notes: runNotes(config, profile, target, reach.hint),
      requests: 1,
      interrupted: false,
      lanes: [],
    };
    if (profile.conformance) {
      traffic = openTrafficLog(config.reportsDir);
      await conformancePhase(state, target, config, {
        signal: stop.signal,
        deadlineAt: runStartedAt + target.config.deadlineMs,
        trafficFile: traffic.path,
      });
    }
    if (stop.signal.aborted) state.interrupted = true;
    if (!state.interrupted && !state.abort && picked)
      await rateLimitPhase(state, target, profile, { picked, runStartedAt, signal: stop.signal });
    const report = reportOf(state, { setup, target, picked, startedAt });
    const published = publishReports(report, config.reportsDir, redact, { traffic: traffic?.lines });
    const files = published.files.map(shownPath);
    process.stdout.write(`\n${redact(renderConsole(report, { verbose: config.output.verbose, reports: files }))}`);
    return exitCodeOf(report, { requireComplete: config.certify.requireComplete, abortReason: state.abort?.reason });
  } finally {
    traffic?.close();
    await closeTransport();
    await target.close();
  }
}

/** The target, its request budget made to cover the caps of the scenarios asked for unless a budget was given. */
async function openRunTarget(config: Config, profile: Profile): Promise<Target> {
  // A default budget (not one given) also covers the caps of the scenarios asked for: naming them is consent to their cost.
  const target = await openTarget(profile.config);
  if (!config.maxRequestsGiven && profile.scenarios.length) {
    try {
      target.config.maxRequests += costLines(target, profile.scenarios).maxRequests;
    } catch (e) {
      await target.close();
      failUsage(e);
    }
  }
  return target;
}

/**
 * The embedded server's world re-sized, before the rate-limit scenarios, to what this machine sustains against it —
 * measured for a moment then (machine-rate.ts), its code compiled by the conformance run, the machine as busy as the
 * scenarios will find it: the conformance specs ran in the world it started with (the shortest, whose windows they never
 * fill). Not for a real target nor a world given (--window-ms, --day-ms).
 */
async function sizeToMachine(target: Target, profile: Profile): Promise<void> {
  if (!target.resize || !profile.scenarios.length) return;
  target.resize(await measureMachineRate());
  process.stderr.write(`${embeddedNote(target)}\n`);
}

/** The engine of the rate-limit scenarios (none when the profile runs none); an engine that cannot run is a usage error. */
function engineFor(target: Target, profile: Profile): PickedEngine | undefined {
  try {
    return profile.scenarios.length ? pickEngine(target.config) : undefined;
  } catch (e) {
    failUsage(e);
  }
}

/** The notes the report starts with: the preflight's hint, the embedded server's world, the profile's, the budget. */
function runNotes(config: Config, profile: Profile, target: Target, hint: string | undefined): string[] {
  return [
    ...(hint ? [hint] : []),
    ...(embeddedNote(target) ? [embeddedNote(target) as string] : []),
    ...profile.notes,
    `Request budget for the whole run: ${target.config.maxRequests}${config.maxRequestsGiven ? '' : ' (the default, plus the caps of the rate-limit scenarios asked for)'} (--max-requests).`,
  ];
}

/** The conformance specs and the exploration (Vitest, loaded only now), and the counterexamples kept for the next run. */
async function conformancePhase(
  state: RunState,
  target: Target,
  config: Config,
  o: { signal: AbortSignal; deadlineAt: number; trafficFile: string },
): Promise<void> {
  // Vitest is loaded only when the specs run: a dry run or a load-only run starts without it (about 1.5 s of CPU time).
  const { runConformance } = await import('./run-conformance.ts');
  const out = await runConformance(target, { verbose: config.output.verbose, ...o });
  state.findings.push(...out.findings);
  state.requests += out.requests;
  state.abort = out.abort;
  state.interrupted = out.interrupted;
  state.notes.push(...out.notes);
  const kept = keepCounterexamples(config.reportsDir, target.info, out.findings);
  if (kept) state.notes.push(kept);
  for (const e of out.errors) state.notes.push(`Vitest error: ${e}`);
}

/** The rate-limit scenarios, on what is left of the budget, through the one orchestrator. */
async function rateLimitPhase(
  state: RunState,
  target: Target,
  profile: Profile,
  o: { picked: PickedEngine; runStartedAt: number; signal: AbortSignal },
): Promise<void> {
  // The report's note on the embedded server's world says the world the scenarios ran in (re-sized, made longer).
  const note = embeddedNote(target);
  await sizeToMachine(target, profile);
  const run = await runRateLimits(target, profile.scenarios, {
    engine: o.picked.engine,
    budget: target.config.maxRequests - state.requests,
    runStartedAt: o.runStartedAt,
    // The daily scenario's judgement counts what the run already spent on the key (the preflight, the specs, the exploration).
    earlierRequests: state.requests,
    signal: o.signal,
    onWait: (line) => process.stderr.write(`  … ${line}\n`),
  });
  const now = embeddedNote(target);
  if (note && now) state.notes = state.notes.map((n) => (n === note ? now : n));
  state.lanes = run.lanes;
  state.requests += run.reports.reduce((n, r) => n + r.requestsSent, 0);
  if (run.stopped?.kind === 'interrupted') state.interrupted = true;
  else if (run.stopped) state.abort = { reason: run.stopped.kind, message: run.stopped.reason };
}

/** The run's report: certified from what the phases found, the waivers applied, compared with the baseline. */
function reportOf(state: RunState, run: { setup: RunSetup; target: Target; picked: PickedEngine | undefined; startedAt: Date }): RunReport {
  const { config, profile, waivers } = run.setup;
  const { abort, lanes } = state;
  const c = run.target.config;
  const planned = certificationReport({
    suiteName: suiteName(),
    suiteVersion: suiteVersion(),
    specSha256: specSha256(),
    target: run.target.info,
    startedAt: run.startedAt,
    endedAt: new Date(),
    interrupted: state.interrupted,
    abort: abort?.message,
    diagnosis: abort?.diagnosis,
    keyRefused: abort?.reason === 'key-refused',
    requestsSent: state.requests,
    conformance: state.findings,
    lanes,
    // The engine the scenarios ran on, and why (a k6 the suite is not yet verified on: its failures say so).
    ...(lanes.length && run.picked ? { engine: run.picked.record } : {}),
    ...(c.plans?.length
      ? { plans: c.plans.map((p) => ({ plan: p.plan, perMinute: p.limits.perMinute, perDay: p.limits.perDay, keySource: p.keySource })) }
      : {}),
    ...(c.plans?.length && c.conformanceKeySource && profile.conformance ? { conformanceKey: c.conformanceKeySource } : {}),
    notes: state.notes,
  });
  const waived = applyWaivers(planned, waivers, { now: new Date(), allowMustWaivers: config.certify.allowMustWaivers });
  return compareWithBaseline(waived, config.reportsDir, config.certify.baseline);
}
