/**
 * junit.xml, for CI dashboards.
 *
 * - One testsuite of the requirements: one test case per requirement,
 *   classname = its area, name = `ID: title`. fail → <failure> (type = level)
 *   whose message names its cause ("[cause C-…] …"), with the evidence and a
 *   curl line — a consequence of a cause whose primary is another requirement
 *   names the cause and that testcase instead, so each cause's evidence is
 *   written once (junit-parts.ts); not exercised → <skipped> with the
 *   reason and what would exercise it; waived → <skipped> with the waiver;
 *   warn passes with the warning in <system-out>; observed (INFO) passes with
 *   its observations in <system-out> (it is never counted as a failure).
 * - One testsuite per rate-limit scenario, one test case per judgement.
 * - A run over several plans: the requirements testsuite holds the
 *   conformance requirements (judged once, on `conformanceKey`), and each plan
 *   gets a testsuite of its rate-limit requirements (classname
 *   `plan.<plan>.<area>`), its properties naming the plan, its outcome, limits
 *   and key source.
 * - <properties>: the outcome (certified, incomplete, not-conformant), the
 *   headline and its scope, the MUSTs not exercised, the causes (how many, and
 *   `cause.<id>`: each one's title and the requirements it breaks), the diagnosis, what is new
 *   since the last run, the target, plan, suite version and spec hash, the
 *   rate-limit engine and why, and the k6 found (version, verified or not).
 * - An aborted run gets one <error> test case with the reason.
 * Every string is escaped and stripped of characters XML 1.0 does not allow.
 */
import type { Judgement } from '../../core/sections/define.ts';
import { xmlBlock, xmlDocument, xmlElement, type Xml } from '../../core/xml.ts';
import type { Finding, PlanResult, RequirementResult, RunReport } from '../types.ts';
import {
  durationSeconds,
  engineReason,
  engineText,
  explainingFinding,
  headline,
  notExercisedText,
  oneLine,
  planHeadline,
  plansCertified,
  plansOf,
  remedyText,
} from './common.ts';
import { scopeSentence } from './scope.ts';
import { causeChanges } from './causes.ts';
import { causeByTitle, causePrefix, causeProperties, type Ctx, evidence, findingText, loadCausePrefix, property } from './junit-parts.ts';
import { type Gap, notExercisedList } from './not-exercised.ts';
import type { LoadReport } from './load-runs.ts';
import { perPlanRequirements, planMusts, planRequirement, replayKey, replayKeyOf, sharedRequirements } from './plan-view.ts';

const problemsOf = (r: RequirementResult, outcome: Finding['outcome']) => r.findings.filter((f) => f.outcome === outcome);
const summary = (f: Judgement | undefined, fallback: string) => (f ? oneLine(`${f.title}: ${f.message}`, 300) : fallback);

interface Case {
  classname: string;
  name: string;
  failure?: { message: string; type: string; text: string };
  skipped?: string;
  out: string[];
}

function caseXml(c: Case): Xml {
  const body: Xml[] = [];
  if (c.failure) body.push(xmlElement('failure', { message: c.failure.message, type: c.failure.type }, [c.failure.text], '      '));
  if (c.skipped !== undefined) body.push(xmlElement('skipped', { message: oneLine(c.skipped, 400) }, [], '      '));
  if (c.out.length) body.push(xmlElement('system-out', {}, [c.out.join('\n')], '      '));
  return xmlBlock('testcase', { classname: c.classname, name: c.name, time: 0 }, body, '    ');
}

function requirementCase(r: RequirementResult, ctx: Ctx, classname = r.area): Case {
  const c: Case = { classname, name: `${r.id}: ${r.title}`, out: [] };
  const evidenceText = (x: Finding) => findingText(x, ctx);
  const f = explainingFinding(r);
  if (r.status === 'fail') {
    const failing = problemsOf(r, 'fail');
    const text = (failing.length ? failing : r.findings).map(evidenceText).join('\n\n') || 'failed';
    c.failure = { message: `${causePrefix(r)}${summary(f, `${r.level} requirement failed`)}`, type: r.level, text };
  } else if (r.status === 'skip') {
    c.skipped = `not exercised: ${r.notExercised ? notExercisedText(r.notExercised) : summary(f, 'not exercised by this run')}`;
  } else if (r.status === 'waived') {
    c.skipped = r.waiver ? `waived until ${r.waiver.expires}: ${r.waiver.reason}` : 'waived';
    c.out.push(...r.findings.filter((x) => x.outcome === 'fail' || x.outcome === 'warn').map(evidenceText));
  } else if (r.status === 'warn') {
    c.out.push(`WARNING (${r.level}): ${causePrefix(r)}${summary(f, 'warning')}`, ...problemsOf(r, 'warn').map(evidenceText));
  } else if (r.status === 'observed') {
    c.out.push(`OBSERVED (${r.level}, counted apart from passed)`);
  }
  if (r.observations.length) c.out.push('Observations:', ...r.observations.map((o) => `  - ${o}`));
  return c;
}

