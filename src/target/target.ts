/**
 * The target of a run, resolved once for every entry point: the configured
 * base URL, or the embedded reference server — started here and only here, with
 * the same limits whichever command starts it (its short world, world.ts: a
 * window of a second or a few, a day the daily scenario can spend, quotas only
 * it can use up; the enterprise limits of --rpm / --rpd).
 */
import type { App, AppOptions } from '../../reference/app.ts';
import { DAILY_KEYS, DEFAULT_ENTERPRISE, DEMO_KEYS } from '../../reference/keys.ts';
import { EMBEDDED_PLAN, type Config } from '../settings/read-config.ts';
import { EMBEDDED_KEY_SOURCE } from '../settings/plan-keys.ts';
import { DAY_MS, MINUTE_MS, PLAN_NAMES, PLANS, planLimits, type PlanLimits, type PlanName } from '../core/plans.ts';
import { EMBEDDED_RATE_PER_S, EMBEDDED_SPEC_REQUESTS, embeddedWorld, windowRatePerS, type MachineRate, type WorldPlan } from './world.ts';
import { networkInfoOf } from '../settings/network.ts';
import { embeddedTls } from './embedded-tls.ts';

export type { TargetInfo } from '../core/target-info.ts';
import type { TargetInfo, WorldMachine } from '../core/target-info.ts';

export interface Target {
  /** The configuration with the target filled in (base URL, key and limits of the embedded server). */
  config: Config;
  info: TargetInfo;
  /** The server's rate-limit window and quota day (the spec's minute and day unless configured). */
  windowMs: number;
  dayMs: number;
  /**
   * The embedded server's daily keys (reference/keys.ts DAILY_KEYS) per plan under test, each with its per-day quota:
   * the daily scenario runs on its plan's, which no other request of the run touches (world.ts sizes its quota).
   */
  dailyKeys?: Partial<Record<PlanName, DailyKey>>;
  /**
   * The embedded server's world re-sized to what this machine was measured to sustain (src/cli/machine-rate.ts), from
   * now on: before a run's rate-limit scenarios, once its conformance specs ran in the world it started with. Its
   * window, day and daily keys' needs, the run's longest wait and what the reports say of the world follow. Absent
   * for a real target, and for a world given (--window-ms, or one the caller's options set).
   */
  resize?(machine: MachineRate): void;
  /**
   * The embedded server's world made longer from now on — its window doubled, its day and daily keys' needs following —
   * when a scenario's client fell short of its rate (the machine sustained less than it was measured to): false when it
   * cannot grow (a window of a minute already: the spec's own).
   */
  widen?(): boolean;
  close(): Promise<void>;
}

/** A key used by the daily scenario only, and its per-day quota on the embedded server. */
export interface DailyKey {
  key: string;
  perDay: number;
  /** What the daily scenario needs of a quota day on it (world.ts dayNeededMs): unused, it starts at once when the day leaves that much. */
  dayNeededMs?: number;
}

/**
 * The options the embedded reference server runs with for a configuration: its short world (world.ts) for the plans
 * under test, sized to this machine when its rate was measured (`machine`) and no window was given.
 */
