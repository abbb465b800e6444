/**
 * The scope sentence every writer puts under its headline (console, summary.md,
 * JUnit, the HTML banner): what the run exercised and, when it certifies
 * nothing, why — MUSTs not exercised, warned or waived; a refused key; an
 * interrupted or stopped run; on each plan, when there are several.
 */
import type { PlanResult, RunReport, Status } from '../types.ts';
import { failedMusts, plansCertified, plansOf, planTone } from './common.ts';
import { causesVerdict, failingCausesText, warningCausesText } from './causes.ts';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const planNames = (plans: readonly PlanResult[]) => plans.map((p) => p.plan).join(', ');
/** "a", "a and b", "a, b and c". */
const listed = (parts: readonly string[]) =>
  parts.length < 2 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;

/**
 * What keeps a run in which no MUST failed from being certified, besides MUSTs not exercised: MUSTs that warned
 * (the server departed from the spec's letter in a way clients commonly accept, e.g. application/problem+json
 * errors under RESP-CONTENT-TYPE-JSON) and MUSTs waived.
 */
function otherMustGaps(report: RunReport): string[] {
  const musts = (status: Status) => report.requirements.filter((r) => r.level === 'MUST' && r.status === status).map((r) => r.id);
  const warned = musts('warn');
  const waived = musts('waived').length;
  const ids = warned.length > 3 ? `${warned.slice(0, 3).join(', ')}, …` : warned.join(', ');
  return [
    warned.length ? `${plural(warned.length, 'MUST requirement', 'MUST requirements')} warned (${ids})` : '',
    waived ? `${plural(waived, 'MUST requirement was', 'MUST requirements were')} waived` : '',
  ].filter(Boolean);
}

/** The scope sentence of a run over several plans: which plans failed or left MUSTs out, and how many are certified. */
function plansScope(report: RunReport, plans: readonly PlanResult[]): string {
  const certified = plans.filter((p) => planTone(report, p) === 'certified');
  const tally = `${plansCertified(report, plans)}${certified.length && certified.length < plans.length ? ` (${planNames(certified)})` : ''}`;
  if (report.outcome === 'not-conformant') {
    const bad = plans.filter((p) => p.outcome === 'not-conformant');
    const on = bad.length === plans.length ? 'every plan' : planNames(bad);
    const failed = failingCausesText(report) ?? `${plural(failedMusts(report).length, 'MUST requirement', 'MUST requirements')} failed`;
    return `${failed}, on ${on}; ${tally}.`;
  }
  if (report.outcome === 'incomplete') {
    const gaps = plans.filter((p) => p.notExercised.length).map((p) => `${p.plan} (${p.notExercised.length})`);
    const parts = [gaps.length ? `MUST requirements were not exercised on ${gaps.join(', ')}` : '', ...otherMustGaps(report)].filter(
      Boolean,
    );
    return `No MUST requirement failed, but ${listed(parts) || 'not every plan completed'}: ${tally}.`;
  }
  const musts = report.requirements.filter((r) => r.level === 'MUST').length;
  return `Every one of the ${musts} MUST requirements of the Animal Store specification was exercised and passed on each of the ${plans.length} plans (${planNames(plans)}).`;
}

/**
 * One sentence under the headline: what was and was not exercised (on each plan, when there are several), and the
 * causes found: "3 causes break 11 MUST requirements; 1 cause raises 2 warnings."
 */
export function scopeSentence(report: RunReport): string {
  const base = scopeOnly(report);
  if (report.interrupted || report.keyRefused || report.outcome === 'not-conformant') return base;
  const warned = report.causes ? warningCausesText(report) : undefined;
  return warned ? `${base} ${warned.charAt(0).toUpperCase()}${warned.slice(1)}.` : base;
}

function scopeOnly(report: RunReport): string {
  const n = report.notExercised.length;
  const musts = report.requirements.filter((r) => r.level === 'MUST').length;
  const plans = plansOf(report);
  if (report.interrupted) return 'The run was interrupted before every test ran; the results below are partial and certify nothing.';
  if (report.keyRefused)
    return 'The API key was refused (every authenticated request was answered 401): the run stopped before judging the server, so this is no conformance verdict.';
  if (plans && (report.outcome === 'not-conformant' || !report.abort)) return plansScope(report, plans);
  if (report.outcome === 'not-conformant') {
    const f = report.requirements.filter((r) => r.level === 'MUST' && r.status === 'fail').length;
    return `${causesVerdict(report) ?? `${f} MUST requirement${f === 1 ? '' : 's'} failed`}.`;
  }
  if (report.abort) return `The run stopped early (${report.abort}); no MUST failed in what it exercised, and it certifies nothing.`;
  if (report.outcome === 'incomplete') {
    const parts = [n ? `${plural(n, 'MUST requirement was', 'MUST requirements were')} not exercised` : '', ...otherMustGaps(report)];
    const why = listed(parts.filter(Boolean)) || 'not every MUST requirement passed';
    return `No MUST requirement failed, but ${why}: this run does not certify the server.`;
  }
  return report.kind === 'certification'
    ? `Every one of the ${musts} MUST requirements of the Animal Store specification was exercised and passed.`
    : 'Every MUST requirement of the conformance specs was exercised and passed.';
}
