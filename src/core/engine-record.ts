/**
 * Which engine ran a run's rate-limit scenarios, and why: what `npm start` and
 * `npm run load` print in one line before the scenarios, and what the certificate
 * and certification.json record. The k6 the suite found is recorded whether it ran
 * or not (`--engine auto` falls back to the Node engine when k6 is refused). Pure.
 */

/**
 * How the suite stands on a k6 release (load/node/k6.ts, K6_VERIFIED): `verified` — inside the range
 * real-k6.test.ts passed on; `unverified` — a newer release of the newest verified major, which runs and says
 * so; `refused` — older than the range, a newer major, or no version printed.
 */
export type K6Status = 'verified' | 'unverified' | 'refused';

export interface EngineRecord {
  /** The engine the scenarios ran on. */
  name: 'node' | 'k6';
  /** What was asked for (--engine / ANIMAL_STORE_ENGINE). */
  requested: 'auto' | 'k6' | 'node';
  /** Why this engine, in one line (the console prints it before the scenarios). */
  reason: string;
  /** The k6 the suite found (K6_BIN, else PATH), run or not; absent when none was looked for or found. */
  k6?: {
    /** As `k6 version` printed it ("2.3.0"); absent when it printed none. */
    version?: string;
    status: K6Status;
    /** The releases the suite is verified on, in words ("k6 v1.0.0 to v2.2.x"). */
    verifiedOn: string;
  };
}

/** The k6 a record ran on, when the suite is not yet verified on it. */
export function unverifiedK6(e: EngineRecord | undefined): string | undefined {
  return e && e.name === 'k6' && e.k6 && e.k6.status === 'unverified' ? `k6 v${e.k6.version}` : undefined;
}
