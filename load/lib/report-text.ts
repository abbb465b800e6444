/**
 * A scenario report as text, the same from both engines: the JUnit XML and the
 * console summary each load entry point writes beside the JSON report (the
 * Node engine's npm run load, k6's handleSummary, npm run load:merge). Pure
 * (bundled for k6).
 */
import { reportBaseName, type LoadReport } from '../../src/core/load-report.ts';
import type { Judgement } from '../../src/core/sections/define.ts';
import { xmlBlock, xmlDocument, xmlElement, type Xml } from '../../src/core/xml.ts';

/** JUnit XML: one testcase per judgement; fail → failure, skip → skipped, warn → passes with the warning in system-out. */
export function loadJunit(r: LoadReport): string {
  const js = r.judgements.filter((j) => j.outcome !== 'observe');
  const counts = {
    tests: js.length,
    failures: js.filter((v) => v.outcome === 'fail').length,
    skipped: js.filter((v) => v.outcome === 'skip' || v.outcome === 'error').length,
    time: Math.max(0, (Date.parse(r.endedAt) - Date.parse(r.startedAt)) / 1000).toFixed(3),
  };
  const property = (name: string, value: string | number) => xmlElement('property', { name, value });
  const properties = xmlElement(
    'properties',
    {},
    [property('engine', r.engine), property('target', r.target), property('requestsSent', r.requestsSent)],
    '    ',
  );
  const cases = js.map((v) =>
    xmlBlock(
      'testcase',
      { classname: `load.${r.scenario}.${r.plan}`, name: `${v.requirement}: ${v.title}`, time: 0 },
      [caseBody(v)],
      '    ',
    ),
  );
  const suite = xmlBlock(
    'testsuite',
    { name: reportBaseName(r.scenario, r.plan), ...counts, timestamp: r.startedAt },
    [properties, ...cases],
    '  ',
  );
  return xmlDocument(xmlBlock('testsuites', { name: 'animal-store-load', ...counts }, [suite]));
}

/** What a judgement's testcase holds: its failure, why it was skipped, or its outcome in system-out. */
function caseBody(v: Judgement): Xml {
  if (v.outcome === 'fail') return xmlElement('failure', { message: v.title, type: v.requirement }, [v.message], '      ');
  if (v.outcome === 'skip' || v.outcome === 'error') return xmlElement('skipped', { message: v.message }, [], '      ');
  return xmlElement('system-out', {}, [`${v.outcome.toUpperCase()}: ${v.message}`], '      ');
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
