/**
 * The one signature of a response check: `run(ctx)` looks at one exchange and
 * reports each judgement through `ctx.report`, as the one `Judgement` object
 * (src/core/sections/define.ts) the session, the aggregation and every writer read.
 * Checks name the requirements they judge.
 */
import type { ApiExchange } from '../http/client.ts';
import type { PlanLimits } from '../core/plans.ts';
import type { Judgement } from '../core/sections/define.ts';
import type { RequirementId } from '../core/catalogue.ts';

export interface CheckSession {
  /** The plan's limits; undefined when no plan was given for a real target (never guessed). */
  limits?: PlanLimits;
  /** The quota day of the target (a Reset may lie up to a day ahead). */
  dayMs: number;
  /** The target's per-minute window (a Reset beside the minute's Limit lies at most one window ahead). */
  windowMs?: number;
  /** The first X-RateLimit-Limit seen for the configured key. */
  firstLimit?: number;
  /** What the hygiene checks already reported this run (each warning once per run and place). */
  reported?: Set<string>;
}

export interface CheckContext {
  ex: ApiExchange;
  session: CheckSession;
  /**
   * Report one judgement of this exchange (the check's own, or one of the core's rules as it is); what was
   * expected and what came instead go in its `evidence`, beside the exchange the session attaches.
   */
  report: (j: Judgement) => void;
}

export interface ResponseCheck {
  name: string;
  requirements: readonly RequirementId[];
  run(ctx: CheckContext): void;
}
