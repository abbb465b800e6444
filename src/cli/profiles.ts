/**
 * What a certification run does, by profile and environment:
 * - quick (default): conformance, then the ceiling and recovery scenarios on
 *   staging or a base URL; in production only the scenarios named with
 *   --scenarios (the nightly workflow names ceiling,recovery); on the embedded
 *   server every scenario, the daily one included — its short world makes them
 *   cheap, and its key's quota is the suite's own — so `npm start` certifies;
 * - full: writes on, conformance, then ceiling, recovery, sustained and
 *   overload (and daily with --allow-daily, the embedded server's default):
 *   the profile that can certify every MUST requirement of a real target.
 * --scenarios always wins; --only keeps one half.
 */
import { ConfigError, requireLimits, type Config } from '../settings/read-config.ts';
import { FULL_SCENARIOS, QUICK_SCENARIOS, type ScenarioName } from '../core/scenarios.ts';

export interface Profile {
  name: 'quick' | 'full';
  conformance: boolean;
  scenarios: ScenarioName[];
  /** The configuration the profile runs with (the full profile turns writes on). */
  config: Config;
  notes: string[];
}

/** Every scenario the configuration allows: the per-minute ones, and the daily one when allowed. */
const every = (c: Config): ScenarioName[] => [...FULL_SCENARIOS, ...(c.load.allowDaily ? (['daily'] as ScenarioName[]) : [])];

function scenariosOf(config: Config, notes: string[]): ScenarioName[] {
  const name = config.certify.profile;
  if (config.load.scenarios) return [...config.load.scenarios];
  if (name === 'full') return every(config);
  if (!config.baseUrl) {
    notes.push(
      config.load.allowDaily
        ? "On the embedded reference server the quick profile runs every rate-limit scenario: its short world makes them take seconds, and the daily one spends only its own demo key's quota."
        : 'On the embedded reference server the quick profile runs every per-minute scenario (its short world makes them take seconds); the daily one was refused (--allow-daily false).',
    );
    return every(config);
  }
  if (config.env === 'production') {
    notes.push('Production, quick profile: no rate-limit scenario runs unless named with --scenarios (e.g. --scenarios ceiling,recovery).');
    return [];
  }
  return [...QUICK_SCENARIOS];
}

export function profileFor(config: Config): Profile {
  const name = config.certify.profile;
  const notes: string[] = [];
  let c = config;
  if (name === 'full') {
    if (config.writesGiven && !config.allowWrites)
      throw new ConfigError(
        'the full profile creates pets (it exercises every MUST requirement): it cannot run with writes off (--allow-writes false or ANIMAL_STORE_ALLOW_WRITES=false)',
      );
    c = { ...config, allowWrites: true };
  }
  const scenarios = config.certify.only === 'conformance' ? [] : scenariosOf(config, notes);
  const everyOther = FULL_SCENARIOS.every((s) => scenarios.includes(s));
  if (everyOther && !scenarios.includes('daily'))
    notes.push("RL-DAILY-QUOTA is certified only with --allow-daily (the daily scenario spends the key's whole daily quota).");
  if (scenarios.includes('daily'))
    notes.push(
      config.baseUrl
        ? "The daily scenario spends a whole day's quota of the key; it was explicitly allowed."
        : "The daily scenario spends a whole quota day of the embedded server's demo key: the suite's own key, on a server that lives for the run.",
    );
  if (!c.allowWrites)
    notes.push('Writes are off: specs that create pets are not exercised (--allow-writes, or --profile full, exercises them).');
  // The plan is never guessed: scenarios refuse to start without one (exit 2), before anything is sent.
  if (scenarios.length) requireLimits(c);
  return { name, conformance: config.certify.only !== 'load', scenarios, config: c, notes };
}
