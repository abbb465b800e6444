/**
 * Run profiles: what a certification run does for each environment.
 * - local: the embedded reference server (short window so the rate-limit
 *   scenarios take seconds), writes on, ceiling and recovery.
 * - staging: writes on, ceiling and recovery included.
 * - production: writes off unless ANIMAL_STORE_ALLOW_WRITES=true, a hard request
 *   budget, rate-limit scenarios only when asked for by name.
 */
import { ConfigError, type Config } from '../config/config.ts';

export type LoadScenario = 'ceiling' | 'recovery' | 'sustained' | 'overload' | 'daily';
export const DEFAULT_SCENARIOS: readonly LoadScenario[] = ['ceiling', 'recovery'];
const KNOWN: readonly LoadScenario[] = ['ceiling', 'recovery', 'sustained', 'overload', 'daily'];

export { EMBEDDED_WINDOW_MS } from '../config/config.ts';

export interface Profile {
  conformance: boolean;
  scenarios: LoadScenario[];
  notes: string[];
}

export function parseScenarios(raw: string | undefined): LoadScenario[] | undefined {
  if (raw === undefined) return undefined;
  const list = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = list.filter((s) => !KNOWN.includes(s as LoadScenario));
  if (bad.length) throw new ConfigError(`unknown load scenario(s) ${bad.join(', ')}; known: ${KNOWN.join(', ')}`);
  return list as LoadScenario[];
}

export function profileFor(config: Config, opts: { only?: string; scenarios?: LoadScenario[] }): Profile {
  if (opts.only !== undefined && opts.only !== 'conformance' && opts.only !== 'load')
    throw new ConfigError(`--only must be conformance or load, got ${JSON.stringify(opts.only)}`);
  const notes: string[] = [];
  let scenarios: LoadScenario[];
  if (opts.scenarios) scenarios = opts.scenarios;
  else if (config.env === 'production') {
    scenarios = [];
    notes.push('Production profile: rate-limit scenarios are off unless named with --scenarios (e.g. --scenarios ceiling,recovery).');
  } else scenarios = [...DEFAULT_SCENARIOS];
  if (scenarios.includes('daily')) notes.push("The daily scenario spends a whole day's quota of the key; it was asked for by name.");
  if (scenarios.includes('recovery') && !scenarios.includes('ceiling')) scenarios.unshift('ceiling');
  if (!config.allowWrites)
    notes.push('Writes are off: specs that create pets are reported as skipped (set ANIMAL_STORE_ALLOW_WRITES=true to include them).');
  notes.push(`Request budget for the whole run: ${config.maxRequests} (ANIMAL_STORE_MAX_REQUESTS).`);
  return {
    conformance: opts.only !== 'load',
    scenarios: opts.only === 'conformance' ? [] : scenarios,
    notes,
  };
}
