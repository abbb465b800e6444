/**
 * `npm run conformance` — run the conformance specs and write
 * reports/conformance.json and reports/junit.xml.
 * Exit codes: 0 no MUST requirement failed, 1 one did, 2 configuration error,
 * 3 target unreachable, 130 interrupted.
 */
import { buildReport } from '../results/aggregate.ts';
import { specSha256, suiteVersion } from '../results/meta.ts';
import { CONFORMANCE_FORMATS, writeReports } from '../results/writers/index.ts';
import { makeRedactor } from '../core/redact.ts';
import { configOrExit, EXIT, failUsage, guardOutput, parseFlags } from './common.ts';
import { openTarget, runConformance } from './run-conformance.ts';

const HELP = `Usage: npm run conformance -- [--env local|staging|production] [--base-url URL] [--plan free|pro|business|enterprise]
                                [--allow-writes true|false] [--timeout-ms N] [--reports-dir DIR]
Runs the Vitest conformance specs; writes conformance.json and junit.xml. Every flag mirrors an ANIMAL_STORE_* variable (see README).`;

async function main() {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) return void process.stdout.write(`${HELP}\n`);
  let flags;
  try {
    flags = parseFlags(argv, ['allow-writes']);
  } catch (e) {
    failUsage(e);
  }
  const config = configOrExit(flags);
  guardOutput([config.apiKey]);
  const target = await openTarget(config);
  try {
    const out = await runConformance(target);
    const report = buildReport({
      kind: 'conformance',
      suiteVersion: suiteVersion(),
      specSha256: specSha256(),
      target: out.target,
      startedAt: out.startedAt,
      endedAt: out.endedAt,
      interrupted: out.interrupted,
      abort: out.abort?.message,
      requestsSent: out.requests,
      findings: out.findings,
      notes: out.errors.map((e) => `Vitest error: ${e}`),
    });
    const paths = writeReports(report, config.reportsDir, CONFORMANCE_FORMATS, makeRedactor([target.config.apiKey]));
    const c = report.counts;
    process.stdout.write(
      `\nanimal-store conformance: ${report.verdict === 'pass' ? 'PASS' : 'FAIL'} — ${c.pass} pass, ${c.fail} fail, ${c.warn} warn, ${c.skip} skip; ${report.requestsSent} requests to ${report.target.baseUrl}${report.abort ? `\n  run aborted: ${report.abort}` : ''}\n  reports: ${paths.join(', ')}\n`,
    );
    process.exitCode = out.interrupted
      ? EXIT.interrupted
      : out.abort?.reason === 'unreachable'
        ? EXIT.unreachable
        : report.verdict === 'pass'
          ? EXIT.ok
          : EXIT.notConformant;
  } finally {
    await target.embedded?.close();
  }
}

main().catch((e) => {
  process.stderr.write(`animal-store: internal error: ${(e as Error).message}\n`);
  process.exit(EXIT.usage);
});
