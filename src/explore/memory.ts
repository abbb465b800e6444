/**
 * What the exploration phase remembers of what it sent: the pets it created (to read them back), the creates the
 * server refused (to check none was stored), every create in order and every list page that passed (what a later page
 * may show since: attribution.ts), the exchange each finding judged and the last exchanges (what a failure may depend
 * on), and how many requests the run had sent before a rate-limit finding.
 */
import type { Judgement } from '../core/sections/define.ts';
import type { ApiExchange, ApiRequest } from '../http/client.ts';
import type { Finding } from '../results/types.ts';
import type { Probe } from './probe.ts';
import type { Created } from './readback.ts';

/** One exchange the phase sent: what it was, how it was judged, and its place in the phase's order. */
export interface Sent {
  req: ApiRequest;
  probe?: Probe;
  judge: (ex: ApiExchange) => Judgement[];
  /** 0-based, in the order the phase sent its exchanges. */
  index: number;
}

/**
 * How many of the last exchanges are remembered: more than the coverage cases sent after any one of them before it is
 * reported (they are all sent first), so that a failure's previous request is still known when it is reported.
 */
const RECENT = 96;

export class Memory {
  /** Pets the phase created (201 with an id) from a request that had to be served or could be: to read them back. */
  readonly created: Created[] = [];
  /** Invalid createPet requests the server refused, to check that it stored none of them. */
  readonly refused: Probe[] = [];
  /** Every createPet the phase sent, in order, and whether it was answered 201 (what a page of the list may show since). */
  readonly writes: { probe: Probe; index: number; stored?: boolean }[] = [];
  /** Every page of the list that passed (no problem of the page as a whole): its filter ('' none), limit and place. */
  readonly listPasses: { filter: string; limit: number; index: number }[] = [];
  /** The ids of every pet the phase created, in order (kept when `created` is read back): near misses start from them. */
  readonly held: string[] = [];
  private exchanges = 0;
  /** The last exchanges sent, in order. */
  private readonly recent: Sent[] = [];
  private readonly judged = new WeakMap<Finding, Sent>();
  /** A rate-limit finding: how many requests the run had sent before the one it judges. */
  private readonly before = new WeakMap<Finding, number>();

  /** A new exchange, numbered in the phase's order. */
  sending(req: ApiRequest, judge: Sent['judge'], probe?: Probe): Sent {
    const sent: Sent = { req, judge, index: this.exchanges++, ...(probe ? { probe } : {}) };
    if (probe?.op === 'createPet') this.writes.push({ probe, index: sent.index });
    this.recent.push(sent);
    if (this.recent.length > RECENT) this.recent.shift();
    return sent;
  }

  /** An exchange was answered `status` (a create answered 201 may have stored what a later page shows). */
  answered(sent: Sent, status: number | undefined): void {
    const w = sent.probe?.op === 'createPet' ? this.writes.find((x) => x.index === sent.index) : undefined;
    if (w) w.stored = status === 201;
  }

  /** The findings of an exchange, and (a rate-limit finding) how many requests the run had sent before it. */
  judgedBy(findings: readonly Finding[], sent: Sent, sentBefore?: (f: Finding) => number | undefined): void {
    for (const f of findings) {
      this.judged.set(f, sent);
      const n = sentBefore?.(f);
      if (n !== undefined) this.before.set(f, n);
    }
  }

  /** The exchange a finding of the phase judged. */
  sentOf(f: Finding): Sent | undefined {
    return this.judged.get(f);
  }

  /** The requests the run had sent before the one a rate-limit finding judges. */
  sentBefore(f: Finding): number | undefined {
    return this.before.get(f);
  }

  /** The exchange the phase sent just before `s`, if it is still remembered. */
  previousOf(s: Sent): Sent | undefined {
    return this.recent.find((r) => r.index === s.index - 1);
  }
}
