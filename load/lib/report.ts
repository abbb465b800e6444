/**
 * The report of a load scenario, written identically by both engines:
 * reports/load-<scenario>-<plan>.json (a LoadReport), a JUnit file, and a short
 * text summary. Also the encoding of verdicts as k6 check names, so k6's
 * handleSummary can rebuild them. Pure (bundled for k6).
 */
import type { PlanName } from '../../src/core/plans.ts';
import { timelinePoint } from './signals.ts';
import type { LoadReport, Sample, ScenarioName, TimelinePoint, Verdict, VerdictOutcome } from './types.ts';

export const TIMELINE_MAX_POINTS = 3000;

export function reportBaseName(scenario: ScenarioName, plan: PlanName): string {
  return `load-${scenario}-${plan}`;
}

/** The timeline, thinned evenly to at most `max` points; every non-2xx point is kept. */
export function timeline(samples: readonly Sample[], startedAt: number, max = TIMELINE_MAX_POINTS): TimelinePoint[] {
  const sorted = samples.slice().sort((a, b) => a.t - b.t);
  let keep = sorted;
  if (sorted.length > max) {
    const special = sorted.filter((s) => s.status < 200 || s.status >= 300);
    const ok = sorted.filter((s) => s.status >= 200 && s.status < 300);
    const room = Math.max(0, max - special.length);
    const step = ok.length / Math.max(1, room);
    const thinned: Sample[] = [];
    for (let i = 0; i < room && Math.floor(i * step) < ok.length; i++) thinned.push(ok[Math.floor(i * step)]);
    keep = special
      .slice(0, max)
      .concat(thinned)
      .sort((a, b) => a.t - b.t);
  }
  return keep.map((s) => timelinePoint(s, startedAt));
}

export interface ReportInput {
  scenario: ScenarioName;
  plan: PlanName;
  engine: 'node' | 'k6';
  target: string;
  startedAt: number;
  endedAt: number;
  requestsSent: number;
  verdicts: Verdict[];
  samples?: readonly Sample[];
  stoppedBecause?: string;
  notes?: string[];
}

export function overall(verdicts: readonly Verdict[]): 'pass' | 'fail' {
  return verdicts.length > 0 && !verdicts.some((v) => v.outcome === 'fail') ? 'pass' : 'fail';
}

export function buildReport(i: ReportInput, redact: (s: string) => string = (s) => s): LoadReport {
  const r: LoadReport = {
    scenario: i.scenario,
    plan: i.plan,
    engine: i.engine,
    target: redact(i.target),
    startedAt: new Date(i.startedAt).toISOString(),
    endedAt: new Date(i.endedAt).toISOString(),
    verdict: overall(i.verdicts),
    requestsSent: i.requestsSent,
    verdicts: i.verdicts.map((v) => ({
      requirement: v.requirement,
      outcome: v.outcome,
      title: redact(v.title),
      message: redact(v.message),
    })),
    timeline: i.samples ? timeline(i.samples, i.startedAt) : [],
  };
  if (i.stoppedBecause) r.stoppedBecause = redact(i.stoppedBecause);
  if (i.notes && i.notes.length) r.notes = i.notes.map(redact);
  return r;
}

function xml(s: string): string {
  return s
    .replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] as string)
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');
}

/** JUnit XML: one testcase per verdict; fail → failure, skip → skipped, warn → passes with the warning in system-out. */
export function junit(r: LoadReport): string {
  const name = reportBaseName(r.scenario, r.plan);
  const failures = r.verdicts.filter((v) => v.outcome === 'fail').length;
  const skippedCount = r.verdicts.filter((v) => v.outcome === 'skip').length;
  const secs = Math.max(0, (Date.parse(r.endedAt) - Date.parse(r.startedAt)) / 1000).toFixed(3);
  const cases = r.verdicts.map((v) => {
    const open = `    <testcase classname="load.${xml(r.scenario)}.${xml(r.plan)}" name="${xml(`${v.requirement}: ${v.title}`)}" time="0">`;
    const body =
      v.outcome === 'fail'
        ? `\n      <failure message="${xml(v.title)}" type="${xml(v.requirement)}">${xml(v.message)}</failure>\n    `
        : v.outcome === 'skip'
          ? `\n      <skipped message="${xml(v.message)}"/>\n    `
          : `\n      <system-out>${xml(`${v.outcome.toUpperCase()}: ${v.message}`)}</system-out>\n    `;
    return `${open}${body}</testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="animal-store-load" tests="${r.verdicts.length}" failures="${failures}" skipped="${skippedCount}" time="${secs}">`,
    `  <testsuite name="${xml(name)}" tests="${r.verdicts.length}" failures="${failures}" skipped="${skippedCount}" time="${secs}" timestamp="${xml(r.startedAt)}">`,
    `    <properties><property name="engine" value="${xml(r.engine)}"/><property name="target" value="${xml(r.target)}"/><property name="requestsSent" value="${r.requestsSent}"/></properties>`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

const MARK: Record<VerdictOutcome, string> = { pass: 'PASS', fail: 'FAIL', warn: 'WARN', skip: 'SKIP' };

export function summaryText(r: LoadReport): string {
  const lines = [
    `${r.scenario} (${r.plan}, ${r.engine}) against ${r.target}: ${r.verdict.toUpperCase()} — ${r.requestsSent} requests, ${((Date.parse(r.endedAt) - Date.parse(r.startedAt)) / 1000).toFixed(1)} s`,
  ];
  for (const v of r.verdicts) lines.push(`  ${MARK[v.outcome]} ${v.requirement}: ${v.title} — ${v.message}`);
  if (r.stoppedBecause) lines.push(`  stopped: ${r.stoppedBecause}`);
  for (const note of r.notes || []) lines.push(`  note: ${note}`);
  return lines.join('\n') + '\n';
}

const CHECK_RE = /^\[([A-Z0-9-]+)\] (pass|fail|warn|skip) — (.*?) — ([\s\S]*)$/;

/** A k6 check name carrying a verdict; the check passes unless the outcome is fail. */
export function checkName(v: Verdict): string {
  return `[${v.requirement}] ${v.outcome} — ${v.title.replace(/ — /g, ' - ')} — ${v.message}`;
}

export function parseCheckName(name: string): Verdict | undefined {
  const m = CHECK_RE.exec(name);
  return m ? { requirement: m[1], outcome: m[2] as VerdictOutcome, title: m[3], message: m[4] } : undefined;
}
