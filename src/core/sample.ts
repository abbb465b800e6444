/**
 * What the rate-limit rules read: one request of a scenario and what came back
 * (`Sample`), and the options a judgement depends on (`JudgeOptions`). Both
 * load engines record samples; the conformance checks build the same facts from
 * their exchanges. Pure (bundled for k6).
 */
import type { HeaderBag } from './ratelimit.ts';
import type { PlanName } from './plans.ts';

/** The phase of a scenario a request belonged to. */
export type PhaseName = 'preflight' | 'ceiling' | 'probe' | 'paced' | 'daily';

/** The operation of a scenario's request (load/lib/operations.ts). */
export type LoadOp = 'listPets' | 'getPet' | 'createPet';

/** A read-back page (listPets of one status): how many animals it held of how many asked, and the refused creates it listed. */
export interface PageFacts {
  status: string;
  size: number;
  limit: number;
  /** Names of this run's creates refused with 429 that the page listed. */
  listed: string[];
}

/** One request and what came back: the unit every rate-limit rule reads. */
export interface Sample {
  /** Sequence number, 0-based, in the order sent. */
  seq: number;
  phase: PhaseName;
  /** Epoch ms when the request was sent. */
  sentAt: number;
  /** Epoch ms when the response (or the transport failure) was received. */
  t: number;
  /** HTTP status; 0 when no response came (transport failure). */
  status: number;
  headers: HeaderBag;
  /** First bytes of the body. */
  body?: string;
  /** Transport failure kind and message, when status is 0. */
  error?: string;
  /**
   * How long, in ms, the client itself ran late while this request was out (load/node/lateness.ts: its timers fired
   * late — its process off the CPU, its event loop busy). Measured by the Node engine; absent when none, or not measured.
   */
  lateMs?: number;
  /** The operation (absent: listPets). */
  op?: LoadOp;
  /** The path and query after the base URL, when not `/pets?limit=1`. */
  path?: string;
  /** createPet: the unique name of the pet it sent (a refused one is looked for by it), and the body it sent. */
  name?: string;
  requestBody?: string;
  /** A read-back page's facts (the page itself is not kept: a sample keeps 2 KiB of a body). */
  page?: PageFacts;
}

/** What the judgements of a rate-limit run depend on. */
export interface JudgeOptions {
  plan: PlanName;
  /** Requests per window the plan allows (X-RateLimit-Limit expected). */
  limit: number;
  /** Requests per day, when known. */
  perDay?: number;
  /** The rate-limit window in ms (60 000 for the spec's per-minute limits). */
  windowMs: number;
  /** The quota window in ms (86 400 000). */
  dayMs: number;
  /** Tolerance when comparing Retry-After with X-RateLimit-Reset, and a wait with a window. */
  toleranceMs: number;
  /** Fraction of the ceiling the sustained scenario runs at. */
  sustainedFraction: number;
  /** Multiple of the ceiling the overload scenario runs at (above 2). */
  overloadFactor: number;
  /**
   * The run saw only its share of the scenario's requests (several k6 VUs, or one
   * share of a distributed run): what needs every request on the key is not judged.
   */
  partialView?: boolean;
  /**
   * The key is used by nothing but this run (a key per plan): requests counted on it
   * that were not this scenario's own are a finding, not another client to credit.
   */
  dedicatedKey?: boolean;
  /** Where the requests went (for the evidence of a judgement): method and URL. */
  requestUrl?: string;
  /**
   * Requests this run sent on the key before the scenario (the conformance run, the exploration phase, earlier
   * scenarios), whichever quota day they fell in: the daily quota may have been partly spent by them.
   */
  earlierRequests?: number;
  /**
   * The scenario started on a fresh quota day of a server whose days are known (the embedded reference server,
   * whose keys only this run uses): nothing else counts against the day it spends.
   */
  freshQuotaDay?: boolean;
  /**
   * No 429 came on the key earlier in this run (the orchestrator says so): before the scenario's own first 429 the
   * client had sent nothing after a 429, so a ban on that 429 was not earned (the spec's ban is for "a client that
   * keeps sending requests after a 429"). Unknown (a bundle run alone): a ban may have been earned.
   */
  noEarlier429?: boolean;
  /**
   * Writes are allowed (the configuration's allowWrites): the ceiling sends a createPet at the limit and reads a
   * refused one back. Off (production, unless allowed): nothing is created, and what a refused create leaves is not judged.
   */
  writes?: boolean;
  /**
   * With writes, the ceiling leaves its POST at the limit to the recovery that follows it on the key (whose probe reads
   * it back at no extra request): false. Absent: the ceiling sends one.
   */
  postAtLimit?: boolean;
}
