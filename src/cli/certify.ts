/**
 * `npm start` / `animal-store-certify` — a certification run: the conformance
 * specs, then the default rate-limit scenarios (ceiling and recovery) on the
 * configured plan, then one set of reports (index.html, certification.json,
 * junit.xml, summary.md, badge.svg) in a run folder and at the top of reports/.
 *
 * Exit codes: 0 certified, 1 not conformant, 2 usage or configuration error,
 * 3 target unreachable, 130 interrupted.
 */
import { existsSync } from 'node:fs';
import { ConfigError, type Config } from '../config/config.ts';
import { makeRedactor } from '../core/redact.ts';
import { buildReport } from '../results/aggregate.ts';
import { specSha256, suiteVersion } from '../results/meta.ts';
import type { Finding } from '../results/types.ts';
import { applyWaivers, loadWaivers } from '../results/waivers.ts';
import { configOrExit, EXIT, failUsage, guardOutput, parseFlags } from './common.ts';
import { dryRun, formatPlan } from './dry-run.ts';
import { EMBEDDED_WINDOW_MS, parseScenarios, profileFor } from './profiles.ts';
import { preflight } from './preflight.ts';
import { publishReports } from './publish.ts';
import { openTarget, runConformance } from './run-conformance.ts';
import { runLoad } from './run-load.ts';

export const HELP = `Usage: npm start -- [options]      (or: npx animal-store-certify [options])

Certifies an Animal Store server: conformance specs, then the rate-limit
scenarios, then reports in reports/ (index.html, certification.json, junit.xml,
summary.md, badge.svg). With no configuration it certifies the embedded
reference server.

Options (each mirrors an ANIMAL_STORE_* variable; flags win):
  --env local|staging|production   ANIMAL_STORE_ENV (default local)
  --base-url URL                   ANIMAL_STORE_BASE_URL (always wins)
  --staging-url URL                ANIMAL_STORE_STAGING_URL
  --production-url URL             ANIMAL_STORE_PRODUCTION_URL
  --plan free|pro|business|enterprise   ANIMAL_STORE_PLAN
  --rpm N / --rpd N                ANIMAL_STORE_RPM / _RPD (enterprise limits)
  --allow-writes [true|false]      ANIMAL_STORE_ALLOW_WRITES (default false in production)
  --timeout-ms N                   ANIMAL_STORE_TIMEOUT_MS (per request, default 10000)
  --max-requests N                 ANIMAL_STORE_MAX_REQUESTS (run budget; production default 1000)
  --deadline-ms N                  ANIMAL_STORE_DEADLINE_MS (whole run, default 900000)
  --reports-dir DIR                ANIMAL_STORE_REPORTS_DIR (default reports)
  --only conformance|load          run one half only
  --scenarios a,b                  rate-limit scenarios (ceiling, recovery, sustained, overload, daily)
  --waivers FILE                   waiver file (default waivers.json)
  --allow-must-waivers             let waivers cover MUST requirements (shown in the certificate)
  --dry-run                        print the planned requests and the budget; send nothing
  --help                           this text

The API key is read only from ANIMAL_STORE_API_KEY (environment or .env), never from a flag.
Exit codes: 0 certified, 1 not conformant, 2 usage or configuration error, 3 target unreachable, 130 interrupted.`;

const DEFAULT_WAIVERS = 'waivers.json';
const BOOLEAN_FLAGS = ['allow-writes', 'dry-run', 'allow-must-waivers', 'help'];

function parse(argv: string[]) {
  const flags = parseFlags(argv, BOOLEAN_FLAGS);
  if ('api-key' in flags)
    throw new ConfigError(
      'the API key is not accepted as a flag (it would show in process lists and shell history); set ANIMAL_STORE_API_KEY',
    );
  const known = new Set([
    'env',
    'base-url',
    'staging-url',
    'production-url',
    'plan',
    'rpm',
    'rpd',
    'allow-writes',
    'timeout-ms',
    'max-requests',
    'deadline-ms',
    'max-wait-ms',
    'max-body-bytes',
    'reports-dir',
    'only',
    'scenarios',
    'waivers',
    'allow-must-waivers',
    'dry-run',
    'help',
  ]);
  const unknown = Object.keys(flags).filter((k) => !known.has(k));
  if (unknown.length) throw new ConfigError(`unknown option --${unknown[0]} (see --help)`);
  const { only, scenarios, waivers, 'dry-run': dry, 'allow-must-waivers': mustWaivers, ...configFlags } = flags;
  return {
    configFlags,
    only: only as string | undefined,
    scenarios: parseScenarios(scenarios as string | undefined),
    waivers: (waivers as string | undefined) ?? DEFAULT_WAIVERS,
    dry: !!dry,
    mustWaivers: !!mustWaivers,
  };
}

export async function certify(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${HELP}\n`);
    return EXIT.ok;
  }
  let opts: ReturnType<typeof parse>;
  let config: Config;
  let profile: ReturnType<typeof profileFor>;
  let waivers: ReturnType<typeof loadWaivers>;
  try {
    opts = parse(argv);
    config = configOrExit(opts.configFlags);
    profile = profileFor(config, { only: opts.only, scenarios: opts.scenarios });
    waivers = opts.waivers === DEFAULT_WAIVERS && !existsSync(DEFAULT_WAIVERS) ? [] : loadWaivers(opts.waivers);
  } catch (e) {
    failUsage(e);
  }
  guardOutput([config.apiKey]);
  if (opts.dry) {
    process.stdout.write(
      `${formatPlan(await dryRun(config, profile.conformance, profile.scenarios), config.baseUrl ?? 'the embedded reference server')}\n`,
    );
    return EXIT.ok;
  }
  const target = await openTarget(config, { windowMs: EMBEDDED_WINDOW_MS });
  try {
    const reach = await preflight(target);
    if (!reach.ok) {
      process.stderr.write(`animal-store: target unreachable: ${reach.message}\n`);
      return EXIT.unreachable;
    }
    if (reach.hint) process.stderr.write(`animal-store: note: ${reach.hint}\n`);
    const startedAt = new Date();
    const findings: Finding[] = [];
    let requests = 1;
    let abort: string | undefined;
    let interrupted = false;
    if (profile.conformance) {
      const out = await runConformance(target, { reporter: 'dot' });
      findings.push(...out.findings);
      requests += out.requests;
      abort = out.abort?.message;
      interrupted = out.interrupted;
    }
    const load =
      !interrupted && !abort && profile.scenarios.length
        ? await runLoad(target, profile.scenarios, config.maxRequests - requests)
        : undefined;
    if (load) {
      findings.push(...load.findings);
      requests += load.requests;
      interrupted ||= load.interrupted;
      abort ??= load.abort;
    }
    const base = buildReport({
      kind: 'certification',
      suiteVersion: suiteVersion(),
      specSha256: specSha256(),
      target: target.info,
      startedAt,
      endedAt: new Date(),
      interrupted,
      abort,
      requestsSent: requests,
      findings,
      notes: [...(reach.hint ? [reach.hint] : []), ...profile.notes, ...(load?.notes ?? [])],
      load: load?.reports,
    });
    const report = applyWaivers(base, waivers, { now: new Date(), allowMustWaivers: opts.mustWaivers });
    const published = publishReports(report, config.reportsDir, makeRedactor([target.config.apiKey]));
    process.stdout.write(`\n${published.banner}\n`);
    if (interrupted) return EXIT.interrupted;
    return report.verdict === 'pass' ? EXIT.ok : EXIT.notConformant;
  } finally {
    await target.embedded?.close();
  }
}
