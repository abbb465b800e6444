/**
 * The exploration phase's engine: sends probes through the run's own client (its budget, deadline, pacing on the
 * rate-limit headers and Retry-After), so every response also goes through the check registry; judges each with the
 * phase's checks (checks.ts); and hands what it found to its collaborators — the pace (pace.ts: budget, time, width),
 * the memory of what was sent and stored (memory.ts) and the reporter of what reaches the run's result stream
 * (reporter.ts).
 */
import type { Judgement } from '../core/sections/define.ts';
import { RunAborted, type ApiExchange, type ApiRequest } from '../http/client.ts';
import { exactInteger } from '../harness/ops.ts';
import type { Session } from '../harness/session.ts';
import type { Finding } from '../results/types.ts';
import { judgeProbe } from './checks.ts';
import { isPageProblem, listKey } from './reproduction.ts';
import { petAt } from '../core/sections/pets.ts';
import { dependsOnEarlierRequests } from '../core/catalogue.ts';
import { materialize, requestOf, withoutKey, type Draft, type Naming, type Probe } from './probe.ts';
import { judgeHeadAsGet } from '../core/sections/responses/head.ts';
import { headGetAnswer } from '../harness/ops.ts';
import { Memory } from './memory.ts';
import { nearMissOfId } from './values.ts';
import { Pace } from './pace.ts';
import type { Created } from './readback.ts';
import { isProblem, Reporter } from './reporter.ts';

export { EXPLORE_TIME_MS } from './pace.ts';

export interface ExploreSettings {
  /** Requests the phase may send (0: off). */
  budget: number;
  seed: number;
  writes: boolean;
  prefix: string;
  /** The target is the suite's own embedded server: names without the prefix may be tried too. */
  embedded: boolean;
}

/** One exchange sent and judged: every finding (the registry's and the checks'), the failures among them (fail or warn). */
export interface Shot {
  ex: ApiExchange;
  findings: Finding[];
  failures: Finding[];
  requests: number;
}

/** Where the phase's findings come from (a finding's source). */
export const SOURCES = {
  replay: 'explore: replayed',
  coverage: 'explore: coverage',
  generated: 'explore: generated',
  stateful: 'explore: stateful',
} as const;

/** A 32-bit seed from any integer. */
export const seed32 = (n: number): number => n >>> 0;

export class Explorer {
  readonly pace: Pace;
  readonly memory = new Memory();
  readonly reporter: Reporter;
  readonly naming: Naming;

  constructor(
    readonly session: Session,
    readonly settings: ExploreSettings,
  ) {
    this.pace = new Pace(session.client, settings.budget);
    this.reporter = new Reporter(session, this.memory, this.pace);
    // Short, so the names stay of the length the specs already send: three characters of the seed and a counter.
    const token = (seed32(settings.seed) % 46656).toString(36).padStart(3, '0');
    let counter = 0;
    this.naming = {
      prefix: settings.prefix,
      token: () => `${token}.${(counter++).toString(36)}`,
      // The specs already require names of the prefix and about 21 more characters.
      plainLength: settings.prefix.length + 24,
      wholeNames: settings.embedded,
    };
  }

  materialize(d: Draft): Probe {
    return materialize(this.resolved(d), this.naming);
  }

  /** A draft whose petId is a near miss of a held id, with it (an id the server holds; none yet: the constant 7). */
  private resolved(d: Draft): Draft {
    if (!d.near) return d;
    const { held } = this.memory;
    const id = held.length ? held[d.near.pick % held.length] : '7';
    const [label, petId] = nearMissOfId(id, d.near.mutation, d.near.at);
    return { ...d, petId, label: `${d.label}: ${label}` };
  }

  /**
   * Send probes, up to `pace.width()` in flight at once (another goes as soon as one comes back), each judged; their
   * shots in order (undefined for those not sent: the budget or the time ran out). A run abort ends it after the
   * requests in flight, and is rethrown.
   */
  async sendAll(probes: readonly Probe[], source: string): Promise<((Shot & { probe: Probe }) | undefined)[]> {
    const out: ((Shot & { probe: Probe }) | undefined)[] = probes.map(() => undefined);
    let next = 0;
    let inFlight = 0;
    let failure: { reason: unknown } | undefined;
    const more = () => !failure && next < probes.length && inFlight < this.pace.width() && this.pace.left() - inFlight > 0;
    await new Promise<void>((done) => {
      const launch = (): void => {
        while (more()) {
          const i = next++;
          inFlight++;
          this.send(probes[i], source)
            .then(
              (shot) => void (out[i] = shot),
              (reason: unknown) => void (failure ??= { reason }),
            )
            .finally(() => {
              inFlight--;
              launch();
            });
        }
        if (inFlight === 0) done();
      };
      launch();
    });
    if (failure) throw failure.reason;
    return out;
  }

