/**
 * junit.xml: one test case per requirement, for CI dashboards.
 *
 * - classname = the requirement's area, name = `ID: title`;
 * - fail → <failure> (type = level), skip → <skipped>, waived → <skipped> with the
 *   waiver's reason and expiry; warn passes with a <system-out> note; INFO
 *   observations go to <system-out> too;
 * - <properties>: target, env, plan, suite version, spec hash, verdict, and the
 *   abort reason when there is one.
 * Every string is escaped and stripped of characters XML 1.0 does not allow.
 */
import type { Finding, RequirementResult, RunReport } from '../types.ts';
import { durationSeconds, escapeAttr, escapeXml, headline, oneLine } from './common.ts';

function evidenceText(f: Finding): string {
  const lines = [`[${f.outcome}] ${f.title}: ${f.message}`, `  source: ${f.source}`];
  const e = f.evidence;
  if (e?.expected !== undefined) lines.push(`  expected: ${e.expected}`);
  if (e?.actual !== undefined) lines.push(`  actual: ${e.actual}`);
  if (e?.request) lines.push(`  request: ${e.request.method ?? ''} ${e.request.url ?? ''}`.trimEnd());
  if (e?.response) {
    lines.push(`  response: ${e.response.status ?? '(no status)'}`);
    const body = e.response.body;
    if (body) lines.push(`  body: ${oneLine(body, 500)}${e.response.bodyTruncated ? ' (truncated)' : ''}`);
  }
  if (e?.error) lines.push(`  error: ${e.error}`);
  return lines.join('\n');
}

const findingsOf = (r: RequirementResult, outcome: Finding['outcome']) => r.findings.filter((f) => f.outcome === outcome);

function firstMessage(r: RequirementResult, outcome: Finding['outcome'], fallback: string): string {
  const f = findingsOf(r, outcome)[0];
  return f ? oneLine(`${f.title}: ${f.message}`, 300) : fallback;
}

function testcase(r: RequirementResult): string {
  const open = `    <testcase classname="${escapeAttr(r.area)}" name="${escapeAttr(`${r.id}: ${r.title}`)}" time="0"`;
  const body: string[] = [];
  const out: string[] = [];
  switch (r.status) {
    case 'fail': {
      const failing = findingsOf(r, 'fail');
      const text = (failing.length ? failing : r.findings).map(evidenceText).join('\n\n') || 'failed';
      body.push(
        `      <failure message="${escapeAttr(firstMessage(r, 'fail', `${r.level} requirement failed`))}" type="${escapeAttr(r.level)}">${escapeXml(text)}</failure>`,
      );
      break;
    }
    case 'skip':
      body.push(`      <skipped message="${escapeAttr(firstMessage(r, 'skip', 'not exercised by this run'))}"/>`);
      break;
    case 'waived': {
      const w = r.waiver;
      const msg = w ? `waived until ${w.expires}: ${w.reason}` : 'waived';
      body.push(`      <skipped message="${escapeAttr(oneLine(msg, 300))}"/>`);
      out.push(...r.findings.filter((f) => f.outcome === 'fail' || f.outcome === 'warn').map(evidenceText));
      break;
    }
    case 'warn':
      out.push(`WARNING (${r.level}): ${firstMessage(r, 'warn', 'warning')}`, ...findingsOf(r, 'warn').map(evidenceText));
      break;
    default:
      break;
  }
  if (r.observations.length) out.push('Observations:', ...r.observations.map((o) => `  - ${o}`));
  if (out.length) body.push(`      <system-out>${escapeXml(out.join('\n'))}</system-out>`);
  return body.length ? `${open}>\n${body.join('\n')}\n    </testcase>` : `${open}/>`;
}

function property(name: string, value: unknown): string {
  return `      <property name="${escapeAttr(name)}" value="${escapeAttr(value)}"/>`;
}

export function renderJunit(report: RunReport): string {
  const reqs = report.requirements;
  const failures = reqs.filter((r) => r.status === 'fail').length;
  const skipped = reqs.filter((r) => r.status === 'skip' || r.status === 'waived').length;
  const errors = report.abort ? 1 : 0;
  const time = durationSeconds(report.startedAt, report.endedAt).toFixed(3);
  const name = `animal-store ${report.kind}`;
  const props = [
    property('verdict', headline(report)),
    property('target', report.target.baseUrl),
    property('env', report.target.env),
    property('plan', report.target.plan),
    property('embedded', report.target.embedded),
    property('suiteVersion', report.suiteVersion),
    property('specSha256', report.specSha256),
    property('requestsSent', report.requestsSent),
    property('interrupted', report.interrupted),
    ...(report.abort ? [property('abort', report.abort)] : []),
  ];
  const cases = reqs.map(testcase);
  if (report.abort) {
    cases.push(
      `    <testcase classname="run" name="run completed" time="0">\n      <error message="${escapeAttr(oneLine(report.abort, 300))}" type="abort">${escapeXml(report.abort)}</error>\n    </testcase>`,
    );
  }
  const notes = report.notes.length ? [`    <system-out>${escapeXml(report.notes.join('\n'))}</system-out>`] : [];
  const tests = cases.length;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${escapeAttr(name)}" tests="${tests}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${time}">`,
    `  <testsuite name="${escapeAttr(name)}" tests="${tests}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${time}" timestamp="${escapeAttr(report.startedAt)}">`,
    '    <properties>',
    ...props,
    '    </properties>',
    ...cases,
    ...notes,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
