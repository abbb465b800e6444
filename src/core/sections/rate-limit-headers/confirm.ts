/**
 * A failure of the burst's Remaining rules stands only when the burst, sent again, fails it again the same way. Another
 * client on the key (the spec allows one: a nightly run may share its key, two runs of the suite may meet) only ever
 * adds drops to the burst's steps, wherever its requests happen to land: it can look like a server counting one
 * request twice for one burst, by chance, but hardly for four bursts sent apart with the same drops on the same
 * operation — unless it sends the same burst at the same pace, which the random pause between bursts breaks. So each
 * rule's failure carries a signature (what the server would do every time: "every step by 2", "each createPet by 2",
 * "counted per operation"), and:
 * - any burst that passes the rule decides it (a miscounting server miscounts every burst; noise only adds drops);
 * - failed by every burst with one signature, as many bursts as CONFIRMING_BURSTS: the failure stands;
 * - failed with no signature (drops that vary: noise, not a count) or with different ones: not judged, the reason said.
 * Pure.
 */
import type { Judgement } from '../define.ts';
import { decrementSignature, judgeSequentialDecrements } from './decrements.ts';
import { RATE_LIMIT_HEADERS } from './requirements.ts';
import { countedSignature, judgeCountPerOperation, judgeKeyScope, KEY_SCOPE_SIGNATURE, type ScopedStep } from './scope.ts';

/** How many bursts must fail a rule with one signature before the failure stands. */
export const CONFIRMING_BURSTS = 4;

/** One burst's verdict on one rule, and the signature of its failure (undefined: the drops do not repeat a count). */
export interface RuleRun {
  judgement: Judgement;
  signature?: string;
}

/** Whether this rule's failure is still unconfirmed: every burst so far failed it with one signature. */
export function stillFailing(runs: readonly (RuleRun | undefined)[]): boolean {
  const sig = runs[0]?.signature;
  return sig !== undefined && runs.every((r) => r?.judgement.outcome === 'fail' && r.signature === sig);
}

/** The rule's verdict over the bursts sent (undefined when no burst judged it at all). */
export function confirmRule(runs: readonly (RuleRun | undefined)[]): Judgement | undefined {
  const judged = runs.filter((r): r is RuleRun => r !== undefined);
  if (!judged.length) return undefined;
  const passed = judged.find((r) => r.judgement.outcome !== 'fail' && r.judgement.outcome !== 'skip');
  if (passed) return passed.judgement;
  const fails = judged.filter((r) => r.judgement.outcome === 'fail');
  if (!fails.length) return judged[judged.length - 1].judgement;
  const last = fails[fails.length - 1].judgement;
  if (runs.length >= CONFIRMING_BURSTS && stillFailing(runs))
    return { ...last, message: `${last.message} (the same in each of ${runs.length} bursts, sent apart)` };
  const why =
    fails[0].signature === undefined
      ? 'the drops varied from step to step, as another client spending the same key makes them, not as a count per request does'
      : `burst 1 failed it (${fails[0].signature}) but the same burst sent again did not fail it the same way (${runs
          .slice(1)
          .map((r) => (r?.judgement.outcome === 'fail' ? (r.signature ?? 'drops that varied') : (r?.judgement.outcome ?? 'not judged')))
          .join('; ')})`;
  return RATE_LIMIT_HEADERS.judge('RL-REMAINING-DECREMENTS', {
    outcome: 'skip',
    title: 'not-judged',
    message: `${why}: another client on the key may have spent it meanwhile, so whether this server miscounts could not be told; last: ${last.message}`,
  });
}

/** One burst's three Remaining rules: one per request in order, none counted more, one countdown per key. */
export interface BurstRules {
  judged: RuleRun;
  counted: RuleRun;
  /** Only when every request of the burst was answered 2xx with the headers. */
  scope?: RuleRun;
}
const RULES = ['judged', 'counted', 'scope'] as const;

/** The rules of one burst's steps (`complete`: every request answered 2xx with Remaining). */
export function burstRules(steps: readonly ScopedStep[], complete: boolean): BurstRules {
  const remaining = steps.map((s) => s.remaining);
  return {
    judged: { judgement: judgeSequentialDecrements(remaining), signature: decrementSignature(remaining) },
    counted: { judgement: judgeCountPerOperation(steps), signature: countedSignature(steps) },
    ...(complete ? { scope: { judgement: judgeKeyScope(steps), signature: KEY_SCOPE_SIGNATURE } } : {}),
  };
}

/** Whether to send the burst again: a rule failed by every burst so far the same way, fewer than CONFIRMING_BURSTS sent. */
export function needsAnother(sent: readonly BurstRules[]): boolean {
  return sent.length < CONFIRMING_BURSTS && RULES.some((k) => stillFailing(sent.map((b) => b[k])));
}

/** The three rules' verdicts over the bursts sent. */
export function confirmBursts(sent: readonly BurstRules[]) {
  const verdict = (k: (typeof RULES)[number]) => confirmRule(sent.map((b) => b[k]));
  return { judged: verdict('judged'), counted: verdict('counted'), scope: verdict('scope') };
}
