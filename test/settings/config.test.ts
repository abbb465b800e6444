/**
 * The one configuration path: one flag parser and one Config for every entry
 * point (npm start, npm run conformance, npm run load, npm run reference, and
 * k6's __ENV); the key refused as a flag everywhere; every flag of a command in
 * its --help; clear one-line errors; the plan never guessed for a real target.
 */
import { describe, expect, test } from 'vitest';
import { ConfigError, readConfig, requireLimits, type EnvMap } from '../../src/settings/read-config.ts';
import { parseArgs } from '../../src/config/args.ts';
import { COMMANDS, findSetting, KEY_FLAGS, SETTINGS, settingsFor } from '../../src/settings/settings.ts';
import { optionsHelp } from '../../src/config/help.ts';
import { embeddedNote, embeddedOptions, embeddedTarget, openTarget } from '../../src/target/target.ts';
import { configFrom, shownPath } from '../../src/config/command-config.ts';
import { PLANS } from '../../src/core/plans.ts';

const REMOTE: EnvMap = { ANIMAL_STORE_BASE_URL: 'https://api.example/v1', ANIMAL_STORE_API_KEY: 'k_0123456789' };

describe('flags', () => {
  test.each(COMMANDS.flatMap((c) => KEY_FLAGS.map((f) => [c, f] as const)))(
    'npm %s refuses --%s: the key is never a flag.',
    (command, flag) => {
      expect(() => parseArgs([`--${flag}`, 'secret'], command)).toThrow(/not accepted as a flag/);
      expect(() => parseArgs([`--${flag}=secret`], command)).toThrow(/not accepted as a flag/);
    },
  );

  test.each(COMMANDS)('npm %s names an unknown flag as unknown, even without a value.', (command) => {
    expect(() => parseArgs(['--bogus'], command)).toThrow(/unknown option --bogus/);
    expect(() => parseArgs(['--bogus', 'x'], command)).toThrow(/unknown option --bogus/);
  });

  test('A flag of another command is refused with the command it belongs to.', () => {
    expect(() => parseArgs(['--port', '1'], 'start')).toThrow(/npm run reference/);
    expect(() => parseArgs(['--profile', 'full'], 'load')).toThrow(/npm start/);
  });

  test('A flag that needs a value says so; booleans take an optional true or false; = works.', () => {
    expect(() => parseArgs(['--plan'], 'start')).toThrow(/--plan needs a value/);
    expect(parseArgs(['--allow-writes', '--plan', 'pro'], 'start')).toEqual({ 'allow-writes': true, plan: 'pro' });
    expect(parseArgs(['--allow-writes', 'false'], 'start')).toEqual({ 'allow-writes': 'false' });
    expect(parseArgs(['--scenario=ceiling,recovery'], 'load')).toEqual({ scenarios: 'ceiling,recovery' });
  });

  test.each(COMMANDS)('npm %s lists every flag it takes in its --help, with its variable.', (command) => {
    const help = optionsHelp(command);
    for (const s of settingsFor(command)) {
      expect(help).toContain(`--${s.flag}`);
      if (s.env) expect(help).toContain(s.env);
    }
  });

  test('Every setting is taken by some command, and flags and variables are unique.', () => {
    for (const s of SETTINGS) expect(s.commands.length).toBeGreaterThan(0);
    expect(new Set(SETTINGS.map((s) => s.flag)).size).toBe(SETTINGS.length);
    const envs = SETTINGS.map((s) => s.env).filter(Boolean);
    expect(new Set(envs).size).toBe(envs.length);
  });
});

