/**
 * A scenario report as text, the same from both engines: the JUnit XML and the
 * console summary each load entry point writes beside the JSON report (the
 * Node engine's npm run load, k6's handleSummary, npm run load:merge). Pure
 * (bundled for k6).
 */
import { reportBaseName, type LoadReport } from '../../src/core/load-report.ts';
import { escapeXml as xml } from '../../src/core/xml.ts';

/** JUnit XML: one testcase per judgement; fail → failure, skip → skipped, warn → passes with the warning in system-out. */
export function loadJunit(r: LoadReport): string {
  const name = reportBaseName(r.scenario, r.plan);
  const js = r.judgements.filter((j) => j.outcome !== 'observe');
  const failures = js.filter((v) => v.outcome === 'fail').length;
  const skippedCount = js.filter((v) => v.outcome === 'skip' || v.outcome === 'error').length;
  const secs = Math.max(0, (Date.parse(r.endedAt) - Date.parse(r.startedAt)) / 1000).toFixed(3);
  const cases = js.map((v) => {
    const open = `    <testcase classname="load.${xml(r.scenario)}.${xml(r.plan)}" name="${xml(`${v.requirement}: ${v.title}`)}" time="0">`;
    const body =
      v.outcome === 'fail'
        ? `\n      <failure message="${xml(v.title)}" type="${xml(v.requirement)}">${xml(v.message)}</failure>\n    `
        : v.outcome === 'skip' || v.outcome === 'error'
          ? `\n      <skipped message="${xml(v.message)}"/>\n    `
          : `\n      <system-out>${xml(`${v.outcome.toUpperCase()}: ${v.message}`)}</system-out>\n    `;
    return `${open}${body}</testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="animal-store-load" tests="${js.length}" failures="${failures}" skipped="${skippedCount}" time="${secs}">`,
    `  <testsuite name="${xml(name)}" tests="${js.length}" failures="${failures}" skipped="${skippedCount}" time="${secs}" timestamp="${xml(r.startedAt)}">`,
    `    <properties><property name="engine" value="${xml(r.engine)}"/><property name="target" value="${xml(r.target)}"/><property name="requestsSent" value="${r.requestsSent}"/></properties>`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

const MARK: Record<string, string> = { pass: 'PASS', fail: 'FAIL', warn: 'WARN', skip: 'SKIP', observe: 'SEEN', error: 'SUITE ERROR' };

export function loadSummaryText(r: LoadReport): string {
  const secs = ((Date.parse(r.endedAt) - Date.parse(r.startedAt)) / 1000).toFixed(1);
  const lines = [
    `${r.scenario} (${r.plan}, ${r.engine}) against ${r.target}: ${r.verdict.toUpperCase()} — ${r.requestsSent} requests, ${secs} s`,
  ];
  for (const v of r.judgements) lines.push(`  ${MARK[v.outcome]} ${v.requirement}: ${v.title} — ${v.message}`);
  if (r.stoppedBecause) lines.push(`  stopped: ${r.stoppedBecause}`);
  for (const note of r.notes || []) lines.push(`  note: ${note}`);
  return lines.join('\n') + '\n';
}
