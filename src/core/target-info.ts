/** What a run says of its target, in its reports and to its entry points (one type for both). Pure. */
export interface TargetInfo {
  env: string;
  baseUrl: string;
  /** The plan of the key; absent when none was given for a real target (never guessed). */
  plan?: string;
  /** The target is the suite's own embedded reference server. */
  embedded: boolean;
  /**
   * The embedded server's short world (absent for a real target): its rate-limit window and quota day, in ms, and
   * the per-day quota of each plan under test — what the run was judged on instead of the spec's minute and day.
   */
  world?: { windowMs: number; dayMs: number; perDay: Record<string, number> };
}
