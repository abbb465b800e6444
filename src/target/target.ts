/**
 * The target of a run, resolved once for every entry point: the configured
 * base URL, or the embedded reference server — started here and only here, with
 * the same limits whichever command starts it (the short window of a local run,
 * a day of 24 windows with quotas reachable in it, the enterprise limits of
 * --rpm / --rpd).
 */
import { buildApp, type AppOptions } from '../../reference/app.ts';
import { DEFAULT_ENTERPRISE, DEMO_KEYS } from '../../reference/keys.ts';
import { listen } from '../../reference/server.ts';
import { EMBEDDED_DAY_WINDOWS, EMBEDDED_PLAN, EMBEDDED_WINDOW_MS, embeddedDayQuota, type Config } from '../settings/config.ts';
import { EMBEDDED_KEY_SOURCE } from '../settings/plan-keys.ts';
import { DAY_MS, MINUTE_MS, PLANS, planLimits, type PlanLimits, type PlanName } from '../core/plans.ts';

export type { TargetInfo } from '../core/target-info.ts';
import type { TargetInfo } from '../core/target-info.ts';

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
export function embeddedOptions(c: Config): AppOptions & { windowMs: number; dayMs: number; dayQuotas: Record<PlanName, number> } {
  const windowMs = c.load.windowMs || EMBEDDED_WINDOW_MS;
  const dayMs = c.load.dayMs || EMBEDDED_DAY_WINDOWS * windowMs;
  // The enterprise limits asked for (--rpm / --rpd), for the single key or for the enterprise plan among several.
  const asked = c.limits?.plan === 'enterprise' ? c.limits : c.plans?.find((p) => p.plan === 'enterprise')?.limits;
  const perMinute = asked?.perMinute || DEFAULT_ENTERPRISE.perMinute;
  const windows = Math.floor(dayMs / windowMs);
  const quota = (p: { perMinute: number; perDay: number }) => embeddedDayQuota(p.perMinute, p.perDay, windows);
  // A short day needs reachable quotas; a per-day quota asked for with --rpd is the server's as asked.
  const enterprise = { perMinute, perDay: asked?.perDay || quota({ perMinute, perDay: DEFAULT_ENTERPRISE.perDay }) };
  const dayQuotas = { free: quota(PLANS.free), pro: quota(PLANS.pro), business: quota(PLANS.business), enterprise: enterprise.perDay };
  return { windowMs, dayMs, enterprise, dayQuotas };
}

/** A plan's limits on the embedded server. */
const embeddedLimits = (plan: PlanName, o: Pick<AppOptions, 'enterprise' | 'dayQuotas'>): PlanLimits =>
  plan === 'enterprise'
    ? planLimits('enterprise', o.enterprise ?? DEFAULT_ENTERPRISE)
    : { ...planLimits(plan), perDay: o.dayQuotas?.[plan] ?? PLANS[plan].perDay };

/** The embedded server's options for a configuration (with `extra` for faults and variants), and the configuration it serves. */
export function embeddedTarget(
  c: Config,
  baseUrl: string,
  extra: AppOptions = {},
): { options: AppOptions & { windowMs: number; dayMs: number }; config: Config } {
  const base = embeddedOptions(c);
  const options = { ...base, ...extra, dayQuotas: { ...base.dayQuotas, ...extra.dayQuotas } };
  const plan = c.plan || EMBEDDED_PLAN;
  // Every plan gets its demo key and the limits the server runs with.
  const plans = c.plans?.map((p) => ({ ...p, key: DEMO_KEYS[p.plan], limits: embeddedLimits(p.plan, options) }));
  const limits = embeddedLimits(plan, options);
  return {
    options,
    config: {
      ...c,
      baseUrl,
      apiKey: DEMO_KEYS[plan],
      plan,
      limits,
      conformanceKeySource: EMBEDDED_KEY_SOURCE,
      ...(plans ? { plans } : {}),
    },
  };
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
  const { options, config } = embeddedTarget(c, '', extra);
  const server = await listen(buildApp(options), { host: '127.0.0.1', port: 0 });
  return {
    config: { ...config, baseUrl: server.url },
    info: { env: c.env, baseUrl: server.url, plan: config.plan, embedded: true },
    windowMs: options.windowMs,
    dayMs: options.dayMs,
    close: () => server.close(),
  };
}

/** What a report must say of the embedded server's short world: its window, its day and the quotas it was judged on. */
export function embeddedNote(t: Target): string | undefined {
  if (!t.info.embedded) return undefined;
  const c = t.config;
  const lanes = c.plans?.length ? c.plans.map((p) => p.limits) : c.limits ? [c.limits] : [];
  const limits = lanes.map((l) => `${l.plan} ${l.perMinute ?? '?'} a window and ${l.perDay ?? '?'} a day`).join(', ');
  return `The embedded reference server runs a short world: a ${t.windowMs / 1000} s window and a quota day of ${t.dayMs / 1000} s, with per-day quotas capped so one such day can use them up; it was judged on those limits (${limits}).`;
}