describe('configuration', () => {
  test.each([
    [{ ANIMAL_STORE_ENV: 'prod' }, /ANIMAL_STORE_ENV/],
    [{ ANIMAL_STORE_ENV: 'staging' }, /ANIMAL_STORE_STAGING_URL/],
    [{ ANIMAL_STORE_BASE_URL: 'ftp://x/v1', ANIMAL_STORE_API_KEY: 'k' }, /http or https/],
    [{ ANIMAL_STORE_BASE_URL: 'https://u:p@x/v1', ANIMAL_STORE_API_KEY: 'k' }, /credentials/],
    [{ ANIMAL_STORE_BASE_URL: 'https://x/v1?a=1', ANIMAL_STORE_API_KEY: 'k' }, /query or fragment/],
    [{ ANIMAL_STORE_BASE_URL: 'https://x/v1' }, /ANIMAL_STORE_API_KEY is required/],
    [{ ANIMAL_STORE_PLAN: 'gold' }, /ANIMAL_STORE_PLAN/],
    [{ ANIMAL_STORE_RPM: '100' }, /only to the enterprise plan/],
    [{ ANIMAL_STORE_TIMEOUT_MS: '-5' }, /positive integer/],
    [{ ANIMAL_STORE_ALLOW_WRITES: 'maybe' }, /true or false/],
    [{ ANIMAL_STORE_SCENARIOS: 'ceiling,nope' }, /unknown rate-limit scenario/],
    [{ ANIMAL_STORE_WINDOW_MS: '100' }, /at least 500/],
  ])('%j is refused with a clear message.', (env, message) => {
    expect(() => readConfig(env, {}, 'start')).toThrow(ConfigError);
    expect(() => readConfig(env, {}, 'start')).toThrow(message);
  });

  // Each row: a setting, a bad value (or one the rest of the configuration refuses), the command, the rest of the
  // environment, and what the message says after naming where the value came from.
  test.for([
    ['plan', 'gold', 'start', {}, / must be free, pro, business, enterprise, got "gold"$/],
    ['plans', 'gold', 'load', {}, / must list free, pro, business or enterprise/],
    ['timeout-ms', '-5', 'start', {}, / must be a positive integer/],
    ['explore-budget', 'x', 'start', {}, / must be 0 or a positive integer/],
    ['allow-writes', 'maybe', 'start', {}, / must be true or false/],
    ['engine', 'k7', 'load', {}, / must be auto, k6, node/],
    ['base-url', 'ftp://x/v1', 'start', { ANIMAL_STORE_API_KEY: 'k' }, / must be an http or https URL/],
    ['window-ms', '100', 'load', {}, / must be at least 500/],
    ['day-ms', '600', 'load', { ANIMAL_STORE_WINDOW_MS: '1000' }, / must not be shorter than the window/],
    ['seed', '4294967296', 'start', {}, / must be at most 4294967295/],
    ['rpm', '100', 'start', {}, / applies only to the enterprise plan/],
    ['port', '0', 'reference', {}, / must be a positive integer/],
  ] as const)(
    'A bad --%s names the flag when given as one and its variable when set in the environment (or .env).',
    ([flag, value, command, rest, says]) => {
      const variable = findSetting(flag)?.env as string;
      const message = (run: () => unknown) => {
        try {
          run();
        } catch (e) {
          expect(e).toBeInstanceOf(ConfigError);
          return (e as Error).message;
        }
        return 'no error';
      };
      const fromFlag = message(() => configFrom([`--${flag}=${value}`], command, { ...rest }));
      expect(fromFlag).toMatch(new RegExp(`^--${flag}${says.source}`));
      expect(fromFlag).not.toContain(variable);
      const fromEnv = message(() => configFrom([], command, { ...rest, [variable]: value }));
      expect(fromEnv).toMatch(new RegExp(`^${variable}${says.source}`));
      expect(fromEnv).not.toContain(`--${flag}`);
    },
  );

  test.each([
    [
      'the flag',
      ['--env', 'staging'],
      {},
      /^--env staging needs --staging-url or ANIMAL_STORE_STAGING_URL \(or --base-url or ANIMAL_STORE_BASE_URL\)$/,
    ],
    [
      'the variable',
      [],
      { ANIMAL_STORE_ENV: 'production' },
      /^ANIMAL_STORE_ENV=production needs --production-url or ANIMAL_STORE_PRODUCTION_URL/,
    ],
  ] as const)(
    'An environment without its address names how it was chosen (%s) and both ways to give the address.',
    (_how, argv, env, says) => {
      expect(() => configFrom(argv, 'start', { ...env })).toThrow(says);
    },
  );

  test('A bad variable under a good flag is never read: the flag wins, and names itself when it is the bad one.', () => {
    expect(configFrom(['--plan', 'free'], 'start', { ANIMAL_STORE_PLAN: 'gold' }).plan).toBe('free');
    expect(() => configFrom(['--plan', 'gold'], 'start', { ANIMAL_STORE_PLAN: 'free' })).toThrow(/^--plan must be/);
    expect(() =>
      configFrom([], 'start', {
        ...REMOTE,
        ANIMAL_STORE_API_KEY: undefined,
        ANIMAL_STORE_API_KEY_FREE: 'k_f1234567',
        ANIMAL_STORE_PLAN: 'pro',
      }),
    ).toThrow(/^the plan pro \(ANIMAL_STORE_PLAN\) is not one of this run's plans/);
  });

  test('A dry run of a real target needs no key (it sends nothing), for one plan or several.', () => {
    const base = { ANIMAL_STORE_BASE_URL: 'https://x/v1' };
    expect(readConfig(base, { 'dry-run': true, plan: 'free' }, 'start')).toMatchObject({ plan: 'free', apiKey: undefined });
    expect(readConfig(base, { 'dry-run': true, plans: 'free,pro' }, 'load').plans?.map((p) => p.plan)).toEqual(['free', 'pro']);
    expect(() => readConfig(base, { plans: 'free,pro' }, 'load')).toThrow(/ANIMAL_STORE_API_KEY_FREE is not set/);
  });

  test('Production defaults to no writes and a Free-key budget; the base URL always wins; flags win over variables.', () => {
    const env = { ANIMAL_STORE_ENV: 'production', ANIMAL_STORE_PRODUCTION_URL: 'https://p.example/v1', ANIMAL_STORE_API_KEY: 'k' };
    const c = readConfig({ ...env, ANIMAL_STORE_BASE_URL: 'https://b.example/v1/' }, {}, 'start');
    expect(c).toMatchObject({ baseUrl: 'https://b.example/v1', allowWrites: false, maxRequests: 1000 });
    expect(readConfig(env, { 'allow-writes': true }, 'start').allowWrites).toBe(true);
    expect(readConfig({ ...env, ANIMAL_STORE_PLAN: 'free' }, { plan: 'pro' }, 'start').plan).toBe('pro');
  });

  test('The plan is never guessed for a real target; the embedded server defaults to pro.', () => {
    const remote = readConfig(REMOTE, {}, 'start');
    expect(remote.plan).toBeUndefined();
    expect(remote.limits).toBeUndefined();
    expect(() => requireLimits(remote)).toThrow(/--plan .*ANIMAL_STORE_PLAN/);
    expect(readConfig({}, {}, 'start').plan).toBe('pro');
  });

  test('The enterprise plan needs --rpm before any rate-limit scenario runs.', () => {
    const c = readConfig({ ...REMOTE, ANIMAL_STORE_PLAN: 'enterprise' }, {}, 'load');
    expect(() => requireLimits(c)).toThrow(/--rpm/);
    expect(requireLimits(readConfig({ ...REMOTE, ANIMAL_STORE_PLAN: 'enterprise' }, { rpm: '100' }, 'load'))).toMatchObject({
      perMinute: 100,
    });
  });

  test.each([
    ['the embedded server, its plan', {}, { plan: 'enterprise' }],
    ['the embedded server, one of several plans', {}, { plans: 'free,enterprise' }],
    [
      'a real target, one of several plans',
      {
        ANIMAL_STORE_BASE_URL: REMOTE.ANIMAL_STORE_BASE_URL,
        ANIMAL_STORE_API_KEY_FREE: 'k_f1234567',
        ANIMAL_STORE_API_KEY_ENTERPRISE: 'k_e1234567',
      },
      {},
    ],
  ] as const)('Enterprise limits are never assumed, on %s.', (_what, env, flags) => {
    expect(() => requireLimits(readConfig(env, flags, 'load'))).toThrow(/enterprise plan needs its limit: --rpm/);
    expect(() => requireLimits(readConfig(env, { ...flags, rpm: '100' }, 'load'))).not.toThrow();
  });

  test('k6 reads the same variables through the same reader (its __ENV is an environment map).', () => {
    const k6 = readConfig(
      { ...REMOTE, ANIMAL_STORE_PLAN: 'pro', ANIMAL_STORE_WINDOW_MS: '5000', ANIMAL_STORE_LOAD_DAILY: 'yes' },
      {},
      'load',
    );
    expect(k6).toMatchObject({ plan: 'pro', load: { windowMs: 5000, allowDaily: true }, limits: { perMinute: 300, perDay: 10000 } });
  });
});

describe('a key per plan', () => {
  const PER_PLAN: EnvMap = {
    ...REMOTE,
    ANIMAL_STORE_API_KEY: undefined,
    ANIMAL_STORE_API_KEY_FREE: 'k_free_123456',
    ANIMAL_STORE_API_KEY_PRO: 'k_pro_1234567',
  };

  test("Keys per plan select the plans (in the table order); conformance runs on the fastest plan's key, or the one --plan names, and says which.", () => {
    const c = readConfig(PER_PLAN, {}, 'start');
    expect(c.plans?.map((p) => [p.plan, p.keySource])).toEqual([
      ['free', 'ANIMAL_STORE_API_KEY_FREE'],
      ['pro', 'ANIMAL_STORE_API_KEY_PRO'],
    ]);
    expect(c).toMatchObject({ plan: 'pro', apiKey: PER_PLAN.ANIMAL_STORE_API_KEY_PRO, conformanceKeySource: 'ANIMAL_STORE_API_KEY_PRO' });
    expect(() => readConfig(PER_PLAN, { plan: 'business' }, 'start')).toThrow(
      /plan business .* not one of this run's plans with a key: free, pro/,
    );
    const named = readConfig(PER_PLAN, { plan: 'free' }, 'start');
    expect(named).toMatchObject({ plan: 'free', apiKey: 'k_free_123456', conformanceKeySource: 'ANIMAL_STORE_API_KEY_FREE' });
  });

  test('--plans picks among them, and a plan without its key is refused for a real target.', () => {
    expect(readConfig(PER_PLAN, { plans: 'pro' }, 'load').plans?.map((p) => p.plan)).toEqual(['pro']);
    expect(() => readConfig(PER_PLAN, { plans: 'pro,business' }, 'load')).toThrow(/ANIMAL_STORE_API_KEY_BUSINESS is not set/);
    expect(() => readConfig(PER_PLAN, { plans: 'gold' }, 'load')).toThrow(/--plans must list/);
  });

  test('One key given for two plans is refused: each plan is judged on a key nothing else uses.', () => {
    const env = { ...PER_PLAN, ANIMAL_STORE_API_KEY_PRO: 'k_free_123456' };
    expect(() => readConfig(env, {}, 'load')).toThrow(/ANIMAL_STORE_API_KEY_PRO is the same key as another plan's/);
  });

  test('The embedded server needs no key per plan (its demo keys), and enterprise takes --rpm.', () => {
    const c = readConfig({}, { plans: 'free,enterprise', rpm: '50' }, 'load');
    expect(c.plans?.map((p) => [p.plan, p.keySource, p.limits.perMinute])).toEqual([
      ['free', 'the embedded server', 60],
      ['enterprise', 'the embedded server', 50],
    ]);
  });

  test('The embedded server runs the enterprise plan of a multi-plan run with the --rpm / --rpd asked for.', () => {
    const c = readConfig({}, { plans: 'free,enterprise', rpm: '50', rpd: '900' }, 'load');
    expect(embeddedOptions(c).enterprise).toEqual({ perMinute: 50, perDay: 900 });
  });

  test.each(['free', 'pro', 'business'] as const)(
    "The embedded server's %s daily key's quota day can be used up by the daily scenario, the run's key's not by the rest of a run, and the run may wait for it.",
    (plan) => {
      const c = readConfig({}, { plan }, 'start');
      const o = embeddedOptions(c);
      const perMinute = c.limits?.perMinute as number;
      // The daily scenario paces at 90% of the limit from the start of a day, with two limits' worth of slack: its
      // pace and a window plus the judges' 2 s tolerance (its last 429 must ask to wait beyond them) fit in the day.
      // It runs on the daily key, whose quota is more than a window allows.
      expect(o.dailyKeyQuotas[plan]).toBeGreaterThan(perMinute);
      const paceWindows = Math.ceil((o.dailyKeyQuotas[plan] + 2 * perMinute) / Math.floor(0.9 * perMinute)) + 1;
      expect((paceWindows + 1) * o.windowMs + o.windowMs + 2000).toBeLessThanOrEqual(o.dayMs);
      // The conformance run (about 100 requests and the exploration's 400) and the per-minute scenarios (under 9
      // windows' worth) cannot use it up — or the quota is the plan's published one.
      expect(o.dayQuotas[plan] === PLANS[plan].perDay || o.dayQuotas[plan] >= 500 + 9 * perMinute).toBe(true);
      const t = embeddedTarget(c, 'http://127.0.0.1:1/v1');
      expect(t.config.maxWaitMs).toBeGreaterThanOrEqual(o.dayMs);
      expect(readConfig({}, { plan, 'max-wait-ms': '5000' }, 'start').maxWaitMs).toBe(5000);
      expect(embeddedTarget(readConfig({}, { plan, 'max-wait-ms': '5000' }, 'start'), 'http://x/v1').config.maxWaitMs).toBe(5000);
    },
  );

  test('The embedded server allows its daily scenario by default (its key is its own); a real target only when asked.', () => {
    expect(readConfig({}, {}, 'start').load.allowDaily).toBe(true);
    expect(readConfig({}, { 'allow-daily': 'false' }, 'start').load.allowDaily).toBe(false);
    expect(readConfig(REMOTE, { plan: 'pro' }, 'start').load.allowDaily).toBe(false);
    expect(readConfig(REMOTE, { plan: 'pro', 'allow-daily': true }, 'start').load.allowDaily).toBe(true);
  });

  test("A report on the embedded server says which window, day and quotas it was judged on; a real target's says nothing of it.", async () => {
    const t = await openTarget(readConfig({}, { plans: 'free,pro' }, 'start'));
    try {
      expect(embeddedNote(t)).toBe(
        "The embedded reference server runs a short world: a 1 s window and a quota day of 20 s. Each plan's per-minute number applies to every such window. The daily scenario runs on a demo key of its own plan that no other request of the run touches (free 120 a day, pro 600 a day: more than a window allows, spent in a short day), so no earlier request counts against its quota; the run's key has a quota none of the other scenarios can use up. The run is judged on those limits (free 60 a window and 1000 a day, pro 300 a window and 3300 a day).",
      );
      expect(t.info.world).toEqual({
        windowMs: 1000,
        dayMs: 20000,
        perDay: { free: 1000, pro: 3300 },
        dailyKeyPerDay: { free: 120, pro: 600 },
      });
    } finally {
      await t.close();
    }
    const remote = await openTarget(readConfig(REMOTE, { plan: 'free' }, 'start'));
    expect([embeddedNote(remote), remote.info.world]).toEqual([undefined, undefined]);
  });

  test('A key per plan is never a flag either.', () => {
    expect(() => parseArgs(['--api-key-pro', 'x'], 'load')).toThrow(/not accepted as a flag/);
  });
});

describe('paths', () => {
  test('A report path is shown relative to the working directory inside it, and absolute outside it.', () => {
    expect(shownPath(`${process.cwd()}/reports/index.html`)).toBe('reports/index.html');
    expect(shownPath('/tmp/elsewhere/index.html')).toBe('/tmp/elsewhere/index.html');
    expect(shownPath('reports')).toBe('reports');
  });
});