function judgementCase(lr: LoadReport, j: Judgement, ctx: { keyVariable: string | undefined; byTitle: ReadonlyMap<string, string> }): Case {
  const evidenceText = (x: Judgement) => evidence(x, ctx.keyVariable);
  const c: Case = { classname: `load.${lr.scenario}.${lr.plan}`, name: `${j.requirement}: ${j.title}`, out: [] };
  const message = `${loadCausePrefix(j, ctx.byTitle)}${oneLine(`${j.title}: ${j.message}`, 300)}`;
  if (j.outcome === 'fail') c.failure = { message, type: 'MUST', text: evidenceText(j) };
  else if (j.outcome === 'skip') c.skipped = `not judged: ${j.message}${j.remedy ? ` — ${remedyText(j.remedy)}` : ''}`;
  else if (j.outcome === 'error') c.skipped = `suite error (not the server's fault): ${j.message}`;
  else c.out.push(j.outcome === 'warn' ? evidenceText(j) : `${j.outcome.toUpperCase()}: ${j.message}`);
  return c;
}

/** The requirements whose testcases are skipped as not exercised: the MUSTs the verdict needs, then the others (with their level). */
function notExercisedProperties(report: RunReport): Xml[] {
  const gaps = notExercisedList(report);
  const named = (n: Gap, level: boolean) => {
    const about = [level ? n.level : '', n.plans.join(', ')].filter(Boolean).join('; ');
    return about ? `${n.id} (${about})` : n.id;
  };
  const others = gaps.filter((n) => !n.decisive);
  return [
    property(
      'notExercised',
      gaps
        .filter((n) => n.decisive)
        .map((n) => named(n, false))
        .join(', '),
    ),
    ...(others.length ? [property('notExercisedOthers', others.map((n) => named(n, true)).join(', '))] : []),
  ];
}

function properties(report: RunReport): Xml[] {
  const k = report.comparison;
  return [
    property('outcome', report.outcome),
    property('headline', headline(report)),
    property('scope', scopeSentence(report)),
    ...notExercisedProperties(report),
    property('observed', report.counts.observed),
    ...causeProperties(report),
    ...(report.diagnosis ? [property('diagnosis', report.diagnosis)] : []),
    ...(k ? [property('newSinceLastRun', k.newProblems.join(', ')), property('fixedSinceLastRun', k.fixed.join(', '))] : []),
    ...(k ? causeChanges(k).map((c) => property(`${c.key}SinceLastRun`, c.text.slice(c.label.length + 2))) : []),
    ...(report.suiteErrors.length ? [property('suiteErrors', report.suiteErrors.length)] : []),
    property('target', report.target.baseUrl),
    property('env', report.target.env),
    ...plansProperties(report),
    property('embedded', report.target.embedded),
    ...(report.suiteName ? [property('suiteName', report.suiteName)] : []),
    property('suiteVersion', report.suiteVersion),
    property('specSha256', report.specSha256),
    property('requestsSent', report.requestsSent),
    ...engineProperties(report),
    property('interrupted', report.interrupted),
    ...(report.abort ? [property('abort', report.abort)] : []),
  ];
}

/** The engine of the rate-limit scenarios, why, and the k6 found: its version and the suite's standing on it. */
function engineProperties(report: RunReport): Xml[] {
  const e = report.engine;
  const text = engineText(report);
  return [
    ...(text ? [property('engine', text)] : []),
    ...(e ? [property('engineReason', engineReason(report))] : []),
    ...(e?.k6?.version ? [property('k6Version', e.k6.version)] : []),
    ...(e?.k6 ? [property('k6Status', e.k6.status)] : []),
  ];
}

/** The plan of a single-plan run; with several: each plan's outcome, how many are certified, and the conformance key. */
function plansProperties(report: RunReport): Xml[] {
  const plans = plansOf(report);
  if (!plans) return [property('plan', report.target.plan ?? 'not given')];
  return [
    property('plans', plans.map((p) => `${p.plan}: ${p.outcome}`).join(', ')),
    property('plansCertified', plansCertified(report, plans)),
    ...(report.conformanceKey ? [property('conformanceKey', report.conformanceKey)] : []),
  ];
}

interface Suite {
  name: string;
  cases: Case[];
  errors: Xml[];
  time: string;
  timestamp: string;
  head: Xml[];
  tail: Xml[];
}

const tally = (cases: Case[]) => ({ failures: cases.filter((c) => c.failure).length, skipped: cases.filter((c) => c.skipped).length });

