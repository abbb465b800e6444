/**
 * The rate-limit half of a certification run: runs the requested scenarios one
 * after the other with the Node engine on the configured key, within what is
 * left of the run's request budget, and turns their verdicts into findings.
 */
import { LoadConfigError } from '../../load/lib/config.ts';
import type { LoadReport } from '../../load/lib/types.ts';
import { runScenario } from '../../load/node/engine.ts';
import type { Finding } from '../results/types.ts';
import type { LoadScenario } from './profiles.ts';
import type { Target } from './run-conformance.ts';

export interface LoadOutcome {
  findings: Finding[];
  reports: LoadReport[];
  requests: number;
  notes: string[];
  interrupted: boolean;
  abort?: string;
}

export function verdictFindings(report: LoadReport): Finding[] {
  return report.verdicts.map((v) => ({
    requirement: v.requirement,
    outcome: v.outcome,
    title: v.title,
    message: v.message,
    source: `load: ${report.scenario} (${report.engine} engine)`,
    at: report.endedAt,
  }));
}

export async function runLoad(target: Target, scenarios: readonly LoadScenario[], budget: number): Promise<LoadOutcome> {
  const { config } = target;
  const out: LoadOutcome = { findings: [], reports: [], requests: 0, notes: [], interrupted: false };
  const ac = new AbortController();
  const onSignal = () => {
    out.interrupted = true;
    ac.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    for (const name of scenarios) {
      if (out.interrupted) break;
      try {
        const result = await runScenario(name, {
          plan: config.plan,
          baseUrl: config.baseUrl,
          apiKey: config.apiKey,
          perMinute: config.limits.perMinute,
          perDay: config.limits.perDay,
          windowMs: target.windowMs,
          allowDaily: true, // only reached when the daily scenario was asked for by name
          reportsDir: config.reportsDir,
          timeoutMs: config.timeoutMs,
          maxBodyBytes: config.maxBodyBytes,
          maxRequests: budget - out.requests,
          progress: 'auto',
          signal: ac.signal,
          log: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
        });
        out.reports.push(result.report);
        out.findings.push(...verdictFindings(result.report));
        out.requests += result.report.requestsSent;
        if (result.unreachable) {
          out.abort = `target unreachable during the ${name} scenario: ${result.unreachable}`;
          break;
        }
      } catch (e) {
        if (!(e instanceof LoadConfigError)) throw e;
        out.notes.push(`Rate-limit scenario ${name} not run: ${e.message}`);
      }
    }
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  if (out.interrupted) out.notes.push('The rate-limit scenarios were interrupted.');
  return out;
}
