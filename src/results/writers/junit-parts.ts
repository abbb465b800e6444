/**
 * Parts of junit.xml (junit.ts): a property element; a finding's evidence as text (its replay, expected and actual,
 * the request and response, a curl line); and the causes — each once: a failure's message names its cause, a
 * consequence's text names the cause and the testcase that holds its evidence instead of repeating it, and the
 * properties list every cause with the requirements it breaks.
 */
import type { Judgement } from '../../core/sections/define.ts';
import { xmlElement, type Xml } from '../../core/xml.ts';
import type { CauseResult, Finding, Replay, RequirementResult, RunReport } from '../types.ts';
import { oneLine } from './common.ts';
import { causeRefText, causeRequirementsText, causesVerdict, shownCauses } from './causes.ts';
import { curlOf } from './curl.ts';
import { replayLines } from './replay.ts';

/** A judgement's evidence as text; its curl line reads the key from `keyVariable` (see replayKey). */
export function evidence(f: Judgement & { source?: string; replay?: Replay }, keyVariable?: string): string {
  const lines = [`[${f.outcome}] ${f.title}: ${f.message}`];
  if (f.source) lines.push(`  source: ${f.source}`);
  for (const l of replayLines(f.replay, keyVariable)) lines.push(`  ${l}`);
  const e = f.evidence;
  if (e?.at) lines.push(`  at: request #${e.at.request}, ${(e.at.ms / 1000).toFixed(2)} s after the scenario started`);
  if (e?.expected !== undefined) lines.push(`  expected: ${e.expected}`);
  if (e?.actual !== undefined) lines.push(`  actual: ${e.actual}`);
  if (e?.request) lines.push(`  request: ${e.request.method ?? 'GET'} ${e.request.url ?? ''}`.trimEnd());
  if (e?.response) {
    lines.push(`  response: ${e.response.status ?? '(no status)'}`);
    const body = e.response.body;
    if (body) lines.push(`  body: ${oneLine(body, 500)}${e.response.bodyTruncated ? ' (truncated)' : ''}`);
  }
  if (e?.error) lines.push(`  error: ${e.error}`);
  const curl = curlOf(e, keyVariable, f.requirement);
  if (curl) lines.push(`  replay: ${curl}`);
  return lines.join('\n');
}

export function property(name: string, value: string | number | boolean | undefined, indent = '      '): Xml {
  return xmlElement('property', { name, value }, [], indent);
}

/** What a requirement's testcase reads of the report: where a replayed request reads its key from, and the causes. */
export interface Ctx {
  keyOf: (f: Finding) => string | undefined;
  causes: ReadonlyMap<string, CauseResult>;
}

/**
 * A finding's evidence, or — for a consequence of a cause whose primary is another requirement's — one line naming
 * the cause and the testcase that holds its evidence (each cause's evidence is written once).
 */
export function findingText(x: Finding, ctx: Ctx): string {
  const cause = x.cause?.id ? ctx.causes.get(x.cause.id) : undefined;
  if (cause && x.cause?.consequence && cause.primary.requirement !== x.requirement)
    return `[${x.outcome}] ${x.title}: ${x.message}\n  consequence of cause ${cause.id} (${cause.title}): its evidence is under ${cause.primary.requirement}`;
  return evidence(x, ctx.keyOf(x));
}

/** The cause of each requirement and title the report's findings show (a load judgement is found by them). */
export function causeByTitle(report: RunReport): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of report.requirements.flatMap((r) => r.findings))
    if (f.cause?.id && !out.has(`${f.requirement} · ${f.title}`)) out.set(`${f.requirement} · ${f.title}`, f.cause.id);
  return out;
}

/** "[cause C-1A2B3C4D] " before a load judgement's failure: the cause its requirement and title were grouped into. */
export function loadCausePrefix(j: Judgement, byTitle: ReadonlyMap<string, string>): string {
  const id = byTitle.get(`${j.requirement} · ${j.title}`);
  return id ? `[cause ${id}] ` : '';
}

/** "[cause C-1A2B3C4D] " before a failure's message: the cause it belongs to. */
export const causePrefix = (r: RequirementResult) => {
  const text = causeRefText(r);
  return text ? `[${text}] ` : '';
};

/**
 * The causes, each once (its evidence is in the failure of its primary requirement's testcase): how many, and per
 * cause its title and the requirements it breaks.
 */
export function causeProperties(report: RunReport): Xml[] {
  if (!report.causes) return [];
  return [
    property('causes', causesVerdict(report) ?? 'none'),
    ...shownCauses(report).map((c) => property(`cause.${c.id}`, `${c.status}: ${c.title} — breaks ${causeRequirementsText(c)}`)),
  ];
}
