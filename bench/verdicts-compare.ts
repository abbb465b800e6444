/**
 * The diff of two `npm run bench:verdicts` files (before and after a refactoring): every configuration, every key
 * (`scope requirement`) whose verdict changed. A change of aggregated status is a `status` difference; a change of
 * the raw findings alone (say a SHOULD's raw outcome 'fail' → 'warn', its status 'warn' either way) is a `raw` one.
 * A key whose verdict differed between a configuration's two attempts in either file is `unstable`: listed apart,
 * never counted as a difference. Pure: bench/verdicts-diff.ts prints it, test/bench/verdicts-diff.test.ts proves it.
 */
import { changedKeys, keyed, type KeyVerdict, type VerdictsFile } from './verdicts-model.ts';

export type DifferenceKind = 'status' | 'raw' | 'missing' | 'error';

export interface Difference {
  config: string;
  kind: DifferenceKind;
  /** The key's scope and requirement (empty for a whole configuration: missing, error). */
  scope: string;
  requirement: string;
  before: string;
  after: string;
  /** A status difference: the raw findings that changed with it. */
  raw?: { before: string; after: string };
}

export interface Unstable {
  config: string;
  key: string;
  /** Which file's attempts disagreed. */
  side: 'before' | 'after' | 'both';
  attempts: string[];
}

export interface Diff {
  /** Configurations in either file, and in both. */
  configs: number;
  compared: number;
  differences: Difference[];
  unstable: Unstable[];
}

const split = (key: string): [string, string] => {
  const i = key.indexOf(' ');
  return [key.slice(0, i), key.slice(i + 1)];
};

/** The raw findings only one side has: what went, what came. */
function rawChange(a: KeyVerdict | undefined, b: KeyVerdict | undefined): { before: string; after: string } {
  const ra = a?.raw ?? [];
  const rb = b?.raw ?? [];
  const gone = ra.filter((r) => !rb.includes(r));
  const came = rb.filter((r) => !ra.includes(r));
  return { before: gone.join('; ') || '(none)', after: came.join('; ') || '(none)' };
}

function unstableOfRun(config: string, before: VerdictsFile, after: VerdictsFile): Unstable[] {
  const a = before.runs[config].unstable ?? {};
  const b = after.runs[config].unstable ?? {};
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].sort().map((key) => ({
    config,
    key,
    side: a[key] && b[key] ? 'both' : a[key] ? 'before' : 'after',
    attempts: [...(a[key] ? a[key].map((s) => `before: ${s}`) : []), ...(b[key] ? b[key].map((s) => `after: ${s}`) : [])],
  }));
}

/** The differences of one configuration present in both files. */
function diffRun(config: string, before: VerdictsFile, after: VerdictsFile, unstable: Set<string>): Difference[] {
  const a = before.runs[config];
  const b = after.runs[config];
  const out: Difference[] = [];
  if (a.errors?.length || b.errors?.length) {
    const said = (e?: string[]) => (e?.length ? e.join(' | ') : 'no error');
    out.push({ config, kind: 'error', scope: '', requirement: '', before: said(a.errors), after: said(b.errors) });
  }
  if (!a.verdicts || !b.verdicts) return out;
  const ka = keyed(a.verdicts);
  const kb = keyed(b.verdicts);
  for (const key of changedKeys(a.verdicts, b.verdicts)) {
    if (unstable.has(key)) continue;
    const [scope, requirement] = split(key);
    const x = ka.get(key);
    const y = kb.get(key);
    const raw = rawChange(x, y);
    const sa = x?.status ?? 'skip';
    const sb = y?.status ?? 'skip';
    if (sa !== sb) out.push({ config, kind: 'status', scope, requirement, before: sa, after: sb, raw });
    else out.push({ config, kind: 'raw', scope, requirement, ...raw });
  }
  return out;
}

/** `common`: only the configurations both files ran (two collections filtered differently); else one run by one file only is a difference. */
export function diffFiles(before: VerdictsFile, after: VerdictsFile, common = false): Diff {
  const configs = [...new Set([...Object.keys(before.runs), ...Object.keys(after.runs)])].sort();
  const differences: Difference[] = [];
  const unstable: Unstable[] = [];
  let compared = 0;
  for (const config of configs) {
    const a = before.runs[config];
    const b = after.runs[config];
    if (!a || !b) {
      if (common) continue;
      const has = (x: unknown) => (x ? 'run' : 'not run');
      differences.push({ config, kind: 'missing', scope: '', requirement: '', before: has(a), after: has(b) });
      continue;
    }
    compared++;
    const own = unstableOfRun(config, before, after);
    unstable.push(...own);
    differences.push(...diffRun(config, before, after, new Set(own.map((u) => u.key))));
  }
  return { configs: configs.length, compared, differences, unstable };
}

/** The counts of a diff by kind. */
export function countsOf(d: Diff): Record<DifferenceKind, number> {
  const c: Record<DifferenceKind, number> = { status: 0, raw: 0, missing: 0, error: 0 };
  for (const x of d.differences) c[x.kind]++;
  return c;
}

/** 1 on any difference (with `statusOnly`: on any but the raw-only ones), else 0: unstable keys never count. */
export function exitCodeOf(d: Diff, statusOnly = false): number {
  return d.differences.some((x) => !statusOnly || x.kind !== 'raw') ? 1 : 0;
}

/** Every difference and every unstable key, one line each, then the totals. */
export function formatDiff(d: Diff): string[] {
  const lines = d.differences.map((x) => {
    const where = x.scope ? `${x.config}  ${x.scope} ${x.requirement}` : x.config;
    const detail = x.raw ? `  (raw: ${x.raw.before} → ${x.raw.after})` : x.kind === 'raw' ? '  (status unchanged)' : '';
    return `${x.kind.padEnd(8)}${where}: ${x.before} → ${x.after}${detail}`;
  });
  for (const u of d.unstable) lines.push(`unstable ${u.config}  ${u.key} (${u.side}): ${u.attempts.join(' | ')}`);
  const c = countsOf(d);
  lines.push(
    `${d.compared} of ${d.configs} configurations in both files; ${d.differences.length} differences ` +
      `(${c.status} of status, ${c.raw} raw only, ${c.error} with errors, ${c.missing} in one file only); ` +
      `${d.unstable.length} unstable keys (not counted)`,
  );
  return lines;
}
