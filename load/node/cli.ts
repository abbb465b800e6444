/**
 * `npm run load -- --scenario ceiling --plan free [--engine auto|k6|node]`
 *
 * Runs one load scenario (or `--scenario all`: every default scenario in turn; the
 * default against the embedded reference server, while a real target must name them)
 * with k6 when it is on PATH (engine auto), else with the Node engine. Exit
 * codes: 0 pass, 1 a verdict failed, 2 configuration error, 3 target unreachable.
 * With no base URL (ANIMAL_STORE_ENV=local) the embedded reference server runs.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ConfigError,
  EMBEDDED_WINDOW_MS,
  loadConfig,
  loadDotenvOnce,
  VARIABLES,
  type Config,
  type Flags,
} from '../../src/config/config.ts';
import { closeTransport } from '../../src/http/transport.ts';
import { LoadConfigError, readLoadTuning, type LoadTuning } from '../lib/config.ts';
import { DEFAULT_SCENARIOS } from '../lib/scenarios.ts';
import { isScenarioName, SCENARIO_NAMES, type ScenarioName } from '../lib/types.ts';
import { runScenario, type LoadResult } from './engine.ts';
import { findK6, runWithK6 } from './k6.ts';

const LOAD_FLAGS: Record<string, string> = {
  'window-ms': 'ANIMAL_STORE_WINDOW_MS',
  'day-ms': 'ANIMAL_STORE_DAY_MS',
  'allow-daily': 'ANIMAL_STORE_LOAD_DAILY',
  'max-vus': 'ANIMAL_STORE_LOAD_MAX_VUS',
};
const OWN_FLAGS = ['scenario', 'engine', 'no-progress', 'help'];
const BOOLEAN_FLAGS = ['allow-daily', 'no-progress', 'help', 'allow-writes'];

export const USAGE = `Usage: npm run load -- --scenario <${SCENARIO_NAMES.join('|')}|a,b|all (default on the embedded server)> [--plan free|pro|business|enterprise] [--engine auto|k6|node]
  Target:  --env local|staging|production  --base-url URL  --api-key KEY  --rpm N --rpd N (enterprise)
  Load:    --window-ms N (default 60000; 5000 on the embedded reference server)  --day-ms N  --allow-daily (the daily scenario spends a day's quota)
           --max-vus N (k6 arrival-rate scenarios)  --max-requests N  --timeout-ms N  --reports-dir DIR  --no-progress
  Every flag has an environment variable (ANIMAL_STORE_*); flags win. Exit: 0 pass, 1 verdict failed, 2 config error, 3 unreachable.`;

export function parseArgs(argv: readonly string[]): Flags {
  const known = new Set<string>([...Object.values(VARIABLES), ...Object.keys(LOAD_FLAGS), ...OWN_FLAGS]);
  const flags: Flags = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const m = /^--([a-z0-9-]+)(?:=(.*))?$/.exec(a);
    if (!m || !known.has(m[1])) throw new ConfigError(`unknown argument ${JSON.stringify(a)}\n${USAGE}`);
    if (m[2] !== undefined) flags[m[1]] = m[2];
    else if (BOOLEAN_FLAGS.includes(m[1])) flags[m[1]] = true;
    else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) flags[m[1]] = argv[++i];
    else throw new ConfigError(`--${m[1]} needs a value`);
  }
  return flags;
}

function tuningFrom(flags: Flags): LoadTuning {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const [flag, name] of Object.entries(LOAD_FLAGS)) {
    const v = flags[flag];
    if (v !== undefined) env[name] = v === true ? 'yes' : String(v);
  }
  return readLoadTuning(env);
}

/**
 * Against the embedded reference server (no base URL), unless set: its short
 * window, so every scenario takes seconds, and a budget that lets the default
 * scenarios through (the server is our own; each scenario's caps still bound it).
 */
function embeddedDefaults(flags: Flags, cfg: Config, tuning: LoadTuning): { cfg: Config; tuning: LoadTuning } {
  const given = (flag: string, name: string) => flags[flag] !== undefined || process.env[name] !== undefined;
  return {
    tuning: given('window-ms', 'ANIMAL_STORE_WINDOW_MS') ? tuning : { ...tuning, windowMs: EMBEDDED_WINDOW_MS },
    cfg: given('max-requests', 'ANIMAL_STORE_MAX_REQUESTS') ? cfg : { ...cfg, maxRequests: Math.max(cfg.maxRequests, 20000) },
  };
}