export function embeddedOptions(
  c: Config,
  machine?: MachineRate,
): AppOptions & {
  windowMs: number;
  dayMs: number;
  dayQuotas: Record<PlanName, number>;
  dailyKeyQuotas: Record<PlanName, number>;
  dailyNeedMs: Partial<Record<PlanName, number>>;
} {
  // The enterprise limits asked for (--rpm / --rpd), for the single key or for the enterprise plan among several.
  const asked = c.limits?.plan === 'enterprise' ? c.limits : c.plans?.find((p) => p.plan === 'enterprise')?.limits;
  const published: Record<PlanName, WorldPlan> = {
    ...PLANS,
    enterprise: {
      perMinute: asked?.perMinute || DEFAULT_ENTERPRISE.perMinute,
      perDay: asked?.perDay || DEFAULT_ENTERPRISE.perDay,
      asked: !!asked?.perDay,
    },
  };
  const underTest: PlanName[] = c.plans?.length ? c.plans.map((p) => p.plan) : [c.plan || EMBEDDED_PLAN];
  const others = PLAN_NAMES.filter((p) => underTest.indexOf(p) < 0);
  const world = embeddedWorld({
    underTest: underTest.map((p) => published[p]),
    others: others.map((p) => published[p]),
    conformance: EMBEDDED_SPEC_REQUESTS + c.explore.budget,
    windowMs: c.load.windowMs,
    dayMs: c.load.dayMs,
    measuredPerS: machine?.perS,
  });
  const dayQuotas = {} as Record<PlanName, number>;
  const dailyKeyQuotas = {} as Record<PlanName, number>;
  const dailyNeedMs: Partial<Record<PlanName, number>> = {};
  underTest.forEach(
    (p, i) => ((dayQuotas[p] = world.quotas[i]), (dailyKeyQuotas[p] = world.dailyQuotas[i]), (dailyNeedMs[p] = world.dailyNeedMs[i])),
  );
  others.forEach((p, i) => ((dayQuotas[p] = world.otherQuotas[i]), (dailyKeyQuotas[p] = world.otherDailyQuotas[i])));
  const enterprise = { perMinute: published.enterprise.perMinute, perDay: dayQuotas.enterprise };
  return { windowMs: world.windowMs, dayMs: world.dayMs, enterprise, dayQuotas, dailyKeyQuotas, dailyNeedMs };
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
  machine?: MachineRate,
): { options: AppOptions & { windowMs: number; dayMs: number }; config: Config; dailyKeys: Partial<Record<PlanName, DailyKey>> } {
  const base = embeddedOptions(c, machine);
  const options = {
    ...base,
    ...extra,
    dayQuotas: { ...base.dayQuotas, ...extra.dayQuotas },
    dailyKeyQuotas: { ...base.dailyKeyQuotas, ...extra.dailyKeyQuotas },
  };
  const plan = c.plan || EMBEDDED_PLAN;
  // Every plan gets its demo key and the limits the server runs with.
  const plans = c.plans?.map((p) => ({ ...p, key: DEMO_KEYS[p.plan], limits: embeddedLimits(p.plan, options) }));
  const limits = embeddedLimits(plan, options);
  // The daily scenario first waits for a fresh quota day: unless a longest wait was given, a run may wait a whole short day.
  const maxWaitMs = c.maxWaitGiven || !c.load.allowDaily ? c.maxWaitMs : Math.max(c.maxWaitMs, options.dayMs + options.windowMs);
  const dailyKeys: Partial<Record<PlanName, DailyKey>> = {};
  for (const p of plans?.map((x) => x.plan) ?? [plan]) {
    // The need of the world sized here: none when the server's world or the key's quota is another's (`extra`).
    const need = extra.windowMs || extra.dayMs || extra.dailyKeyQuotas?.[p] ? undefined : base.dailyNeedMs[p];
    dailyKeys[p] = { key: DAILY_KEYS[p], perDay: options.dailyKeyQuotas[p], ...(need ? { dayNeededMs: need } : {}) };
  }
  return {
    options,
    dailyKeys,
    config: {
      ...c,
      baseUrl,
      apiKey: DEMO_KEYS[plan],
      plan,
      limits,
      maxWaitMs,
      conformanceKeySource: EMBEDDED_KEY_SOURCE,
      ...(plans ? { plans } : {}),
    },
  };
}

/** What a report says of the embedded server's short world: its window, its day and the quotas of the plans under test. */
export function worldInfo(
  config: Config,
  o: { windowMs: number; dayMs: number },
  machine?: MachineRate,
  dailyKeys?: Partial<Record<PlanName, DailyKey>>,
): NonNullable<TargetInfo['world']> {
  const lanes = config.plans?.length ? config.plans.map((p) => p.limits) : config.limits ? [config.limits] : [];
  const perDay: Record<string, number> = {};
  for (const l of lanes) if (l.perDay !== undefined) perDay[l.plan] = l.perDay;
  const dailyKeyPerDay: Record<string, number> = {};
  for (const [plan, d] of Object.entries(dailyKeys ?? {})) if (d && perDay[plan] !== undefined) dailyKeyPerDay[plan] = d.perDay;
  return {
    windowMs: o.windowMs,
    dayMs: o.dayMs,
    perDay,
    ...(Object.keys(dailyKeyPerDay).length ? { dailyKeyPerDay } : {}),
    ...(machine ? { machine: worldMachine(machine) } : {}),
  };
}

const worldMachine = (m: MachineRate): WorldMachine => ({
  measuredPerS: Math.round(m.perS),
  ms: Math.round(m.ms),
  inFlight: m.inFlight,
  windowRatePerS: windowRatePerS(m.perS),
});

/**
 * The target of a run: the base URL, or the embedded server started here. `machine`: what this machine sustained
 * against the embedded server (src/cli/machine-rate.ts), measured before the run when its world is to be sized to it (the
 * certification run's rate-limit scenarios, no --window-ms): kept in the report only when the window follows from it.
 */
