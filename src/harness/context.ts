/**
 * What a spec test sees: `t.request()` (every response goes through the check
 * registry) and `t.judge(ex, judgements)`, the one way it says what it found:
 * judgements built by the requirement's section (the core's rules of
 * src/core/sections, or the section's `judge`). A judgement on a rate-limited (429
 * after the retry) or failed exchange becomes `skip`: the operation under test
 * is never blamed for the limiter or the network.
 */
import type { Config } from '../config/command-config.ts';
import { judgeAny } from '../core/catalogue.ts';
import type { Judgement } from '../core/sections/define.ts';
import type { ApiExchange, ApiRequest } from '../http/client.ts';
import type { Session } from './session.ts';

export interface TestContext {
  readonly config: Config;
  readonly session: Session;
  request(req: ApiRequest): Promise<ApiExchange>;
  /**
   * Report the judgements made of `ex` (none: a judgement about no exchange, such as the configuration's): an
   * inconclusive exchange makes each of their requirements a skip instead (a judgement that is a skip already is
   * reported as it is). Returns whether none of them failed or warned.
   */
  judge(ex: ApiExchange | undefined, judgements: readonly Judgement[]): boolean;
  /** Is this exchange a usable answer (not a transport failure, not a 429)? */
  conclusive(ex: ApiExchange): boolean;
  /**
   * Run `f` for every item together: requests that depend on none of each other, in flight at once as the client's
   * flight lets them go (src/http/flight.ts: in order, one after another, on a fast server). A run abort met by one is
   * rethrown once all are done.
   */
  together<T>(items: readonly T[], f: (item: T) => Promise<void>): Promise<void>;
}

/** `f` for every item at once; the first failure rethrown once every one has settled. */
export async function together<T>(items: readonly T[], f: (item: T) => Promise<void>): Promise<void> {
  const settled = await Promise.allSettled(items.map(f));
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}

export function inconclusiveReason(ex: ApiExchange): string | undefined {
  if (ex.error) return `transport failure (${ex.error.kind}): ${ex.error.message}`;
  if (ex.response?.status === 429) return 'rate limited (429) even after honouring Retry-After; the operation could not be judged';
  return undefined;
}

export function makeContext(session: Session, testTitle: string): TestContext {
  const source = `spec: ${testTitle}`;
  return {
    config: session.config,
    session,
    request: (req) => session.client.request(req),
    conclusive: (ex) => inconclusiveReason(ex) === undefined,
    together,
    judge(ex, judgements) {
      const why = ex && inconclusiveReason(ex);
      if (why) {
        // A skip keeps its own reason; whatever else was judged of this exchange is one skip per requirement.
        for (const j of judgements) if (j.outcome === 'skip') session.record(j, { source, ex });
        const judged = judgements.filter((j) => j.outcome !== 'skip');
        // Judgement.requirement is a string until every section judges; each here was built by one (a RequirementId).
        for (const requirement of new Set(judged.map((j) => j.requirement)))
          session.record(judgeAny(requirement, { outcome: 'skip', title: 'not-judged', message: why }), { source, ex });
        return false;
      }
      for (const j of judgements) session.record(j, { source, ex });
      return judgements.every((j) => j.outcome !== 'fail' && j.outcome !== 'warn');
    },
  };
}
