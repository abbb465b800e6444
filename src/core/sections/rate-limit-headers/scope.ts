/**
 * The limiter's scope: the limit is the key's, whatever the operation (the plan table counts a key's requests), so
 * X-RateLimit-Remaining falls by one per request across operations as within one. A limiter keyed per route gives
 * each operation its own budget: Remaining falls by one between two requests of one operation and jumps — up, flat,
 * or by another amount — where the operation changes. And what the spec does not say, observed and never failed:
 * whether a request without a valid key counts against the key (a limiter keyed by the client's address counts both
 * in one bucket). Pure verdicts over the facts of one interleaved burst (conformance/rate-limit-headers) or of the
 * ceiling's way to the limit (the rate-limit scenarios: ../rate-limit-load/ceiling.ts).
 */
import type { Judgement } from '../define.ts';
import { RATE_LIMIT_HEADERS } from './requirements.ts';

/** One response of the burst on the key, in order: its operation, Remaining and Reset (as sent). */
export interface ScopedStep {
  operation: string;
  remaining: number;
  reset?: number;
  /** Sent before the response to the one before it came (requests in flight together): the server may have counted them in either order, so no step. */
  overlaps?: boolean;
}

/**
 * Steps between neighbouring responses within one window, by the later's operation. Left out: a Reset more than a
 * second later (a rollover), and a rise of Remaining with any later Reset (a window of a second that rolled over, or a
 * sliding window that released: no count either way).
 */
export function pairs(seq: readonly ScopedStep[]) {
  const out: { cross: boolean; drop: number; into: string }[] = [];
  for (let i = 1; i < seq.length; i++) {
    const [a, b] = [seq[i - 1], seq[i]];
    const later = a.reset !== undefined && b.reset !== undefined ? b.reset - a.reset : 0;
    if (b.overlaps || later > 1 || (later > 0 && b.remaining > a.remaining)) continue;
    out.push({ cross: a.operation !== b.operation, drop: a.remaining - b.remaining, into: b.operation });
  }
  return out;
}

const show = (seq: readonly ScopedStep[]) => seq.map((s) => `${s.operation} ${s.remaining}`).join(' → ');

/**
 * RL-REMAINING-DECREMENTS across operations. Failed when the steps within an operation mostly fall by exactly one
 * (the server counts one per request) while most steps where the operation changes do not, at least one of them not
 * falling at all (no other client's request makes Remaining rise or stand still): each operation counted apart.
 * Tolerated: another client on the key (drops of more than one), a refilling limiter (a rare flat step).
 */
export function judgeKeyScope(seq: readonly ScopedStep[]): Judgement {
  const steps = pairs(seq);
  const cross = steps.filter((s) => s.cross);
  const same = steps.filter((s) => !s.cross);
  if (cross.length < 2 || same.length < 1)
    return RATE_LIMIT_HEADERS.judge('RL-REMAINING-DECREMENTS', {
      outcome: 'skip',
      title: 'not-judged',
      message: `too few steps within one window to compare operations: ${show(seq)}`,
    });
  const ones = (xs: typeof steps) => xs.filter((s) => s.drop === 1).length;
  const apart = 2 * ones(same) > same.length && 2 * ones(cross) < cross.length && cross.some((s) => s.drop <= 0);
  return RATE_LIMIT_HEADERS.judge('RL-REMAINING-DECREMENTS', {
    ok: !apart,
    fail: 'per-operation',
    message: apart
      ? `X-RateLimit-Remaining fell by one between requests of one operation (${ones(same)} of ${same.length}) but not where the operation changed (${ones(cross)} of ${cross.length}): each operation is counted apart, while the plan's limit is the key's; sequence ${show(seq)}`
      : `X-RateLimit-Remaining fell across operations as within one (${ones(cross)} of ${cross.length} steps between operations, ${ones(same)} of ${same.length} within one, fell by exactly one); sequence ${show(seq)}`,
    ...(apart ? { evidence: { expected: 'one countdown per key, whatever the operation', actual: show(seq) } } : {}),
  });
}

/** The operation whose every step (two or more) fell by more than one while most others fell by exactly one, if any. */
function countedMore(seq: readonly ScopedStep[]): string | undefined {
  const steps = pairs(seq).filter((s) => s.drop >= 0);
  return [...new Set(steps.map((s) => s.into))].find((op) => {
    const into = steps.filter((s) => s.into === op);
    const others = steps.filter((s) => s.into !== op);
    return (
      into.length >= 2 &&
      into.every((s) => s.drop > 1) &&
      others.length >= 2 &&
      2 * others.filter((s) => s.drop === 1).length > others.length
    );
  });
}

