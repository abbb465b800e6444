/**
 * What a certification run does, by profile and environment:
 * - quick (default): conformance, then the ceiling and recovery scenarios — on
 *   the embedded server and staging; in production only the scenarios named
 *   with --scenarios (the nightly workflow names ceiling,recovery);
 * - full: writes on, conformance, then ceiling, recovery, sustained and
 *   overload (and daily with --allow-daily): the profile that can certify every
 *   MUST requirement.
 * --scenarios always wins; --only keeps one half.
 */
import { ConfigError, requireLimits, type Config } from '../settings/config.ts';
import { FULL_SCENARIOS, QUICK_SCENARIOS, type ScenarioName } from '../core/scenarios.ts';

export interface Profile {
  name: 'quick' | 'full';
  conformance: boolean;
  scenarios: ScenarioName[];
  /** The configuration the profile runs with (the full profile turns writes on). */
  config: Config;
  notes: string[];
}

export function profileFor(config: Config): Profile {
  const name = config.certify.profile;
  const notes: string[] = [];
  let c = config;
  if (name === 'full') {
    if (config.writesGiven && !config.allowWrites)
      throw new ConfigError(
        'the full profile creates pets (it exercises every MUST requirement): it cannot run with ANIMAL_STORE_ALLOW_WRITES=false',
      );
    c = { ...config, allowWrites: true };
  }
  let scenarios: ScenarioName[];
  if (config.load.scenarios) scenarios = [...config.load.scenarios];
  else if (name === 'full') scenarios = [...FULL_SCENARIOS, ...(config.load.allowDaily ? (['daily'] as ScenarioName[]) : [])];
  else if (config.env === 'production') {
    scenarios = [];
    notes.push('Production, quick profile: no rate-limit scenario runs unless named with --scenarios (e.g. --scenarios ceiling,recovery).');
  } else scenarios = [...QUICK_SCENARIOS];
  if (config.certify.only === 'conformance') scenarios = [];
  if (name === 'full' && !scenarios.includes('daily'))
    notes.push("RL-DAILY-QUOTA is certified only with --allow-daily (the daily scenario spends the key's whole daily quota).");
  if (scenarios.includes('daily')) notes.push("The daily scenario spends a whole day's quota of the key; it was explicitly allowed.");
  if (!c.allowWrites)
    notes.push('Writes are off: specs that create pets are not exercised (--allow-writes, or --profile full, exercises them).');
  // The plan is never guessed: scenarios refuse to start without one (exit 2), before anything is sent.
  if (scenarios.length) requireLimits(c);
  return { name, conformance: config.certify.only !== 'load', scenarios, config: c, notes };
}
