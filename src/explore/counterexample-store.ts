/**
 * The counterexample store (reports/counterexamples.json): every failure the
 * exploration phase found, as the request that shows it, per target. The next
 * run against the same target replays them first, so a nightly run re-checks
 * last night's failures before exploring anew. A counterexample that no longer
 * fails is dropped; one the run could not replay (writes off, budget) is kept.
 * The store holds requests only: the key is never in it (requests carry the
 * run's own credential, not a copy of it).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dependsOnEarlierRequests, isRequirementId } from '../core/catalogue.ts';
import type { Finding, ReplayProbe } from '../results/types.ts';
import { writeFileAtomic } from '../results/writers/atomic.ts';
import { upgradeProbe } from './legacy-forms.ts';
import { formsNamed } from './failure-kind.ts';

export const STORE_FILE = 'counterexamples.json';

/** At most this many counterexamples are kept per target (the newest). */
const KEEP = 50;

export interface SavedCounterexample {
  /** requirement · title of the failure it shows. */
  signature: string;
  requirement: string;
  title: string;
  /** The request, on one line. */
  request: string;
  probe: ReplayProbe;
  /** A finding that depends on stored state: the creates to replay first, in order. */
  before?: ReplayProbe[];
  firstSeen: string;
  lastSeen: string;
  seed?: number;
  path?: string;
}

interface StoreFile {
  version: 1;
  targets: Record<string, SavedCounterexample[]>;
}

/** Which target a counterexample belongs to: the embedded server (its port changes every run) or the base URL. */
export function storeKey(baseUrl: string, embedded: boolean): string {
  return embedded ? 'embedded reference server' : baseUrl;
}

function read(dir: string): StoreFile {
  const file = join(dir, STORE_FILE);
  if (!existsSync(file)) return { version: 1, targets: {} };
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as StoreFile;
    return parsed && parsed.version === 1 && parsed.targets ? parsed : { version: 1, targets: {} };
  } catch {
    return { version: 1, targets: {} }; // a damaged store is started afresh, never fatal
  }
}

/** What an older suite saved that this one cannot replay: a requirement its catalogue no longer has, a rate-limit one. */
const unreplayable = (c: SavedCounterexample): boolean => !isRequirementId(c.requirement) || dependsOnEarlierRequests(c.requirement);

/**
 * A counterexample of an older store in today's shape: its surface variant's id turned into the form it was (and an
 * HTTP-EQUIVALENT-FORMS signature naming that form's dimension, as a replay names it now); undefined when no form
 * stands for its id.
 */
function upgraded(c: SavedCounterexample): SavedCounterexample | undefined {
  const probe = upgradeProbe(c.probe);
  const before = (c.before ?? []).map(upgradeProbe);
  if (!probe || before.some((b) => b === undefined)) return undefined;
  const forms = formsNamed(c) && probe.surface ? probe.surface.filter((f) => f.cls === 'equivalent-http').map((f) => f.id) : undefined;
  const title = forms?.length ? c.title.replace(/\([^)]*\)$/, `(${[...new Set(forms)].sort().join(', ')})`) : c.title;
  return { ...c, title, signature: `${c.requirement} · ${title}`, probe, ...(c.before ? { before: before as ReplayProbe[] } : {}) };
}

/**
 * The counterexamples saved for a target, and a note for each left out: what an older suite saved that this one cannot
 * replay (a requirement its catalogue no longer has, a rate-limit one: left out silently, as before; a surface variant
 * no form stands for: said). What is left out is dropped at the next save.
 */
export function loadStore(dir: string, key: string): { saved: SavedCounterexample[]; dropped: string[] } {
  const saved: SavedCounterexample[] = [];
  const dropped: string[] = [];
  for (const c of read(dir).targets[key] ?? []) {
    if (unreplayable(c)) continue;
    const u = upgraded(c);
    if (u) saved.push(u);
    else
      dropped.push(
        `Exploration: a counterexample saved ${c.firstSeen} (${c.signature}: ${c.request}) names a surface variant ${JSON.stringify(c.probe.variant)} this suite no longer has; it is not replayed, and dropped at the next save.`,
      );
  }
  return { saved, dropped };
}

export function loadCounterexamples(dir: string, key: string): SavedCounterexample[] {
  return loadStore(dir, key).saved;
}

/** Save a run's counterexamples for its target; the note the report carries about it, if any. */
export function keepCounterexamples(
  dir: string,
  target: { baseUrl: string; embedded: boolean },
  findings: readonly Finding[],
): string | undefined {
  if (!findings.some((f) => f.replay)) return undefined;
  const r = saveCounterexamples(dir, storeKey(target.baseUrl, target.embedded), findings);
  if (!r.saved && !r.fixed) return undefined;
  const parts = [
    r.saved ? `${r.saved} counterexample${r.saved === 1 ? '' : 's'} saved` : '',
    r.fixed ? `${r.fixed} fixed and dropped` : '',
  ].filter(Boolean);
  return `Exploration: ${parts.join(', ')} in ${r.file}; the next run against this target replays them first.`;
}

/**
 * Fold a run's findings into the store: counterexamples it found (or replayed
 * and saw fail again) are saved; saved ones it replayed and saw pass are
 * dropped; the others stay. Returns the file's path and what changed.
 */
export function saveCounterexamples(
  dir: string,
  key: string,
  findings: readonly Finding[],
  now = new Date(),
): { file: string; saved: number; fixed: number } {
  const store = read(dir);
  const before = store.targets[key] ?? [];
  const id = (signature: string, request: string) => `${signature}\n${request}`;
  const fixed = new Set(
    findings.filter((f) => f.replay?.fixed && f.replay.signature).map((f) => id(f.replay!.signature!, f.replay!.request)),
  );
  const found = new Map<string, SavedCounterexample>();
  for (const f of findings) {
    const r = f.replay;
    // Not saved: what a request alone does not reproduce (a rate-limit finding, one that did not fail again alone):
    // replayed alone next time, a pass would be a false "fixed".
    if (
      !r?.probe ||
      !(f.outcome === 'fail' || f.outcome === 'warn') ||
      dependsOnEarlierRequests(f.requirement) ||
      r.reproduced === 'not-alone' ||
      // Nor a read by an id a sequence's create returned: against another store, that id is another pet's, or none.
      (r.probe.op === 'getPet' && !!r.before?.length)
    )
      continue;
    const signature = `${f.requirement} · ${f.title}`;
    const k = id(signature, r.request);
    const old = before.find((c) => id(c.signature, c.request) === k);
    found.set(k, {
      signature,
      requirement: f.requirement,
      title: f.title,
      request: r.request,
      probe: r.probe,
      ...(r.before?.length ? { before: r.before.map((b) => b.probe) } : {}),
      firstSeen: r.firstSeen ?? old?.firstSeen ?? now.toISOString(),
      lastSeen: now.toISOString(),
      ...(r.seed !== undefined ? { seed: r.seed } : {}),
      ...(r.path ? { path: r.path } : {}),
    });
  }
  const kept = before
    .filter((c) => !unreplayable(c))
    .map(upgraded)
    .filter(
      (c): c is SavedCounterexample => c !== undefined && !fixed.has(id(c.signature, c.request)) && !found.has(id(c.signature, c.request)),
    );
  const next = [...found.values(), ...kept].slice(0, KEEP);
  if (next.length) store.targets[key] = next;
  else delete store.targets[key];
  const file = writeFileAtomic(join(dir, STORE_FILE), `${JSON.stringify(store, null, 2)}\n`);
  return { file, saved: found.size, fixed: fixed.size };
}
