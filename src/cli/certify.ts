/**
 * `npm start` / `animal-store-certify` — a certification run: the conformance
 * specs, then the rate-limit scenarios of the profile (through the one
 * orchestrator, on k6 or the Node engine), then one set of reports
 * (index.html, certification.json, junit.xml, summary.md, badge.svg, and the
 * run's traffic as traffic.har) in a run folder and at the top of reports/. The verdict names its scope: certified,
 * passed but incomplete, or not conformant.
 */
import { existsSync } from 'node:fs';
import { pickEngine, runRateLimits, costLines, type LaneRun } from '../../load/node/run.ts';
import { configFrom, shownPath, type Config } from '../config/config.ts';
import { envKeys, keysOf } from '../settings/plan-keys.ts';
import { makeRedactor } from '../core/redact.ts';

import { optionsHelp } from '../config/help.ts';
import { closeTransport } from '../http/transport.ts';
import { certificationReport } from '../results/certification.ts';
import { compareWithBaseline } from '../results/compare.ts';
import { specSha256, suiteVersion } from '../results/meta.ts';
import type { Finding } from '../results/types.ts';
import { applyWaivers, loadWaivers } from '../results/waivers.ts';
import { renderConsole } from '../results/writers/console.ts';
import { embeddedNote, openTarget } from '../target/target.ts';
import { EXIT, EXIT_HELP, exitCodeOf, failUsage, guardOutput } from './common.ts';
import { dryRun, formatPlan } from './dry-run.ts';
import { preflight } from '../http/preflight.ts';
import { profileFor, type Profile } from './profiles.ts';
import { publishReports } from './publish.ts';
import { keepCounterexamples } from '../explore/store.ts';
import { openTrafficLog, type TrafficLog } from './traffic.ts';

export const HELP = `Usage: npm start -- [options]      (or: npx animal-store-certify [options])

Certifies an Animal Store server: the conformance specs, then the rate-limit
scenarios of the profile, then reports in reports/ (index.html,
certification.json, junit.xml, summary.md, badge.svg, and traffic.har: every
request and response of the specs and the exploration, HAR 1.2). With no
configuration it certifies the embedded reference server. The API key is read only from
ANIMAL_STORE_API_KEY (environment or .env), never from a flag.

${optionsHelp('start')}

Outcomes: CERTIFIED (every MUST requirement exercised and passed), PASSED,
INCOMPLETE (no MUST failed, some not exercised — each listed with what would
exercise it — or warned), NOT CONFORMANT (a MUST failed); KEY REFUSED (exit 5:
every authenticated request answered 401, no conformance verdict).
${EXIT_HELP}`;

const DEFAULT_WAIVERS = 'waivers.json';

export async function certify(argv: string[]): Promise<number> {
  // Ctrl-C at any moment: the run stops, still writes a report that says it was interrupted, and exits 130.
  const stop = new AbortController();
  const onInterrupt = () => stop.abort();
  process.on('SIGINT', onInterrupt);
  process.on('SIGTERM', onInterrupt);
  try {
    return await certifyRun(argv, stop);
  } finally {
    process.off('SIGINT', onInterrupt);
    process.off('SIGTERM', onInterrupt);
  }
}

