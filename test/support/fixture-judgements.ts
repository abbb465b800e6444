/**
 * Judgements as report fixtures: the writers are tested with titles and messages of any text (a hostile server's,
 * markup, control characters), which the sections' constructors — titles from the catalogue only — do not build.
 * Never used by the suite itself: every rule judges through its section (src/core/sections/<section>/requirements.ts).
 */
import { levelOf, type RequirementId } from '../../src/core/catalogue.ts';
import type { Evidence, Judgement } from '../../src/core/sections/define.ts';

/** `ok` → pass; otherwise fail (MUST) or warn (any other level), as the catalogue says. */
export function judge(requirement: RequirementId, ok: boolean, title: string, message: string): Judgement {
  return { requirement, outcome: ok ? 'pass' : levelOf(requirement) === 'MUST' ? 'fail' : 'warn', title, message };
}

/** A judgement with its evidence. */
export const withEvidence = (j: Judgement, evidence: Evidence): Judgement => ({ ...j, evidence });

export function skip(requirement: RequirementId, title: string, message: string, remedy?: string): Judgement {
  return remedy ? { requirement, outcome: 'skip', title, message, remedy } : { requirement, outcome: 'skip', title, message };
}

export function observe(requirement: RequirementId, title: string, message: string): Judgement {
  return { requirement, outcome: 'observe', title, message };
}

export function suiteError(requirement: RequirementId, title: string, message: string): Judgement {
  return { requirement, outcome: 'error', title, message };
}
