import { readFileSync, rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { ValidateFunction } from 'ajv';
import schema from '../../schemas/certification.schema.json' with { type: 'json' };
import type { EngineRecord } from '../../src/core/engine-record.ts';
import type { Evidence, HttpExcerpt, Judgement } from '../../src/core/sections/define.ts';
import type { KeyState, LoadReport, TimelinePoint } from '../../src/core/load-report.ts';
import { ajv } from '../../src/schemas/project-ajv.ts';
import type {
  Comparison,
  Finding,
  NotExercised,
  PlanResult,
  Replay,
  ReplayProbe,
  ReplayStep,
  RequirementResult,
  RunReport,
  TargetInfo,
} from '../../src/results/types.ts';
import type { TrafficSummary } from '../../src/results/har-lines.ts';
import { renderJson, writeCertificationJson, writeConformanceJson } from '../../src/results/writers/report-json.ts';
import {
  aborted,
  certifiedReport,
  conformanceOnly,
  failingReport,
  incompleteReport,
  interrupted,
  SECRET_KEY,
  unthrottledReport,
  withoutPlan,
} from '../support/report-fixtures.ts';
import { allPlansCertified, mixedPlans, onePlan } from './plan-fixtures.ts';
import { tempDir } from '../support/temp.ts';

/** Compiled once by the project's Ajv (JSON Schema 2020-12, strict, ajv-formats). */
const validate = (ajv.getSchema(schema.$id) ?? ajv.compile(schema)) as ValidateFunction;
const valid = (data: unknown) => (validate(data) ? 'valid' : ajv.errorsText(validate.errors));

const dir = tempDir('json-writer');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const reports: [string, RunReport][] = [
  ['a certified run', certifiedReport()],
  ['an incomplete run (quick profile)', incompleteReport()],
  ['a not-conformant run with hostile evidence, a waiver, a suite error and a comparison', failingReport()],
  ['a run whose ceiling got no 429', unthrottledReport()],
  ['an interrupted run', interrupted(certifiedReport())],
  ['an aborted run', aborted(failingReport())],
  ['a conformance-only run without load reports', conformanceOnly(certifiedReport())],
  ['a run whose plan was not given', withoutPlan(incompleteReport())],
  ['a run that certified four plans', allPlansCertified()],
  ['a run over four plans with every plan outcome', mixedPlans()],
  ['a single-plan run that carries its plan in plans', onePlan().withPlans],
  [
    'a run on the embedded server’s short world, with the daily scenario’s own key and the machine measured',
    {
      ...certifiedReport(),
      target: {
        env: 'embedded',
        baseUrl: 'http://127.0.0.1:4010',
        plan: 'pro',
        embedded: true,
        world: {
          windowMs: 1000,
          dayMs: 20_000,
          perDay: { pro: 10_000 },
          dailyKeyPerDay: { pro: 600 },
          machine: { measuredPerS: 900, ms: 1500, inFlight: 16, windowRatePerS: 300 },
        },
      },
    },
  ],
  [
    'a run with its traffic file',
    { ...certifiedReport(), traffic: { file: 'traffic.har', entries: 412, pages: 30, omitted: 0, truncated: 3 } },
  ],
];

describe('certification.json and conformance.json', () => {
  it.each(reports)('The JSON of %s validates against schemas/certification.schema.json.', (_name, report) => {
    expect(valid(JSON.parse(renderJson(report)))).toBe('valid');
  });

  it('A run over several plans keeps each plan’s result and the conformance key, and names no key, only where each came from.', () => {
    const json = JSON.parse(renderJson(mixedPlans()));
    expect(json.conformanceKey).toBe('ANIMAL_STORE_API_KEY_PRO');
    expect(json.plans.map((p: PlanResult) => [p.plan, p.outcome, p.keySource])).toEqual([
      ['free', 'certified', 'ANIMAL_STORE_API_KEY_FREE'],
      ['pro', 'incomplete', 'ANIMAL_STORE_API_KEY_PRO'],
      ['business', 'not-conformant', 'ANIMAL_STORE_API_KEY_BUSINESS'],
      ['enterprise', 'incomplete', 'ANIMAL_STORE_API_KEY_ENTERPRISE'],
    ]);
    expect(json.outcome).toBe('not-conformant');
  });

  it('The fixtures exercise every part of the schema: outcomes, observed, not exercised, comparison, diagnosis, suite errors and load evidence.', () => {
    const failing = failingReport();
    expect(new Set(reports.map(([, r]) => r.outcome))).toEqual(new Set(['certified', 'incomplete', 'not-conformant']));
    expect(failing.counts.observed).toBeGreaterThan(0);
    expect(incompleteReport().notExercised.length).toBeGreaterThan(0);
    expect(failing.comparison?.newProblems.length).toBeGreaterThan(0);
    expect(failing.diagnosis).toBeTruthy();
    expect(failing.suiteErrors.length).toBeGreaterThan(0);
    expect(failing.load?.[0].judgements.some((j) => j.evidence?.at)).toBe(true);
    expect(failing.load?.[0].timeline.every((p) => p.seq !== undefined)).toBe(true);
  });

  it('Both writers write the same content, which parses back to the report.', () => {
    const report = failingReport();
    const cert = readFileSync(writeCertificationJson(report, dir), 'utf8');
    const conf = readFileSync(writeConformanceJson(report, dir), 'utf8');
    expect(cert).toBe(conf);
    expect(JSON.parse(cert)).toEqual(JSON.parse(JSON.stringify(report)));
  });

  it('A redactor given to the writer removes the key from the file.', () => {
    const text = readFileSync(
      writeCertificationJson(failingReport(), dir, (s) => s.replaceAll(SECRET_KEY, '[REDACTED]')),
      'utf8',
    );
    expect(text).not.toContain(SECRET_KEY);
    expect(text).toContain('[REDACTED]');
  });

  const broken: [string, (r: Record<string, any>) => void][] = [
    ['the outcome is missing', (r) => delete r.outcome],
    ['the outcome is the old pass/fail verdict', (r) => (r.outcome = 'pass')],
    ['the old verdict field appears', (r) => (r.verdict = 'pass')],
    ['a requirement has an unknown status', (r) => (r.requirements[0].status = 'ok')],
    ['the observed count is missing', (r) => delete r.counts.observed],
    ['a not-exercised entry has no reason', (r) => (r.notExercised = [{ id: 'RL-DAILY-QUOTA', title: 'x' }])],
    ['the suite errors are missing', (r) => delete r.suiteErrors],
    ['the spec hash is not 64 hex digits', (r) => (r.specSha256 = 'abc')],
    ['a count is negative', (r) => (r.counts.pass = -1)],
    ['a load report has the old verdicts list', (r) => (r.load[0].verdicts = [])],
    ['a load report has no key state', (r) => delete r.load[0].key],
    ['a load verdict is unknown', (r) => (r.load[0].verdict = 'ok')],
    ['a timeline point has a status that is not an integer', (r) => (r.load[0].timeline[0].status = '200')],
    [
      'evidence points at request 0 (requests are numbered from 1)',
      (r) => (r.load[0].judgements[0].evidence = { at: { request: 0, ms: 0 } }),
    ],
    [
      'a request excerpt has an unknown credential kind',
      (r) => (r.requirements[0].findings[0].evidence = { request: { headers: {}, credential: 'secret' } }),
    ],
    ['a waiver has a malformed expiry', (r) => (r.requirements[0].waiver = { reason: 'x', expires: '31/12/2099' })],
    ['the comparison has no baseline', (r) => (r.comparison = { newProblems: [], fixed: [], stillFailing: [], flapping: [] })],
    ['an unknown top-level field appears', (r) => (r.apiKey = 'secret')],
    [
      'the traffic summary counts a negative number of entries',
      (r) => (r.traffic = { file: 'traffic.har', entries: -1, pages: 0, omitted: 0, truncated: 0 }),
    ],
    [
      'the traffic summary does not say how many requests it left out',
      (r) => (r.traffic = { file: 'traffic.har', entries: 1, pages: 1, truncated: 0 }),
    ],
  ];
  it.each(broken)('The schema rejects a report in which %s.', (_name, mutate) => {
    const r = JSON.parse(renderJson(incompleteReport()));
    mutate(r);
    expect(valid(r)).not.toBe('valid');
  });

  const brokenPlans: [string, (r: Record<string, any>) => void][] = [
    ['a plan is not a plan of the spec', (r) => (r.plans[0].plan = 'gold')],
    ['a plan’s key source is the key itself', (r) => (r.plans[0].keySource = SECRET_KEY)],
    ['the conformance key is the key itself', (r) => (r.conformanceKey = SECRET_KEY)],
    ['a plan has no outcome', (r) => delete r.plans[1].outcome],
    ['a plan’s outcome is the old pass/fail verdict', (r) => (r.plans[1].outcome = 'pass')],
    ['a plan requirement has an unknown status', (r) => (r.plans[2].requirements[0].status = 'ok')],
    ['a plan requirement carries a field of the full requirement', (r) => (r.plans[2].requirements[0].findings = [])],
    ['a plan’s limit is not a whole number', (r) => (r.plans[0].perMinute = 60.5)],
    ['a plan has no load reports list', (r) => delete r.plans[3].load],
    ['the plans list is empty', (r) => (r.plans = [])],
  ];
  it.each(brokenPlans)('The schema rejects a run over several plans in which %s.', (_name, mutate) => {
    const r = JSON.parse(renderJson(mixedPlans()));
    mutate(r);
    expect(valid(r)).not.toBe('valid');
  });

  const describedEverywhere = (node: unknown, path: string, out: string[]): string[] => {
    if (Array.isArray(node) || node === null || typeof node !== 'object') return out;
    const o = node as Record<string, unknown>;
    if (o.properties && typeof o.properties === 'object')
      for (const [k, v] of Object.entries(o.properties as Record<string, Record<string, unknown>>))
        if (!v.description && !v.$ref) out.push(`${path}.${k}`);
    for (const [k, v] of Object.entries(o)) describedEverywhere(v, `${path}.${k}`, out);
    return out;
  };
  it('Every property in the schema is documented (a description, or a reference to a documented definition).', () => {
    expect(describedEverywhere(schema, '#', [])).toEqual([]);
  });
});

/** The keys a type requires (not optional). */
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
/** True when both key sets are the same (checked by tsc). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** The required keys of T as a sorted list; the object literal must name each exactly once (checked by tsc). */
const requiredOf = <T>(keys: Record<RequiredKeys<T>, true>) => Object.keys(keys).sort();

const defs = schema.$defs;
describe('the schema describes the RunReport of src/results/types.ts exactly', () => {
  it('Every object of the report has the same properties in the schema as in its TypeScript type (checked by tsc).', () => {
    const same: Record<string, true> = {
      report: true satisfies Same<keyof typeof schema.properties, keyof RunReport>,
      target: true satisfies Same<keyof typeof defs.target.properties, keyof TargetInfo>,
      requirement: true satisfies Same<keyof typeof defs.requirement.properties, keyof RequirementResult>,
      finding: true satisfies Same<keyof typeof defs.finding.properties, keyof Finding>,
      judgement: true satisfies Same<keyof typeof defs.judgement.properties, keyof Judgement>,
      evidence: true satisfies Same<keyof typeof defs.evidence.properties, keyof Evidence>,
      httpExcerpt: true satisfies Same<keyof typeof defs.httpExcerpt.properties, keyof HttpExcerpt>,
      notExercised: true satisfies Same<keyof typeof defs.notExercised.properties, keyof RunReport['notExercised'][number]>,
      comparison: true satisfies Same<keyof typeof defs.comparison.properties, keyof Comparison>,
      loadReport: true satisfies Same<keyof typeof defs.loadReport.properties, keyof LoadReport>,
      timelinePoint: true satisfies Same<keyof typeof defs.timelinePoint.properties, keyof TimelinePoint>,
      keyState: true satisfies Same<keyof typeof defs.keyState.properties, keyof KeyState>,
      planResult: true satisfies Same<keyof typeof defs.planResult.properties, keyof PlanResult>,
      planRequirement: true satisfies Same<keyof typeof defs.planRequirement.properties, keyof PlanResult['requirements'][number]>,
      replay: true satisfies Same<keyof typeof defs.replay.properties, keyof Replay>,
      replayProbe: true satisfies Same<keyof typeof defs.replayProbe.properties, keyof ReplayProbe>,
      replayStep: true satisfies Same<keyof typeof defs.replayStep.properties, keyof ReplayStep>,
      engine: true satisfies Same<keyof typeof defs.engine.properties, keyof EngineRecord>,
      k6: true satisfies Same<keyof typeof defs.engine.properties.k6.properties, keyof NonNullable<EngineRecord['k6']>>,
      traffic: true satisfies Same<keyof typeof defs.traffic.properties, keyof TrafficSummary>,
    };
    expect(Object.values(same).every(Boolean)).toBe(true);
  });

  const required: [string, string[], string[]][] = [
    [
      'the report',
      schema.required,
      requiredOf<RunReport>({
        kind: true,
        suiteVersion: true,
        specSha256: true,
        target: true,
        startedAt: true,
        endedAt: true,
        interrupted: true,
        outcome: true,
        counts: true,
        notExercised: true,
        requestsSent: true,
        requirements: true,
        suiteErrors: true,
        notes: true,
      }),
    ],
    ['the target', defs.target.required, requiredOf<TargetInfo>({ env: true, baseUrl: true, embedded: true })],
    ['a not-exercised entry', defs.notExercised.required, requiredOf<NotExercised>({ id: true, title: true, reason: true })],
    [
      'a load report',
      defs.loadReport.required,
      requiredOf<LoadReport>({
        scenario: true,
        plan: true,
        engine: true,
        target: true,
        startedAt: true,
        endedAt: true,
        verdict: true,
        requestsSent: true,
        judgements: true,
        timeline: true,
        key: true,
      }),
    ],
    ['a judgement', defs.judgement.required, requiredOf<Judgement>({ requirement: true, outcome: true, title: true, message: true })],
    ['a timeline point', defs.timelinePoint.required, requiredOf<TimelinePoint>({ t: true, status: true })],
    [
      'a plan',
      defs.planResult.required,
      requiredOf<PlanResult>({
        plan: true,
        keySource: true,
        outcome: true,
        counts: true,
        notExercised: true,
        requirements: true,
        load: true,
      }),
    ],
    [
      'the traffic summary',
      defs.traffic.required,
      requiredOf<TrafficSummary>({ file: true, entries: true, pages: true, omitted: true, truncated: true }),
    ],
    [
      'a plan’s requirement',
      defs.planRequirement.required,
      requiredOf<PlanResult['requirements'][number]>({ id: true, level: true, status: true }),
    ],
    ['the engine', defs.engine.required, requiredOf<EngineRecord>({ name: true, requested: true, reason: true })],
    ['the k6 found', defs.engine.properties.k6.required, requiredOf<NonNullable<EngineRecord['k6']>>({ status: true, verifiedOn: true })],
  ];
  it.each(required)('The schema requires exactly the fields the type requires, for %s.', (_name, inSchema, inType) => {
    expect([...inSchema].sort()).toEqual(inType);
  });
});
