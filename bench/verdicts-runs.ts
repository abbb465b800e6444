/**
 * The runs of `npm run bench:verdicts` (bench/verdicts.ts), named from a checkout's own tables — its fault modes
 * (reference/faults.ts, held-out ones included), its valid variants (reference/variants.ts, each value that is not the
 * default, as `npm run reference -- --variants name=value` takes it), the valid servers of its self-tests
 * (bench/support/valid-servers.ts) — so that two checkouts with the same tables get the same runs, sorted by name.
 *
 * Groups:
 * - conformance: the whole conformance suite in process at exploration seed 1 (the embedded budget), on simulated
 *   time; on real sockets for the hostile servers and the wire variants (what only a socket shows);
 * - load-node, load-k6: every per-minute scenario (ceiling, recovery, sustained, overload) on simulated time against
 *   every server but the hostile ones, the daily quota and two plans side by side against the rate-limit servers —
 *   on the Node engine, and on the k6 bundles in the emulator;
 * - k6-real: the real k6 binary against the rate-limit servers, on real sockets (2 s windows: slow, and timing-bound);
 * - cli: `npm start -- --only conformance` in a child process against the conformance servers (any checkout with
 *   that command: the way to collect one without the in-process APIs; its JSON report keeps a sample of findings).
 */
import type { AppOptions } from '../reference/options.ts';
import type { RunSettings } from './verdicts-model.ts';
import type { Tables } from './verdicts-checkout.ts';

export const GROUPS = ['conformance', 'load-node', 'load-k6', 'k6-real', 'cli'] as const;
export type Group = (typeof GROUPS)[number];
/** The default sweep: deterministic, in process, every server on both engines. */
export const DEFAULT_GROUPS: readonly Group[] = ['conformance', 'load-node', 'load-k6'];

export type LoadKind = 'load' | 'daily' | 'plans';
export type Kind = 'conformance' | 'hostile' | LoadKind;
type Plan = 'free' | 'pro' | 'business' | 'enterprise';

/** Server options as JSON (a bigint `firstId` as a decimal string). */
export type AppJson = Omit<AppOptions, 'firstId' | 'now'> & { firstId?: string };

export interface RunSpec extends RunSettings {
  group: Group;
  kind: Kind;
  app: AppJson;
  /** The key's plan (conformance); a load run's lanes are fixed by its kind. */
  plan: Plan;
  /** ANIMAL_STORE_* settings of a conformance run. */
  env: Record<string, string>;
  /** Real sockets and the real clock. */
  real?: boolean;
}

export function appOptions(a: AppJson): AppOptions {
  const { firstId, ...rest } = a;
  return { ...rest, ...(firstId ? { firstId: BigInt(firstId) } : {}) };
}

function appJson(a: AppOptions): AppJson {
  const { firstId, now: _now, ...rest } = a;
  return { ...rest, ...(firstId !== undefined ? { firstId: String(firstId) } : {}) };
}

/** `limiter=sliding`, `contentType=charset,noDate=true`, `firstId=1`: a stable name for a server's options. */
export function slug(a: AppOptions): string {
  const flat = (o: object): string[] =>
    Object.entries(o).flatMap(([k, v]) => (v && typeof v === 'object' ? flat(v as object) : [`${k}=${String(v)}`]));
  const { variants, ...rest } = a;
  return [...flat(rest), ...flat(variants ?? {})].sort().join(',');
}

interface Server {
  /** fault/<name>, hostile/<name>, valid/<options>, reference, plan=free,… */
  id: string;
  app: AppOptions;
  plan?: Plan;
  env?: Record<string, string>;
  real?: boolean;
}

/** Values given to the variants that take a number. */
const NUMBERS: Record<string, string> = { retryAfterPaddingS: '1', nameMaxLength: '64', latencyMs: '40', latencyJitterMs: '20' };

/** Every valid variant alone (each value but the default), then the valid servers of the self-tests; one per option set. */
export function validServers(t: Tables): Server[] {
  const defaults = t.options.DEFAULT_VARIANTS as unknown as Record<string, unknown>;
  const singles = t.variants.VARIANTS.flatMap((v) => {
    const values = v.values[0] === 'N' ? [NUMBERS[v.name] ?? '1'] : v.values.filter((x) => x !== defaults[v.name]);
    return values.map((x): AppOptions => ({ variants: t.variants.parseVariants(`${v.name}=${x}`) }));
  });
  const all = [{}, ...singles, ...t.valid.VALID_SERVERS.map((s) => s.options)];
  const byId = new Map<string, Server>();
  for (const app of all) {
    const id = slug(app) ? `valid/${slug(app)}` : 'reference';
    if (!byId.has(id)) byId.set(id, { id, app, real: !!app.variants?.wire && Object.keys(app.variants.wire).length > 0 });
  }
  return [...byId.values()];
}

