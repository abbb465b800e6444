/**
 * The target of a run, resolved once for every entry point: the configured
 * base URL, or the embedded reference server — started here and only here, with
 * the same limits whichever command starts it (the short window of a local run,
 * a day of 60 windows, the enterprise limits of --rpm / --rpd).
 */
import { buildApp, type AppOptions } from '../../reference/app.ts';
import { DEFAULT_ENTERPRISE, DEMO_KEYS } from '../../reference/keys.ts';
import { listen } from '../../reference/server.ts';
import { EMBEDDED_DAY_WINDOWS, EMBEDDED_PLAN, EMBEDDED_WINDOW_MS, MINUTE_MS, DAY_MS, type Config } from '../core/config.ts';
import { planLimits } from '../core/plans.ts';

export interface TargetInfo {
  env: string;
  baseUrl: string;
  /** The plan, or undefined when none was given for a real target. */
  plan?: string;
  embedded: boolean;
}

export interface Target {
  /** The configuration with the target filled in (base URL, key and limits of the embedded server). */
  config: Config;
  info: TargetInfo;
  /** The server's rate-limit window and quota day (the spec's minute and day unless configured). */
  windowMs: number;
  dayMs: number;
  close(): Promise<void>;
}

/** The options the embedded reference server runs with for a configuration. */
export function embeddedOptions(c: Config): AppOptions & { windowMs: number; dayMs: number } {
  const windowMs = c.load.windowMs || EMBEDDED_WINDOW_MS;
  // The enterprise limits asked for (--rpm / --rpd), for the single key or for the enterprise plan among several.
  const asked = c.limits?.plan === 'enterprise' ? c.limits : c.plans?.find((p) => p.plan === 'enterprise')?.limits;
  const enterprise = {
    perMinute: asked?.perMinute || DEFAULT_ENTERPRISE.perMinute,
    perDay: asked?.perDay || DEFAULT_ENTERPRISE.perDay,
  };
  return { windowMs, dayMs: c.load.dayMs || EMBEDDED_DAY_WINDOWS * windowMs, enterprise };
}

export async function openTarget(c: Config, extra: AppOptions = {}): Promise<Target> {
  if (c.baseUrl)
    return {
      config: c,
      info: { env: c.env, baseUrl: c.baseUrl, plan: c.plan, embedded: false },
      windowMs: c.load.windowMs || MINUTE_MS,
      dayMs: c.load.dayMs || DAY_MS,
      close: async () => undefined,
    };
  const options = { ...embeddedOptions(c), ...extra };
  const server = await listen(buildApp(options), { host: '127.0.0.1', port: 0 });
  const plan = c.plan || EMBEDDED_PLAN;
  const limits = plan === 'enterprise' ? planLimits('enterprise', options.enterprise) : planLimits(plan);
  // Several plans: each gets its demo key, and enterprise the limits the server runs with.
  const plans = c.plans?.map((p) => ({
    ...p,
    key: DEMO_KEYS[p.plan],
    limits: p.plan === 'enterprise' ? planLimits('enterprise', options.enterprise) : p.limits,
  }));
  const config: Config = { ...c, baseUrl: server.url, apiKey: DEMO_KEYS[plan], plan, limits, ...(plans ? { plans } : {}) };
  return {
    config,
    info: { env: c.env, baseUrl: server.url, plan, embedded: true },
    windowMs: options.windowMs,
    dayMs: options.dayMs,
    close: () => server.close(),
  };
}