  /**
   * Send one probe and judge it; RunAborted (budget, deadline, an unresponsive server) propagates. A pet created from
   * a request that had to be refused is not kept for reading back: its round trips would only repeat that finding.
   */
  async send(probe: Probe, source: string): Promise<Shot & { probe: Probe }> {
    const shot = await this.exchange(requestOf(probe), source, (ex) => judgeProbe(probe, ex), probe);
    if (probe.method === 'HEAD' && !withoutKey(probe)) return { probe, ...(await this.besideGet(probe, shot, source)) };
    const status = shot.ex.response?.status ?? 0;
    if (probe.op !== 'createPet') return { probe, ...shot };
    // Any createPet refused with a 4xx — an invalid body, a credential the server did not take (401) — must store nothing.
    // Only a name the run's prefix makes its own proves anything when found: a whole name ("null", "12") may be another
    // create's (the coverage part sends such names too).
    if (probe.name?.startsWith(this.naming.prefix) && status >= 400 && status < 500) this.memory.refused.push(probe);
    const kept = createdBy(probe, shot);
    if (kept) this.memory.created.push(kept);
    if (kept) this.memory.held.push(kept.id);
    return { probe, ...shot };
  }

  /**
   * HEAD with the key (issue 39): GET of the same request sent after it, the pair judged by METHOD-HEAD-AS-GET — the
   * rule the spec file calls (RFC 9110 §9.3.2: HEAD is GET without content). The shot is HEAD's, with the pair's verdict:
   * a failure replays as the HEAD probe (its replay sends the GET again). GET's own findings are the registry's to
   * judge elsewhere: only the pair's verdict joins the shot. Nothing when a 429 stands in either answer or no request is left.
   */
  private async besideGet(probe: Probe, head: Shot, source: string): Promise<Shot> {
    if (!head.ex.response || head.ex.response.status === 429 || this.pace.left() < 1) return head;
    const req = requestOf({ ...probe, method: undefined });
    const query = req.rawQuery ?? (req.query ? new URLSearchParams(req.query).toString() : '');
    const target = query ? `${req.path}?${query}` : req.path;
    const judge = (ex: ApiExchange) =>
      ex.response?.status === 429 ? [] : judgeHeadAsGet(target, 'with the key', headGetAnswer(head.ex), headGetAnswer(ex));
    const get = await this.exchange(req, source, judge);
    const pair = get.findings.filter((f) => f.requirement === 'METHOD-HEAD-AS-GET');
    return {
      ex: head.ex,
      findings: [...head.findings, ...pair],
      failures: [...head.failures, ...pair.filter(isProblem)],
      requests: head.requests + get.requests,
    };
  }

  /** Send one request through the run's client; the registry's findings and `judge`'s verdicts are captured, not yet reported. */
  async exchange(req: ApiRequest, source: string, judge: (ex: ApiExchange) => Judgement[], probe?: Probe): Promise<Shot> {
    const s = this.session;
    const before = s.client.requestsSent;
    const findings: Finding[] = [];
    const sent = this.memory.sending(req, judge, probe);
    // Captured by request, not by swapping the session's sink: requests of the phase may be in flight together.
    s.captureFor(req, findings);
    let sends: number | undefined;
    try {
      const ex = await s.client.request(req);
      sends = ex.sends ?? 1;
      this.pace.took(ex.durationMs);
      this.memory.answered(sent, ex.response?.status);
      for (const v of judge(ex)) s.record(v, { source, ex });
      // The response judged is the last request sent (a 429 waited out and retried included).
      const last = s.client.requestsSent - 1;
      this.memory.judgedBy(findings, sent, (f) => (dependsOnEarlierRequests(f.requirement) ? last : undefined));
      if (req.operation === 'listPets' && ex.response?.status === 200 && !findings.some(isPageProblem))
        this.memory.listPasses.push({ ...listKey(req), index: sent.index });
      return { ex, findings, failures: findings.filter(isProblem), requests: sends };
    } finally {
      s.release(req);
      // What this call sent (others may be in flight together); after an abort, what the client counted since.
      this.pace.count(source, sends ?? s.client.requestsSent - before);
    }
  }
}

/** What a create's own rules judge: once one of them failed, the pet's round trips would only say it again. */
const CREATE_RULES = new Set([
  'CREATE-201-PET',
  'CREATE-STATUS-OPTIONAL',
  'CREATE-400-MISSING-FIELD',
  'CREATE-400-WRONG-TYPE',
  'CREATE-400-BAD-STATUS',
  'CREATE-400-BAD-BODY',
  'HTTP-EQUIVALENT-FORMS',
  'INPUT-NUMBER-PRECISION',
]);

/**
 * The pet a create stored, to read back — unless its request had to be refused (an invalid NewPet accepted) or its
 * create already failed: what follows from a cause found is not judged again (the round trips would repeat it).
 */
export function createdBy(probe: Probe, shot: Shot): Created | undefined {
  if (shot.ex.response?.status !== 201 || probe.cls === 'invalid') return undefined;
  if (shot.failures.some((f) => CREATE_RULES.has(f.requirement))) return undefined;
  const id = exactInteger(shot.ex, '/id');
  return id === undefined ? undefined : { probe, id, created: petAt(shot.ex.json) ?? {} };
}

/** Run `f`, turning a run abort into a flag the phase can end on (it is rethrown once the phase has reported). */
export async function guarded<T>(f: () => Promise<T>, onAbort: (e: RunAborted) => void): Promise<T | undefined> {
  try {
    return await f();
  } catch (e) {
    if (e instanceof RunAborted) {
      onAbort(e);
      return undefined;
    }
    throw e;
  }
}