/**
 * What judgeCountPerOperation's failure repeats, as a signature for the burst sent again (./confirm.ts): the operation
 * counted more and its one drop ("each createPet by 2"); undefined when its drops vary (another client's requests
 * landing on some of its steps) or none is counted more.
 */
export function countedSignature(seq: readonly ScopedStep[]): string | undefined {
  const op = countedMore(seq);
  const drops = pairs(seq).filter((s) => s.into === op && s.drop >= 0);
  return op && drops.every((s) => s.drop === drops[0].drop) ? `each ${op} by ${drops[0].drop}` : undefined;
}

/** What judgeKeyScope's failure repeats: no other client makes Remaining stand or rise where the operation changes. */
export const KEY_SCOPE_SIGNATURE = 'counted per operation';

/**
 * RL-REMAINING-DECREMENTS per operation: each request counts once (the plan table counts requests), whatever its
 * operation. Failed when every step into one operation (two or more, within a window) falls by more than one while
 * most steps into the others fall by exactly one: that operation's requests are counted more than once (a limiter
 * mounted twice on its route). No valid limiter makes one sequential request fall by more than one — a sliding window
 * or a token bucket only frees slots (a step falls by less). Another client on the key may, by chance, send a request
 * exactly while this burst sends one operation: the burst is sent again, apart, and the failure stands only when each
 * burst shows the same operation with the same drop (countedSignature, ./confirm.ts).
 */
export function judgeCountPerOperation(seq: readonly ScopedStep[]): Judgement {
  const steps = pairs(seq).filter((s) => s.drop >= 0);
  const ops = [...new Set(steps.map((s) => s.into))];
  const twice = countedMore(seq);
  if (!twice && ops.every((op) => steps.filter((s) => s.into === op).length < 2))
    return RATE_LIMIT_HEADERS.judge('RL-REMAINING-DECREMENTS', {
      outcome: 'skip',
      title: 'not-judged',
      message: `no operation had two steps within one window to count its requests by: ${show(seq)}`,
    });
  const drops = twice ? steps.filter((s) => s.into === twice).map((s) => s.drop) : [];
  return RATE_LIMIT_HEADERS.judge('RL-REMAINING-DECREMENTS', {
    ok: !twice,
    fail: 'counted-more',
    message: twice
      ? `X-RateLimit-Remaining fell by ${drops.join(', ')} on each ${twice} (${drops.length} of ${drops.length}) and by exactly one on most other requests: each ${twice} is counted more than once, while the plan's limit counts requests; sequence ${show(seq)}`
      : `no operation's requests made X-RateLimit-Remaining fall by more than one each; sequence ${show(seq)}`,
    ...(twice ? { evidence: { expected: `a drop of one per ${twice}`, actual: show(seq) } } : {}),
  });
}

/**
 * RL-SCOPE, observed: whether a request without a valid key counted against the key — the key's Remaining before
 * (`before`) and after (`after`) one request without credentials, and what that 401 said of its own count.
 */
export function observeUnauthenticated(r: {
  before: number;
  after: number;
  status?: number;
  limit?: number;
  remaining?: number;
}): Judgement {
  const counted = r.before - r.after - 1;
  const own =
    r.remaining === undefined
      ? 'carried no X-RateLimit-Remaining'
      : `said Limit ${r.limit ?? '(absent)'}, Remaining ${r.remaining} (${
          r.remaining === r.before - 1
            ? "the key's own countdown: one bucket for the client address?"
            : 'a count of its own: per client address, or shared by every request without a key'
        })`;
  return RATE_LIMIT_HEADERS.judge('RL-SCOPE', {
    outcome: 'observe',
    title: 'unauthenticated',
    args: { counted: counted === 1 ? 'counted against the key' : counted === 0 ? 'not counted against the key' : 'not told apart' },
    message: `a request without credentials (answered ${r.status ?? 'nothing'}) ${own}; the key's Remaining went from ${r.before} to ${r.after} across it: ${
      counted === 1
        ? 'it was counted against the key (a limiter keyed by the client address?)'
        : counted === 0
          ? 'it was not counted against the key'
          : 'whether it was counted cannot be told (another client, a window that rolled over)'
    }. The spec does not say: observed, never failed`,
  });
}