function suiteXml(s: Suite): Xml {
  const { failures, skipped } = tally(s.cases);
  const tests = s.cases.length + s.errors.length;
  const attrs = { name: s.name, tests, failures, errors: s.errors.length, skipped, time: s.time, timestamp: s.timestamp };
  return xmlBlock('testsuite', attrs, [...s.head, ...s.cases.map(caseXml), ...s.errors, ...s.tail], '  ');
}

/** A suite's properties, one per line. */
const propertiesBlock = (lines: Xml[]): Xml => xmlBlock('properties', {}, lines, '    ');

/** One plan: its rate-limit requirements as this plan saw them, and its outcome, limits and key source. */
function planSuite(report: RunReport, p: PlanResult, ctx: Ctx): Suite {
  const plans = plansOf(report) ?? [p];
  const limits = [
    ...(p.perMinute !== undefined ? [property('perMinute', p.perMinute)] : []),
    ...(p.perDay !== undefined ? [property('perDay', p.perDay)] : []),
  ];
  return {
    name: `animal-store ${report.kind}: plan ${p.plan}`,
    cases: perPlanRequirements(report, plans).map((r) => requirementCase(planRequirement(r, p), ctx, `plan.${p.plan}.${r.area}`)),
    errors: [],
    time: p.load.reduce((sum, lr) => sum + durationSeconds(lr.startedAt, lr.endedAt), 0).toFixed(3),
    timestamp: p.load[0]?.startedAt ?? report.startedAt,
    head: [
      propertiesBlock([
        property('plan', p.plan),
        property('outcome', p.outcome),
        property('headline', planHeadline(report, p)),
        property('keySource', p.keySource),
        ...limits,
        property('failed', planMusts(p, 'fail').join(', ')),
        property('notExercised', p.notExercised.map((n) => n.id).join(', ')),
      ]),
    ],
    tail: [],
  };
}

export function renderJunit(report: RunReport): string {
  const name = `animal-store ${report.kind}`;
  const abort = report.abort
    ? [
        xmlBlock(
          'testcase',
          { classname: 'run', name: 'run completed', time: 0 },
          [xmlElement('error', { message: oneLine(report.abort, 300), type: 'abort' }, [report.abort], '      ')],
          '    ',
        ),
      ]
    : [];
  const out = [...report.notes, ...report.suiteErrors.map((s) => `suite error (not the server's fault): ${s}`)];
  const plans = plansOf(report);
  const byTitle = causeByTitle(report);
  const ctx: Ctx = { keyOf: (f) => replayKeyOf(report, f), causes: new Map((report.causes ?? []).map((c) => [c.id, c])) };
  const key = report.conformanceKey ? `, judged once on the key from ${report.conformanceKey}` : '';
  const suites: Suite[] = [
    {
      name: plans ? `${name}: conformance${key}` : name,
      cases: (plans ? sharedRequirements(report, plans) : report.requirements).map((r) => requirementCase(r, ctx)),
      errors: abort,
      time: durationSeconds(report.startedAt, report.endedAt).toFixed(3),
      timestamp: report.startedAt,
      head: [propertiesBlock(properties(report))],
      tail: out.length ? [xmlElement('system-out', {}, [out.join('\n')], '    ')] : [],
    },
    ...(plans ?? []).map((p) => planSuite(report, p, ctx)),
    ...(report.load ?? []).map((lr) => ({
      name: `load: ${lr.scenario} (${lr.plan}, ${lr.engine} engine)`,
      cases: lr.judgements
        .filter((j) => j.outcome !== 'observe')
        .map((j) => judgementCase(lr, j, { keyVariable: replayKey(report, lr.plan), byTitle })),
      errors: [],
      time: durationSeconds(lr.startedAt, lr.endedAt).toFixed(3),
      timestamp: lr.startedAt,
      head: [xmlElement('properties', {}, [property('verdict', lr.verdict, ''), property('requestsSent', lr.requestsSent, '')], '    ')],
      tail:
        lr.stoppedBecause || lr.notes?.length
          ? [
              xmlElement(
                'system-out',
                {},
                [[lr.stoppedBecause ? `stopped: ${lr.stoppedBecause}` : '', ...(lr.notes ?? [])].filter(Boolean).join('\n')],
                '    ',
              ),
            ]
          : [],
    })),
  ];
  const all = suites.flatMap((s) => s.cases);
  const { failures, skipped } = tally(all);
  const errors = abort.length;
  const time = durationSeconds(report.startedAt, report.endedAt).toFixed(3);
  const attrs = { name, tests: all.length + errors, failures, errors, skipped, time };
  return xmlDocument(xmlBlock('testsuites', attrs, suites.map(suiteXml)));
}