export async function openTarget(c: Config, extra: AppOptions = {}, machine?: MachineRate): Promise<Target> {
  if (c.baseUrl)
    return {
      config: c,
      info: { env: c.env, baseUrl: c.baseUrl, plan: c.plan, embedded: false, network: networkInfoOf(c.baseUrl, c.network) },
      windowMs: c.load.windowMs || MINUTE_MS,
      dayMs: c.load.dayMs || DAY_MS,
      close: () => Promise.resolve(),
    };
  const sized = machine && !c.load.windowMs ? machine : undefined;
  const { options, config, dailyKeys } = embeddedTarget(c, '', extra, sized);
  // The reference server (its schemas compiled as it loads) only for a run that starts it, not for one against a URL.
  const [{ buildApp }, { listen }] = await Promise.all([import('../../reference/app.ts'), import('../../reference/server.ts')]);
  const app = buildApp(options);
  // Over TLS (--tls, --mutual-tls): a CA made for this run, trusted by it only.
  const tls = c.reference.tls ? embeddedTls(c.reference.tls, config.network) : undefined;
  const network = tls ? tls.network : config.network;
  const server = await listen(app, { host: '127.0.0.1', port: 0, ...(tls ? { tls: tls.serve } : {}) }).catch((e: unknown) => {
    tls?.remove();
    throw e;
  });
  const info = { env: c.env, baseUrl: server.url, plan: config.plan, embedded: true, world: worldInfo(config, options, sized, dailyKeys) };
  const target: Target = {
    config: { ...config, baseUrl: server.url, network },
    info: { ...info, network: networkInfoOf(server.url, network, { runCa: !!tls }) },
    windowMs: options.windowMs,
    dayMs: options.dayMs,
    dailyKeys,
    close: () => server.close().finally(() => tls?.remove()),
  };
  const given = c.load.windowMs || c.load.dayMs || extra.windowMs || extra.dayMs;
  if (given) return target;
  let measured: MachineRate | undefined;
  target.resize = (m) => resizeTarget(target, app, embeddedTarget(c, '', extra, (measured = m)), { machine: m });
  target.widen = () => {
    const windowMs = 2 * target.windowMs;
    if (windowMs > MINUTE_MS) return false;
    const widened = (target.info.world?.widened ?? 0) + 1;
    resizeTarget(target, app, embeddedTarget({ ...c, load: { ...c.load, windowMs } }, '', extra), { machine: measured, widened });
    return true;
  };
  return target;
}

/**
 * Re-size an open embedded target to `sized` (embeddedTarget for the machine measured, or for a window doubled): the
 * server's window and day, the target's, its daily keys' needs, its longest wait, and its world as reports say it —
 * with the window and day the conformance specs ran in when they differ, and how many times the window was doubled.
 */
function resizeTarget(t: Target, app: App, sized: ReturnType<typeof embeddedTarget>, o: { machine?: MachineRate; widened?: number }): void {
  const { windowMs, dayMs } = sized.options;
  const before = t.info.world?.specs ?? { windowMs: t.windowMs, dayMs: t.dayMs };
  app.resize({ windowMs, dayMs });
  Object.assign(t, { windowMs, dayMs, dailyKeys: sized.dailyKeys });
  t.config.maxWaitMs = sized.config.maxWaitMs;
  const world = worldInfo(t.config, { windowMs, dayMs }, o.machine, sized.dailyKeys);
  const changed = before.windowMs !== windowMs || before.dayMs !== dayMs;
  t.info.world = { ...world, ...(changed ? { specs: before } : {}), ...(o.widened ? { widened: o.widened } : {}) };
}

/** What a report must say of the embedded server's short world: its window, its day and the quotas it was judged on. */
export function embeddedNote(t: Target): string | undefined {
  if (!t.info.embedded) return undefined;
  const c = t.config;
  const lanes = c.plans?.length ? c.plans.map((p) => p.limits) : c.limits ? [c.limits] : [];
  const limits = lanes.map((l) => `${l.plan} ${l.perMinute ?? '?'} a window and ${l.perDay ?? '?'} a day`).join(', ');
  const m = t.info.world?.machine;
  const sized = m
    ? ` Sized to this machine: it sustained ${m.measuredPerS} responses a second against the embedded server (${m.inFlight} in flight, measured for ${(m.ms / 1000).toFixed(1)} s before the rate-limit scenarios, after a warm-up), so a window asks at most ${m.windowRatePerS} a second of it${m.windowRatePerS < EMBEDDED_RATE_PER_S ? ` (three quarters of that: a busy machine gets a longer window and day, never a rate it cannot offer)` : ` (a 1 s window for every ${EMBEDDED_RATE_PER_S} of the largest limit)`}.`
    : '';
  const s = t.info.world?.specs;
  const specs = s ? ` The conformance specs ran before it in a ${s.windowMs / 1000} s window and a quota day of ${s.dayMs / 1000} s.` : '';
  const n = t.info.world?.widened;
  const widened = n
    ? ` The window was then doubled ${n === 1 ? 'once' : `${n} times`} before a second attempt of a scenario whose client fell short of its rate (that attempt's report names both windows).`
    : '';
  const daily = Object.entries(t.dailyKeys ?? {})
    .map(([plan, d]) => `${plan} ${d?.perDay} a day`)
    .join(', ');
  const own = daily
    ? ` The daily scenario runs on a demo key of its own plan that no other request of the run touches (${daily}: more than a window allows, spent in a short day), so no earlier request counts against its quota; the run's key has a quota none of the other scenarios can use up.`
    : " Each plan's per-day quota is one that only the daily scenario can use up in a short day.";
  return `The embedded reference server runs a short world: a ${t.windowMs / 1000} s window and a quota day of ${t.dayMs / 1000} s.${sized}${specs}${widened} Each plan's per-minute number applies to every such window.${own} The run is judged on those limits (${limits}).`;
}