async function certifyRun(argv: string[], stop: AbortController): Promise<number> {
  // The run's deadline (--deadline-ms) counts from here, for the conformance specs and the rate-limit scenarios alike.
  const runStartedAt = Date.now();
  let config: Config;
  let profile: Profile;
  let waivers: ReturnType<typeof loadWaivers>;
  try {
    config = configFrom(argv, 'start');
    if (config.help) {
      process.stdout.write(`${HELP}\n`);
      return EXIT.ok;
    }
    profile = profileFor(config);
    const file = config.certify.waivers ?? DEFAULT_WAIVERS;
    waivers = file === DEFAULT_WAIVERS && !existsSync(DEFAULT_WAIVERS) ? [] : loadWaivers(file);
  } catch (e) {
    failUsage(e);
  }
  guardOutput(keysOf(config));
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
  const redact = makeRedactor(keysOf(target.config));
  let traffic: TrafficLog | undefined;
  try {
    let picked;
    try {
      picked = profile.scenarios.length ? pickEngine(target.config) : undefined;
    } catch (e) {
      failUsage(e);
    }
    if (config.certify.dryRun) {
      process.stdout.write(`${formatPlan(await dryRun(target, profile), target.info.baseUrl)}\n`);
      return EXIT.ok;
    }
    const reach = await preflight(target);
    if (!reach.ok) {
      process.stderr.write(`animal-store: target unreachable: ${reach.diagnosis}\n`);
      return EXIT.unreachable;
    }
    if (reach.hint) process.stderr.write(`animal-store: note: ${reach.hint}\n`);
    if (picked) process.stderr.write(`${picked.line}\n${costLines(target, profile.scenarios).lines.join('\n')}\n`);
    const startedAt = new Date();
    const findings: Finding[] = [];
    const notes = [
      ...(reach.hint ? [reach.hint] : []),
      ...(embeddedNote(target) ? [embeddedNote(target) as string] : []),
      ...profile.notes,
      `Request budget for the whole run: ${target.config.maxRequests}${config.maxRequestsGiven ? '' : ' (the default, plus the caps of the rate-limit scenarios asked for)'} (--max-requests).`,
    ];
    let requests = 1;
    let abort: { reason: string; message: string; diagnosis?: string } | undefined;
    let interrupted = false;
    if (profile.conformance) {
      // Vitest is loaded only when the specs run: --help, a usage error, a dry run or a load-only run start 0.5 s sooner.
      const { runConformance } = await import('./run-conformance.ts');
      traffic = openTrafficLog(config.reportsDir);
      const out = await runConformance(target, {
        verbose: config.output.verbose,
        signal: stop.signal,
        deadlineAt: runStartedAt + target.config.deadlineMs,
        trafficFile: traffic.path,
      });
      findings.push(...out.findings);
      requests += out.requests;
      abort = out.abort;
      interrupted = out.interrupted;
      notes.push(...out.notes);
      const kept = keepCounterexamples(config.reportsDir, target.info, out.findings);
      if (kept) notes.push(kept);
      for (const e of out.errors) notes.push(`Vitest error: ${e}`);
    }
    let lanes: LaneRun[] = [];
    if (stop.signal.aborted) interrupted = true;
    if (!interrupted && !abort && picked) {
      const run = await runRateLimits(target, profile.scenarios, {
        engine: picked.engine,
        budget: target.config.maxRequests - requests,
        runStartedAt,
        // The daily scenario's judgement counts what the run already spent on the key (the preflight, the specs, the exploration).
        earlierRequests: requests,
        signal: stop.signal,
        onWait: (line) => process.stderr.write(`  … ${line}\n`),
      });
      lanes = run.lanes;
      requests += run.reports.reduce((n, r) => n + r.requestsSent, 0);
      if (run.stopped?.kind === 'interrupted') interrupted = true;
      else if (run.stopped) abort = { reason: run.stopped.kind, message: run.stopped.reason };
    }
    const c = target.config;
    const planned = certificationReport({
      suiteVersion: suiteVersion(),
      specSha256: specSha256(),
      target: target.info,
      startedAt,
      endedAt: new Date(),
      interrupted,
      abort: abort?.message,
      diagnosis: abort?.diagnosis,
      keyRefused: abort?.reason === 'key-refused',
      requestsSent: requests,
      conformance: findings,
      lanes,
      // The engine the scenarios ran on, and why (a k6 the suite is not yet verified on: its failures say so).
      ...(lanes.length && picked ? { engine: picked.record } : {}),
      ...(c.plans?.length
        ? { plans: c.plans.map((p) => ({ plan: p.plan, perMinute: p.limits.perMinute, perDay: p.limits.perDay, keySource: p.keySource })) }
        : {}),
      ...(c.plans?.length && c.conformanceKeySource && profile.conformance ? { conformanceKey: c.conformanceKeySource } : {}),
      notes,
    });
    const waived = applyWaivers(planned, waivers, { now: new Date(), allowMustWaivers: config.certify.allowMustWaivers });
    const report = compareWithBaseline(waived, config.reportsDir, config.certify.baseline);
    const published = publishReports(report, config.reportsDir, redact, undefined, traffic?.lines);
    const files = published.files.map(shownPath);
    process.stdout.write(`\n${redact(renderConsole(report, { verbose: config.output.verbose, reports: files }))}`);
    return exitCodeOf(report, { requireComplete: config.certify.requireComplete, abortReason: abort?.reason });
  } finally {
    traffic?.close();
    await closeTransport();
    await target.close();
  }
}
