/**
 * `npm start` / `animal-store-certify` — a certification run: the conformance
 * specs, then the rate-limit scenarios of the profile (through the one
 * orchestrator, on k6 or the Node engine), then one set of reports
 * (index.html, certification.json, junit.xml, summary.md, badge.svg, and the
 * run's traffic as traffic.har) in a run folder and at the top of reports/. The verdict names its scope: certified,
 * passed but incomplete, or not conformant.
 *
 * This module reads the command line; the run itself (certify-run.ts: the target, the engines, the writers) is loaded
 * only once one starts, so --help and a usage error answer without it (about 0.45 s of CPU time instead of 1.4 s).
 */
import { existsSync } from 'node:fs';
import { configFrom } from '../config/command-config.ts';
import { optionsHelp } from '../config/help.ts';
import { suiteLabel, suiteName, suiteVersion } from '../results/meta.ts';
import { loadWaivers } from '../results/waivers.ts';
import { EXIT, EXIT_HELP, failUsage } from './entry.ts';
import { profileFor } from './profiles.ts';
import type { RunSetup } from './certify-run.ts';

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
  const setup = readSetup(argv);
  if (!setup) return EXIT.ok;
  const { runCertification } = await import('./certify-run.ts');
  return runCertification(setup, stop, runStartedAt);
}

/** The Config, the profile and the waivers; a usage error exits 2, --help prints the help (undefined). */
function readSetup(argv: string[]): RunSetup | undefined {
  try {
    const config = configFrom(argv, 'start');
    if (config.help || config.version) {
      process.stdout.write(config.help ? `${HELP}\n` : `${suiteLabel({ suiteName: suiteName(), suiteVersion: suiteVersion() })}\n`);
      return undefined;
    }
    const profile = profileFor(config);
    const file = config.certify.waivers ?? DEFAULT_WAIVERS;
    const waivers = file === DEFAULT_WAIVERS && !existsSync(DEFAULT_WAIVERS) ? [] : loadWaivers(file);
    return { config, profile, waivers };
  } catch (e) {
    failUsage(e);
  }
}
