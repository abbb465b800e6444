/**
 * Helpers shared by the report writers, so that every writer says the same
 * thing: the headline and tone of a run (certified / incomplete / not
 * conformant), its scope sentence, status labels, the finding that explains a
 * status, one-line evidence, the order of statuses and areas, grouping, and
 * escaping for HTML/XML.
 *
 * Everything a writer prints may come from a hostile server (bodies, headers,
 * messages), so every string goes through `escapeXml` (HTML, SVG, JUnit) or the
 * Markdown escaper of markdown.ts.
 */
import { visible } from '../../core/visible.ts';
import type { Evidence, Finding, Level, NotExercised, PlanResult, RequirementResult, RunReport, Status } from '../types.ts';

export const STATUSES: readonly Status[] = ['fail', 'warn', 'waived', 'skip', 'pass', 'observed'];
export const LEVELS: readonly Level[] = ['MUST', 'SHOULD', 'INFO', 'ADVISORY'];

/** Display order of the catalogue areas; an area not listed comes after, alphabetically. */
export const AREA_ORDER: readonly string[] = [
  'transport',
  'responses',
  'auth',
  'listPets',
  'createPet',
  'getPet',
  'deprecation',
  'rate-limit-headers',
  'rate-limit-load',
  'versioning',
  'hygiene',
];

export const AREA_TITLES: Readonly<Record<string, string>> = {
  transport: 'Transport',
  responses: 'Every response',
  auth: 'Authentication',
  listPets: 'GET /pets (listPets)',
  createPet: 'POST /pets (createPet)',
  getPet: 'GET /pets/{petId} (getPet)',
  deprecation: 'Deprecation',
  'rate-limit-headers': 'Rate-limit headers',
  'rate-limit-load': 'Rate limits under load',
  versioning: 'Versioning',
  hygiene: 'Hygiene and security (not required by the spec: warns, never fails)',
};

export type Headline =
  'CERTIFIED' | 'CONFORMANT' | 'PASSED, INCOMPLETE' | 'NOT CONFORMANT' | 'INTERRUPTED' | 'STOPPED EARLY' | 'KEY REFUSED';

/**
 * What the run proves, in words. Only a complete run whose every MUST
 * requirement in scope was exercised and passed is CERTIFIED (a conformance-only
 * run: CONFORMANT); a run that passed what it exercised but left MUST
 * requirements out is PASSED, INCOMPLETE — never the certified wording. A run
 * whose key was refused (exit 5) is KEY REFUSED: no conformance verdict.
 */
export function headline(report: RunReport): Headline {
  if (report.interrupted) return 'INTERRUPTED';
  if (report.keyRefused) return 'KEY REFUSED';
  if (report.outcome === 'not-conformant') return 'NOT CONFORMANT';
  if (report.abort) return 'STOPPED EARLY';
  if (report.outcome === 'incomplete') return 'PASSED, INCOMPLETE';
  return report.kind === 'certification' ? 'CERTIFIED' : 'CONFORMANT';
}

