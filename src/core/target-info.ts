/** What a run says of its target, in its reports and to its entry points (one type for both). Pure. */
export interface TargetInfo {
  env: string;
  baseUrl: string;
  /** The plan of the key; absent when none was given for a real target (never guessed). */
  plan?: string;
  /** The target is the suite's own embedded reference server. */
  embedded: boolean;
}
