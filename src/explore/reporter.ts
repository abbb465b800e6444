/**
 * What of the exploration phase reaches the run's result stream: every failure once (by its signature), as a
 * replayable counterexample with its cause — the minimal request, or for a stored-state failure the create that stored
 * what broke it (a later list's 500 after a stored name is that create's) — the first finding of a cause its own, the
 * ones that follow from it (a 5xx's other findings, a later read of the same pet) marked as its consequences; passes and observations deduplicated (a phase of hundreds of
 * requests must not bury the specs' findings).
 */
import type { Session } from '../harness/session.ts';
import type { Cause, Finding, Replay, ReplayProbe, ReplayStep } from '../results/types.ts';
import type { Attribution } from './reproduction.ts';
import type { Memory } from './memory.ts';
import type { Pace } from './pace.ts';
import { describeProbe, requestOf, type Probe } from './probe.ts';
import { formsNamed, isProblem, signature, type Kind } from './failure-kind.ts';

export { formsNamed, isProblem, sameFailure, signature } from './failure-kind.ts';

/** A probe as data: what a counterexample keeps to be sent again, its surface included. */
export function wireOf(p: Probe, kind: ReplayProbe['kind'], limit?: number): ReplayProbe {
  return {
    kind,
    op: p.op,
    ...(p.query ? { query: p.query } : {}),
    ...(p.rawQuery !== undefined ? { rawQuery: p.rawQuery } : {}),
    ...(p.petId !== undefined ? { petId: p.petId } : {}),
    ...(p.body !== undefined ? { body: p.body } : {}),
    ...(p.readings ? { readings: p.readings } : {}),
    ...(p.headers ? { headers: p.headers } : {}),
    ...(p.spelled ? { spelled: p.spelled } : {}),
    ...(p.chunks ? { chunks: p.chunks } : {}),
    ...(p.method ? { method: p.method } : {}),
    ...(p.credential ? { credential: p.credential } : {}),
    ...(p.surface.length ? { surface: p.surface } : {}),
    ...(limit !== undefined ? { limit } : {}),
  };
}

/** The cause of a probe's findings, in words: `POST /pets: name: lone surrogate (name has a lone surrogate)`. */
const causeTitle = (p: Probe): string => `${requestOf(p).method} ${requestOf(p).path}: ${p.label} (${p.why})`;

/** Within one exchange's failures, the one the others follow from first: a 5xx before what the 5xx broke. */
const primaryFirst = (fs: readonly Finding[]): Finding[] =>
  [...fs].sort((a, b) => Number(b.requirement === 'RESP-STATUS-DOCUMENTED') - Number(a.requirement === 'RESP-STATUS-DOCUMENTED'));

export class Reporter {
  /** Failure signatures already reported by this phase (or its replays). */
  readonly known = new Set<string>();
  /** The forms of each HTTP-EQUIVALENT-FORMS failure reported (a request holding all of one is explained by it). */
  private readonly knownForms: string[][] = [];
  private readonly shown = new Set<string>();
  /** The causes reported so far, by key. */
  private readonly causes = new Set<string>();
  /** The creates found to have stored what broke a later read (a later failure after them is the same cause). */
  private readonly storedCauses: Probe[] = [];
  /** The probe each replay record was made of (a cause's title says it in words). */
  private readonly probes = new WeakMap<Replay, Probe>();

  constructor(
    private readonly session: Session,
    private readonly memory: Memory,
    private readonly pace: Pace,
  ) {}

  /**
   * Was this failure reported already — its signature, or (HTTP-EQUIVALENT-FORMS) the forms of one reported, which a
   * request that holds them and more shows again?
   */
  isKnown(f: Kind): boolean {
    const forms = formsNamed(f);
    return this.known.has(signature(f)) || (!!forms && this.knownForms.some((k) => k.every((id) => forms.includes(id))));
  }

  /** The findings `record` emits, captured instead of reported. */
  capture(record: () => void): Finding[] {
    const saved = this.session.sink;
    const out: Finding[] = [];
    this.session.sink = out;
    try {
      record();
    } finally {
      this.session.sink = saved;
    }
    return out;
  }

  /** Forward what is not a problem: a pass, skip or error once per requirement and title, each distinct observation once. */
  forward(findings: readonly Finding[]): void {
    for (const f of findings) {
      if (isProblem(f)) continue;
      const key = f.outcome === 'observe' ? `${f.requirement} ${f.message}` : `${f.requirement} ${f.outcome} ${f.title}`;
      if (this.shown.has(key)) continue;
      this.shown.add(key);
      this.session.sink.push(f);
    }
  }