function conformanceServers(t: Tables): Server[] {
  const { FAULTS, FAULT_NAMES } = t.faults;
  const faults = FAULT_NAMES.map((f): Server =>
    FAULTS[f].suite === 'hostile'
      ? { id: `hostile/${f}`, app: { faults: [f] }, real: true, env: { ANIMAL_STORE_TIMEOUT_MS: '1000' } }
      : { id: `fault/${f}`, app: { faults: [f], windowMs: 3000 } },
  );
  const extra: Server[] = [
    ...(['fixed', 'token-bucket'] as const).map((limiter) => ({
      id: `plan=free,limiter=${limiter}`,
      app: { variants: { limiter } },
      plan: 'free' as const,
    })),
    { id: 'writes=off', app: {}, env: { ANIMAL_STORE_ALLOW_WRITES: 'false' } },
  ];
  return [...faults, ...validServers(t), ...extra];
}

/** The valid servers of test/load/engines-agree.test.ts: the rate-limit variants. */
const RATE_LIMIT_VALID: AppOptions[] = [
  {},
  { variants: { retryAfter: 'http-date' } },
  { variants: { limiter: 'sliding' } },
  { variants: { limiter: 'token-bucket' } },
  { variants: { banOnEarlyRetry: true } },
  { variants: { rateLimitHeaders: 'day' } },
  { variants: { retryAfterPaddingS: 1, wire: { noDate: true, contentType: 'problem', oddHeaders: true } } },
];
const named = (app: AppOptions): Server => ({ id: slug(app) ? `valid/${slug(app)}` : 'reference', app });

/** Each kind's servers: `wide` — every server but the hostile ones for the per-minute scenarios; else the rate-limit ones. */
export function loadServers(t: Tables, wide: boolean): Record<LoadKind, Server[]> {
  const { FAULTS, FAULT_NAMES } = t.faults;
  const isDaily = (f: string) => FAULTS[f as keyof typeof FAULTS].expect.requirement === 'RL-DAILY-QUOTA';
  const fault = (f: string): Server => ({ id: `fault/${f}`, app: { faults: [f as (typeof FAULT_NAMES)[number]] } });
  const load = FAULT_NAMES.filter((f) => FAULTS[f].suite === 'load' || FAULTS[f].alsoSuite === 'load');
  const others = FAULT_NAMES.filter((f) => FAULTS[f].suite === 'conformance' && !isDaily(f) && !FAULTS[f].sideBySide);
  const perMinute = [
    ...RATE_LIMIT_VALID.map(named),
    ...load.filter((f) => !isDaily(f) && !FAULTS[f].sideBySide).map(fault),
    ...(wide ? [...validServers(t), ...others.map(fault)] : []),
  ];
  const unique = (list: Server[]) => [...new Map(list.map((s) => [s.id, s])).values()];
  return {
    load: unique(perMinute),
    daily: [...RATE_LIMIT_VALID.map(named), ...load.filter(isDaily).map(fault)],
    plans: [...RATE_LIMIT_VALID.map(named), ...load.filter((f) => FAULTS[f].sideBySide).map(fault)],
  };
}

function conformanceRuns(t: Tables, group: 'conformance' | 'cli'): RunSpec[] {
  return conformanceServers(t).map((s) => ({
    name: `${group}/${s.id}`,
    group,
    kind: s.id.startsWith('hostile/') ? 'hostile' : 'conformance',
    app: appJson(s.app),
    plan: s.plan ?? 'business',
    env: { ...s.env },
    ...(s.real || group === 'cli' ? { real: true } : {}),
  }));
}

function loadRuns(t: Tables, group: 'load-node' | 'load-k6' | 'k6-real'): RunSpec[] {
  const servers = loadServers(t, group !== 'k6-real');
  return (Object.keys(servers) as LoadKind[]).flatMap((kind) =>
    servers[kind].map((s) => ({
      name: `${group}/${kind === 'load' ? '' : `${kind}/`}${s.id}`,
      group,
      kind,
      app: appJson(s.app),
      plan: kind === 'plans' ? ('free' as const) : ('enterprise' as const),
      env: {},
      ...(group === 'k6-real' ? { real: true } : {}),
    })),
  );
}

export function runsOf(t: Tables, groups: readonly Group[]): RunSpec[] {
  const all = groups.flatMap((g) => (g === 'conformance' || g === 'cli' ? conformanceRuns(t, g) : loadRuns(t, g)));
  const names = new Set<string>();
  for (const r of all) {
    if (names.has(r.name)) throw new Error(`two runs named ${r.name}`);
    names.add(r.name);
  }
  return all.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
