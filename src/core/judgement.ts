/**
 * The one judgement type: what every rule, response check, spec test and load
 * scenario says about one requirement. Conformance findings, load reports and
 * every report writer carry exactly this shape (plus where it came from).
 *
 * A violated requirement is judged by its catalogue level: MUST → `fail`,
 * SHOULD, INFO or ADVISORY → `warn`. `skip` says it could not be judged (and why, and how
 * to make a run judge it); `observe` records a fact the spec leaves "not shown";
 * `error` is a defect of the suite itself (a crashing check, a spec bug): it
 * never blames the server, and the requirement counts as not exercised.
 *
 * Pure module (bundled for k6): no Node built-ins, no timers.
 */
import { levelOf, type Level } from './catalogue.ts';

export type { Level };

export type { Evidence, HttpExcerpt, Judgement, Outcome } from './spec/define.ts';
import type { Evidence, Judgement, Outcome } from './spec/define.ts';

/**
 * What a rule claims of one requirement: whether it holds, the stable title either way, the message, and (shown with a
 * failure) what was expected and what came instead. `verdict` turns it into the judgement.
 */
export interface Claim {
  requirement: string;
  ok: boolean;
  /** Title when the requirement holds. */
  pass: string;
  /** Stable title of the failure (it names what was found, never a value: it is the finding's signature). */
  fail: string;
  message: string;
  evidence?: Pick<Evidence, 'expected' | 'actual'>;
}

/** The judgement a claim becomes: a pass, or a failure judged by the requirement's level (see `judge`). */
export function verdict(c: Claim): Judgement {
  if (c.ok) return { requirement: c.requirement, outcome: 'pass', title: c.pass, message: c.message };
  return judge(
    c.requirement,
    false,
    c.fail,
    c.message,
    c.evidence ? { expected: c.evidence.expected, actual: c.evidence.actual } : undefined,
  );
}

/** `ok` → pass; otherwise fail (MUST) or warn (SHOULD, INFO, ADVISORY), as the catalogue says. */
export function judge(requirement: string, ok: boolean, title: string, message: string, evidence?: Evidence): Judgement {
  const outcome: Outcome = ok ? 'pass' : levelOf(requirement) === 'MUST' ? 'fail' : 'warn';
  return evidence ? { requirement, outcome, title, message, evidence } : { requirement, outcome, title, message };
}

export function pass(requirement: string, title: string, message: string, evidence?: Evidence): Judgement {
  return judge(requirement, true, title, message, evidence);
}

/** Could not be judged; `remedy` says what would let a run judge it. */
export function skip(requirement: string, title: string, message: string, remedy?: string): Judgement {
  return remedy ? { requirement, outcome: 'skip', title, message, remedy } : { requirement, outcome: 'skip', title, message };
}

export function observe(requirement: string, title: string, message: string): Judgement {
  return { requirement, outcome: 'observe', title, message };
}

/** A defect of the suite (never of the server): the requirement was not exercised. */
export function suiteError(requirement: string, title: string, message: string): Judgement {
  return { requirement, outcome: 'error', title, message };
}

export function levelOfRequirement(id: string): Level {
  return levelOf(id);
}

/**
 * Many judgements of one run folded into one per requirement (first-seen order):
 * the first failure (else warning, suite error, pass, skip) stands for the
 * requirement, with how many judgements agreed; distinct observations are kept.
 */
export function foldJudgements(all: readonly Judgement[], keepObservations = 3): Judgement[] {
  const order: string[] = [];
  const groups: Record<string, Judgement[]> = {};
  for (const j of all) {
    if (!groups[j.requirement]) {
      groups[j.requirement] = [];
      order.push(j.requirement);
    }
    groups[j.requirement].push(j);
  }
  const out: Judgement[] = [];
  for (const id of order) {
    const g = groups[id];
    const judged = g.filter((j) => j.outcome !== 'observe');
    for (const outcome of ['fail', 'warn', 'error', 'pass', 'skip'] as Outcome[]) {
      const same = judged.filter((j) => j.outcome === outcome);
      if (!same.length) continue;
      const first = same[0];
      const n = judged.length;
      const tally =
        n > 1 && (outcome === 'fail' || outcome === 'warn')
          ? ` (${same.length} of ${n} judged responses)`
          : n > 1 && outcome === 'pass'
            ? ` (${same.length} of ${n} judged responses passed)`
            : '';
      out.push(tally ? { ...first, message: first.message + tally } : first);
      break;
    }
    const seen: Record<string, true> = {};
    for (const o of g.filter((j) => j.outcome === 'observe')) {
      if (seen[o.message] || Object.keys(seen).length >= keepObservations) continue;
      seen[o.message] = true;
      out.push(o);
    }
  }
  return out;
}