  /**
   * Report the failures of a counterexample (one per signature), each with how to replay it and its cause;
   * `attribution` (attribution.ts) says whether the minimal request reproduces it alone, or which stored pets it
   * depends on (then the create that stored them is the cause). Returns how many were reported.
   */
  report(failures: readonly Finding[], replay: Replay, attribution?: Attribution, only?: string): number {
    // The forms HTTP makes equivalent were not the cause: the plain request's failures instead, replayed as it.
    if (attribution?.kind === 'not-the-forms') {
      const { phase, reproduce, seed } = replay;
      const plain = this.replayOf(attribution.plain, {
        phase,
        ...(reproduce ? { reproduce } : {}),
        ...(seed !== undefined ? { seed } : {}),
      });
      return this.report(attribution.failures, plain, attribution.then);
    }
    let n = 0;
    for (const f of primaryFirst(failures)) {
      const sig = signature(f);
      if ((only && sig !== only) || this.isKnown(f)) continue;
      this.known.add(sig);
      const forms = formsNamed(f);
      if (forms) this.knownForms.push(forms);
      const before = this.memory.sentBefore(f);
      // A rate-limit finding is not attributed: its answer depends on the key's window (requestsBefore says so).
      const r = before === undefined ? this.attributed(replay, attribution) : replay;
      this.session.sink.push({
        ...f,
        cause: this.causeOf(r, attribution, this.probes.get(replay)),
        replay: { ...r, requests: this.pace.spent, ...(before !== undefined ? { requestsBefore: before } : {}) },
      });
      n++;
    }
    return n;
  }

  /** The cause of a finding replayed as `r`: the create that stored what broke a later read, else the minimal request. */
  private causeOf(r: Replay, a: Attribution | undefined, probe?: Probe): Cause {
    const stored = a?.kind === 'stored' || a?.kind === 'after-previous' ? a.before : undefined;
    const creates = stored?.filter((p) => p.op === 'createPet') ?? [];
    // The create a stored-state cause found earlier names, when this one follows from the same store; else the last
    // create of an input the spec is silent about (the likelier to break a page), else the last create.
    const p =
      creates.find((c) => this.storedCauses.includes(c)) ??
      [...creates].reverse().find((c) => c.cls !== 'valid') ??
      creates[creates.length - 1];
    if (p && !this.storedCauses.includes(p)) this.storedCauses.push(p);
    const key = p ? this.session.redact(describeProbe(p)) : r.request;
    const failing = `${r.method ?? ''} ${r.url ?? r.request}`;
    const title = p ? `${causeTitle(p)}, stored, then ${failing}` : probe ? causeTitle(probe) : r.request;
    const consequence = this.causes.has(key);
    this.causes.add(key);
    return { key, title: this.session.redact(title), ...(consequence ? { consequence: true } : {}) };
  }

  /** A replay record as `attribution` establishes it: the stored pets first, or whether the request alone reproduces it. */
  private attributed(replay: Replay, a: Attribution | undefined): Replay {
    if (!a || a.kind === 'unchecked' || a.kind === 'not-the-forms') return replay;
    if (a.kind !== 'stored' && a.kind !== 'after-previous') return { ...replay, reproduced: a.kind };
    const { shrinks: _s, shrinkPath: _p, path: _f, ...rest } = replay;
    const failing = this.replayOf(a.failing, { ...rest, reproduced: a.kind === 'stored' ? 'after-stored' : 'after-previous' });
    return { ...failing, before: a.before.map((p) => this.stepOf(p)) };
  }

  /** One request of a sequence, as a replay step (URL redacted, the body exact). */
  stepOf(p: Probe): ReplayStep {
    const req = requestOf(p);
    return {
      method: req.method,
      url: this.session.redact(this.session.client.urlOf(req)),
      request: this.session.redact(describeProbe(p)),
      probe: wireOf(p, 'single'),
    };
  }

  /** The replay record of a probe. */
  replayOf(probe: Probe, extra: Omit<Replay, 'request' | 'probe'>, kind: ReplayProbe['kind'] = 'single', limit?: number): Replay {
    const req = requestOf(probe);
    const replay: Replay = {
      ...extra,
      request: this.session.redact(describeProbe(probe)),
      method: req.method,
      url: this.session.redact(this.session.client.urlOf(req)),
      probe: wireOf(probe, kind, limit),
    };
    this.probes.set(replay, probe);
    return replay;
  }
}