async function viaK6(k6: string, name: ScenarioName, cfg: Config, t: LoadTuning): Promise<LoadResult> {
  let baseUrl = cfg.baseUrl;
  let apiKey = cfg.apiKey;
  let close: (() => Promise<void>) | undefined;
  let limits = cfg.limits;
  if (!baseUrl) {
    const [{ buildApp }, { listen }] = await Promise.all([import('../../reference/app.ts'), import('../../reference/server.ts')]);
    const ent = cfg.limits.perMinute
      ? { enterprise: { perMinute: cfg.limits.perMinute, perDay: cfg.limits.perDay || cfg.limits.perMinute * 1440 } }
      : {};
    const app = buildApp({ windowMs: t.windowMs, dayMs: t.dayMs, ...ent });
    const server = await listen(app);
    baseUrl = server.url;
    apiKey = app.keys[cfg.plan];
    close = () => server.close();
    if (cfg.plan === 'enterprise') limits = { plan: 'enterprise', ...app.options.enterprise };
  }
  const env: Record<string, string> = {
    ANIMAL_STORE_BASE_URL: baseUrl,
    ANIMAL_STORE_API_KEY: apiKey || '',
    ANIMAL_STORE_PLAN: cfg.plan,
    ANIMAL_STORE_WINDOW_MS: String(t.windowMs),
    ANIMAL_STORE_DAY_MS: String(t.dayMs),
    ANIMAL_STORE_LOAD_DAILY: t.dailyOptIn ? 'yes' : 'no',
    ANIMAL_STORE_LOAD_MAX_VUS: String(t.maxVus),
    ANIMAL_STORE_TIMEOUT_MS: String(cfg.timeoutMs),
  };
  if (cfg.plan === 'enterprise' && limits.perMinute) env.ANIMAL_STORE_RPM = String(limits.perMinute);
  if (cfg.plan === 'enterprise' && limits.perDay) env.ANIMAL_STORE_RPD = String(limits.perDay);
  try {
    return await runWithK6({ k6, scenario: name, env, reportsDir: cfg.reportsDir, plan: cfg.plan });
  } finally {
    if (close) await close();
  }
}

export async function main(argv: readonly string[]): Promise<number> {
  let flags: Flags;
  let cfg: Config;
  let tuning: LoadTuning;
  try {
    flags = parseArgs(argv);
    if (flags.help) {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    loadDotenvOnce();
    cfg = loadConfig(flags);
    tuning = tuningFrom(flags);
    if (!cfg.baseUrl) ({ cfg, tuning } = embeddedDefaults(flags, cfg, tuning));
  } catch (e) {
    if (e instanceof ConfigError || e instanceof LoadConfigError) {
      process.stderr.write(`load: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
  // No --scenario: every default scenario against the embedded reference server; a real target must name them.
  const which = flags.scenario === undefined && !cfg.baseUrl ? 'all' : String(flags.scenario ?? '');
  const asked =
    which === 'all'
      ? [...DEFAULT_SCENARIOS]
      : which
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean);
  const unknown = asked.filter((x) => !isScenarioName(x));
  if (!asked.length || unknown.length) {
    const got = flags.scenario === undefined ? 'nothing (against a real target the scenarios must be named)' : JSON.stringify(which);
    process.stderr.write(
      `load: --scenario must be one of ${SCENARIO_NAMES.join(', ')}, a comma-separated list of them, or all; got ${got}\n`,
    );
    return 2;
  }
  const names = asked as ScenarioName[];
  const engineFlag = String(flags.engine ?? 'auto');
  if (!['auto', 'k6', 'node'].includes(engineFlag)) {
    process.stderr.write(`load: --engine must be auto, k6 or node, got ${JSON.stringify(engineFlag)}\n`);
    return 2;
  }
  const k6 = engineFlag === 'node' ? undefined : findK6();
  if (engineFlag === 'k6' && !k6) {
    process.stderr.write('load: --engine k6 but no k6 executable on PATH (use --engine node or auto)\n');
    return 2;
  }
  const ac = new AbortController();
  process.once('SIGINT', () => ac.abort());
  let worst = 0;
  const rank = (c: number) => [0, 1, 3, 2][c] ?? 1; // 2 and 3 outrank a failed verdict
  try {
    for (const name of names) {
      let r: LoadResult;
      try {
        r = k6
          ? await viaK6(k6, name, cfg, tuning)
          : await runScenario(name, {
              plan: cfg.plan,
              baseUrl: cfg.baseUrl,
              apiKey: cfg.apiKey,
              perMinute: cfg.plan === 'enterprise' ? cfg.limits.perMinute : undefined,
              perDay: cfg.plan === 'enterprise' ? cfg.limits.perDay : undefined,
              windowMs: tuning.windowMs,
              dayMs: tuning.dayMs,
              allowDaily: tuning.dailyOptIn,
              reportsDir: cfg.reportsDir,
              timeoutMs: cfg.timeoutMs,
              maxBodyBytes: cfg.maxBodyBytes,
              maxRequests: cfg.maxRequests,
              progress: flags['no-progress'] ? false : 'auto',
              signal: ac.signal,
              log: (s) => process.stdout.write(s),
              warn: (s) => process.stderr.write(s),
            });
      } catch (e) {
        if (e instanceof LoadConfigError || e instanceof ConfigError) {
          process.stderr.write(`load: ${e.message}\n`);
          return 2;
        }
        throw e;
      }
      if (r.unreachable) process.stderr.write(`load: target unreachable: ${r.unreachable}\n`);
      if (r.files.json) process.stdout.write(`report: ${r.files.json}\n`);
      if (rank(r.exitCode) > rank(worst)) worst = r.exitCode;
      if (r.exitCode === 3 || ac.signal.aborted) break;
    }
  } finally {
    await closeTransport();
  }
  return worst;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e: unknown) => {
      process.stderr.write(`load: ${(e as Error).stack || String(e)}\n`);
      process.exit(1);
    },
  );
}