/** True only for a certified run: the certificate's wording, colour and ✅. */
/** The embedded server's short world in words ("a 1 s window, a 20 s quota day, pro 3300 a day"); undefined for a real target. */
export function worldText(t: RunReport['target']): string | undefined {
  const w = t.world;
  if (!w) return undefined;
  const s = (ms: number) => `${Math.round(ms / 100) / 10} s`;
  const daily = w.dailyKeyPerDay ?? {};
  const quotas = Object.entries(w.perDay).map(
    ([plan, n]) => `${plan} ${n} a day${daily[plan] !== undefined ? ` (${daily[plan]} on the daily scenario's own key)` : ''}`,
  );
  return [`a ${s(w.windowMs)} window`, `a ${s(w.dayMs)} quota day`, ...quotas].join(', ');
}

/** The embedded server as every writer names it: "embedded reference server" and, when known, its short world. */
export function embeddedLabel(t: RunReport['target']): string {
  const world = worldText(t);
  return world ? `embedded reference server, short world: ${world}` : 'embedded reference server';
}

/**
 * The engine of the rate-limit scenarios as every writer names it: "k6 engine (k6 v2.2.0)", "k6 engine (k6 v2.3.0,
 * not yet verified: the suite is verified on k6 v1.0.0 to v2.2.x)", "node engine"; undefined when none ran.
 */
export function engineText(report: RunReport): string | undefined {
  const e = report.engine;
  if (!e) {
    const engines = [...new Set((report.load ?? []).map((l) => l.engine))];
    return engines.length ? `${engines.join(' and ')} engine` : undefined;
  }
  if (e.name !== 'k6' || !e.k6?.version) return `${e.name} engine`;
  const v = `k6 v${e.k6.version}`;
  return e.k6.status === 'unverified'
    ? `k6 engine (${v}, not yet verified: the suite is verified on ${e.k6.verifiedOn})`
    : `k6 engine (${v})`;
}

/** Why the run took its engine, as the console printed it before the scenarios ("--engine auto: no k6 on PATH…"). */
export function engineReason(report: RunReport): string | undefined {
  return report.engine && `--engine ${report.engine.requested}: ${report.engine.reason}`;
}

/** The environment as a reader names it: a base URL given without --env is no "local" run. */
export function envLabel(t: RunReport['target']): string {
  return t.env === 'local' && !t.embedded ? 'base URL' : t.env;
}

export function isCertified(report: RunReport): boolean {
  return report.outcome === 'certified' && !report.interrupted && !report.abort;
}

/** The colour of a run in every writer: green only when certified, red when not conformant, amber otherwise. */
export type Tone = 'certified' | 'incomplete' | 'not-conformant';

export function toneOf(report: RunReport): Tone {
  return isCertified(report) ? 'certified' : report.outcome === 'not-conformant' ? 'not-conformant' : 'incomplete';
}

/**
 * The plans of a run that certified several at once (a key per plan); undefined
 * for a run of one plan (one entry or none), which every writer shows as before.
 */
export function plansOf(report: RunReport): PlanResult[] | undefined {
  return report.plans && report.plans.length > 1 ? report.plans : undefined;
}

/** A plan's headline and tone, by the certificate's rules: an interrupted or stopped run certifies no plan. */
export const planHeadline = (report: RunReport, p: PlanResult): Headline => headline({ ...report, outcome: p.outcome });
export const planTone = (report: RunReport, p: PlanResult): Tone => toneOf({ ...report, outcome: p.outcome });

/** "4 plans certified" when every plan is, else "3 of 4 plans certified". */
export function plansCertified(report: RunReport, plans: readonly PlanResult[]): string {
  const n = plans.filter((p) => planTone(report, p) === 'certified').length;
  return n === plans.length ? `${n} plans certified` : `${n} of ${plans.length} plans certified`;
}

/** The icon of a tone (summary.md, console): ✅ only for a certified run. */
export const TONE_ICON: Readonly<Record<Tone, string>> = { certified: '✅', incomplete: '🟡', 'not-conformant': '❌' };

/** What a status is called in every writer. INFO observations are "observed", never "passed". */
export const STATUS_LABEL: Readonly<Record<Status, string>> = {
  pass: 'passed',
  fail: 'failed',
  warn: 'warned',
  skip: 'not exercised',
  waived: 'waived',
  observed: 'observed',
};

/** The parts of a run-to-run comparison, in the order every writer shows them: what is new first. */
export const COMPARISON_PARTS: readonly { key: 'newProblems' | 'fixed' | 'stillFailing' | 'flapping'; label: string }[] = [
  { key: 'newProblems', label: 'New since the last run' },
  { key: 'fixed', label: 'Fixed since the last run' },
  { key: 'stillFailing', label: 'Still failing' },
  { key: 'flapping', label: 'Flapping' },
];

/** "To exercise it: …", the remedy of a requirement that was not exercised. */
export function remedyText(remedy: string | undefined): string {
  return remedy ? `To exercise it: ${remedy}` : '';
}

/** Why a requirement was not exercised, and what would exercise it, in one line. */
export function notExercisedText(n: Pick<NotExercised, 'reason' | 'remedy'>): string {
  return n.remedy ? `${n.reason} — ${remedyText(n.remedy)}` : n.reason;
}

export function areaTitle(area: string): string {
  return AREA_TITLES[area] ?? area;
}

export function groupByArea(reqs: readonly RequirementResult[]): { area: string; requirements: RequirementResult[] }[] {
  const groups = new Map<string, RequirementResult[]>();
  for (const r of reqs) {
    const list = groups.get(r.area);
    if (list) list.push(r);
    else groups.set(r.area, [r]);
  }
  const rank = (a: string) => {
    const i = AREA_ORDER.indexOf(a);
    return i < 0 ? AREA_ORDER.length : i;
  };
  return [...groups.keys()]
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
    .map((area) => ({ area, requirements: groups.get(area)! }));
}

/** MUST requirements whose failure decides the verdict. */
export function failedMusts(report: RunReport): RequirementResult[] {
  return report.requirements.filter((r) => r.level === 'MUST' && r.status === 'fail');
}

/** The finding that explains a requirement's status: its failure, its warning, what a waiver covers, else a pass. */
export function explainingFinding(r: RequirementResult): Finding | undefined {
  const wanted: Finding['outcome'][] =
    r.status === 'fail'
      ? ['fail']
      : r.status === 'warn'
        ? ['warn', 'fail']
        : r.status === 'waived'
          ? ['fail', 'warn']
          : r.status === 'skip'
            ? ['error', 'skip']
            : r.status === 'pass'
              ? ['pass']
              : [];
  for (const o of wanted) {
    const f = r.findings.find((x) => x.outcome === o && x.evidence) ?? r.findings.find((x) => x.outcome === o);
    if (f) return f;
  }
  return undefined;
}

/** One line saying why a requirement has its status. */
export function reasonOf(r: RequirementResult): string {
  if (r.status === 'waived' && r.waiver) return `waived until ${r.waiver.expires}: ${r.waiver.reason}`;
  if (r.status === 'skip') return r.notExercised ? notExercisedText(r.notExercised) : 'not exercised by this run';
  if (r.status === 'observed') return r.observations[0] ?? 'observed';
  const f = explainingFinding(r);
  if (!f) return '';
  return f.message ? `${f.title}: ${f.message}` : f.title;
}

/** What a request/response excerpt shows, in one line: "GET url → HTTP 200; expected …; actual …". */
export function evidenceLine(ev: Evidence | undefined): string {
  if (!ev) return '';
  const parts: string[] = [];
  const req = ev.request ? `${ev.request.method ?? 'GET'} ${ev.request.url ?? ''}`.trim() : '';
  const res = ev.response ? `HTTP ${ev.response.status ?? '(no status)'}` : ev.error ? `no response (${ev.error})` : '';
  if (req || res) parts.push([req, res].filter(Boolean).join(' → '));
  if (ev.at) parts.push(`request #${ev.at.request} at ${(ev.at.ms / 1000).toFixed(2)} s`);
  if (ev.expected !== undefined) parts.push(`expected ${ev.expected}`);
  if (ev.actual !== undefined) parts.push(`actual ${ev.actual}`);
  return parts.join('; ');
}

export { escapeAttr, escapeXml, stripInvalidXml } from '../../core/xml.ts';

/** `YYYY-MM-DD` of an ISO timestamp (or the input when it is not a date). */
export function dateOf(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? String(iso) : d.toISOString().slice(0, 10);
}

/** `YYYY-MM-DD HH:MM:SS UTC` of an ISO timestamp. */
export function dateTimeOf(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? String(iso) : `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** Duration between two ISO timestamps, in seconds (0 when unknown). */
export function durationSeconds(from: string, to: string): number {
  const ms = new Date(to).getTime() - new Date(from).getTime();
  return Number.isFinite(ms) && ms > 0 ? ms / 1000 : 0;
}

export function truncate(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, Math.max(0, max - 1))}…`;
}

/** A one-line version of a possibly multi-line text, its invisible and reordering characters made visible first. */
export function oneLine(s: string, max = 200): string {
  return truncate(visible(s).replace(/\s+/g, ' ').trim(), max);
}

export const MUST_WAIVERS_NOTE_PREFIX = 'MUST waivers allowed';

/** Whether the run was made with --allow-must-waivers (recorded by applyWaivers as a note). */
export function mustWaiversAllowed(report: RunReport): boolean {
  return report.notes.some((n) => n.startsWith(MUST_WAIVERS_NOTE_PREFIX));
}
