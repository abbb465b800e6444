/**
 * What a spec test sees: `t.request()` (every response goes through the check
 * registry) and its judgements about the requirements the test is tied to,
 * each one object: `t.check(ex, claim)` for a requirement that holds or not,
 * `t.report(ex, judgement)` for any other outcome (an observation, a skip). A
 * judgement on a rate-limited (429 after the retry) or failed exchange becomes
 * `skip`: the operation under test is never blamed for the limiter or the network.
 */
import type { Config } from '../config/command-config.ts';
import { verdict, type Claim, type Judgement } from '../core/judgement.ts';
import type { ApiExchange, ApiRequest } from '../http/client.ts';
import type { Session } from './session.ts';

export type { Claim };

export interface TestContext {
  readonly config: Config;
  readonly session: Session;
  request(req: ApiRequest): Promise<ApiExchange>;
  /** Judge a claim with `ex` as evidence (an inconclusive exchange makes it a skip); returns whether it held. */
  check(ex: ApiExchange | undefined, claim: Claim): boolean;
  /** Report any other judgement (a SHOULD-style concern, an observation, a skip), with `ex` as evidence. */
  report(ex: ApiExchange | undefined, j: Judgement): void;
  /**
   * Report what the core's rules judged of `ex` (src/core/spec): an inconclusive exchange makes each of their
   * requirements a skip instead. Returns whether none of them failed.
   */
  judge(ex: ApiExchange, judgements: readonly Judgement[]): boolean;
  /** Is this exchange a usable answer (not a transport failure, not a 429)? */
  conclusive(ex: ApiExchange): boolean;
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
    check(ex, claim) {
      const why = ex && inconclusiveReason(ex);
      if (why) {
        session.record({ requirement: claim.requirement, outcome: 'skip', title: 'Could not be judged', message: why }, { source, ex });
        return false;
      }
      session.record(verdict(claim), { source, ex });
      return claim.ok;
    },
    report(ex, j) {
      session.record(j, { source, ex });
    },
    judge(ex, judgements) {
      const why = inconclusiveReason(ex);
      if (why) {
        for (const requirement of new Set(judgements.map((j) => j.requirement)))
          session.record({ requirement, outcome: 'skip', title: 'Could not be judged', message: why }, { source, ex });
        return false;
      }
      for (const j of judgements) session.record(j, { source, ex });
      return judgements.every((j) => j.outcome !== 'fail' && j.outcome !== 'warn');
    },
  };
}
