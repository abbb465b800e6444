/** Types of k6-emulator.mjs (plain JavaScript: the k6 shim's worker thread runs it as it is). What it returns is a K6Run (k6-virtual.ts). */
export declare function runBundle(code: string, env: Record<string, string>, io: object, opts?: { segment?: string }): unknown;
export declare function runBundles(
  code: string,
  env: Record<string, string>,
  io: object,
  segments: readonly (string | undefined)[],
): unknown[];
