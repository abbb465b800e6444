/**
 * What a spec test sees: `t.request()` (every response goes through the check
 * registry) and judgments about the requirements the test is tied to. A
 * judgment on a rate-limited (429 after the retry) or failed exchange becomes
 * `skip`: the operation under test is never blamed for the limiter or the network.
 */
import type { Config } from '../config/config.ts';
import type { ApiExchange, ApiRequest } from '../http/client.ts';
import type { Outcome } from '../results/types.ts';
import type { Session } from './session.ts';

/** What a spec test says of a check: its titles when it holds and when it fails, its message, and expected / actual. */
export interface CheckWording {
  /** Title when the requirement holds. */
  pass: string;
  /** Stable title of the failure. */
  fail: string;
  message: string;
  expected?: string;
  actual?: string;
}

export interface TestContext {
  readonly config: Config;
  readonly session: Session;
  request(req: ApiRequest): Promise<ApiExchange>;
  /** Judge `ok` for `requirement` with `ex` as evidence (inconclusive exchanges become skip). */
  check(requirement: string, ok: boolean, ex: ApiExchange | undefined, j: CheckWording): boolean;
  /** Report a SHOULD-style concern or an INFO observation. */
  record(requirement: string, outcome: Outcome, title: string, message: string, ex?: ApiExchange): void;
  /** Is this exchange a usable answer (not a transport failure, not a 429)? */
  conclusive(ex: ApiExchange): boolean;
}

export function inconclusiveReason(ex: ApiExchange): string | undefined {
  if (ex.error) return `transport failure (${ex.error.kind}): ${ex.error.message}`;
  if (ex.response?.status === 429) return 'rate limited (429) even after honouring Retry-After; the operation could not be judged';
  return undefined;
}

export function makeContext(session: Session, testTitle: string): TestContext {
  const src = `spec: ${testTitle}`;
  return {
    config: session.config,
    session,
    request: (req) => session.client.request(req),
    conclusive: (ex) => inconclusiveReason(ex) === undefined,
    check(requirement, ok, ex, j) {
      const why = ex && inconclusiveReason(ex);
      if (why) {
        session.emit(requirement, 'skip', 'Could not be judged', why, src, ex);
        return false;
      }
      if (ok) session.emit(requirement, 'pass', j.pass, j.message, src, ex);
      else session.emit(requirement, 'fail', j.fail, j.message, src, ex, { expected: j.expected, actual: j.actual });
      return ok;
    },
    record(requirement, outcome, title, message, ex) {
      session.emit(requirement, outcome, title, message, src, ex);
    },
  };
}
