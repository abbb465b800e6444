/**
 * `defineSpec` — how a conformance spec file declares its tests. Under Vitest it
 * registers one `test` per entry (findings travel in `task.meta`); in
 * collection mode (the self-tests, the benchmark) it only records the
 * definitions so `runSpecs` can execute them in process.
 */
import { describe, test } from 'vitest';
import { judgeAny, requirement as lookup, type RequirementId } from '../core/catalogue.ts';
import { RunAborted } from '../http/client.ts';
import type { Finding } from '../results/types.ts';
import { makeContext, type TestContext } from './context.ts';
import type { Session } from './session.ts';

export interface SpecTest {
  /** A full sentence saying what the server must do. */
  title: string;
  /** Catalogue ids this test judges. */
  requirements: readonly RequirementId[];
  /** The test creates pets (skipped when writes are not allowed). */
  writes?: boolean;
  /** The test's body: asynchronous when it sends requests. */
  run(t: TestContext): void | Promise<void>;
}

export interface SpecFile {
  operation: 'auth' | 'listPets' | 'createPet' | 'getPet' | 'rate-limit-headers' | 'versioning' | 'exploration';
  behaviour: string;
  tests: readonly SpecTest[];
}

export interface TestOutcome {
  findings: Finding[];
  skipped?: string;
  abort?: RunAborted;
  requests: number;
  /** The session's notes for the report (keyed; a later test's note replaces an earlier one with the same key). */
  notes?: Record<string, string>;
}

const COLLECT = Symbol.for('animal-store.collect');
type Collector = SpecFile[];

/** Run one spec test of `file` on a session and return what it found. Never throws. */
export async function executeTest(session: Session, st: SpecTest, file?: Pick<SpecFile, 'operation' | 'behaviour'>): Promise<TestOutcome> {
  const findings: Finding[] = [];
  session.sink = findings;
  session.traffic?.page(file ? `${file.operation} › ${file.behaviour}: ${st.title}` : st.title);
  const before = session.client.requestsSent;
  const source = `spec: ${st.title}`;
  const skipAll = (why: string, remedy?: string) => {
    for (const requirement of st.requirements)
      session.record(judgeAny(requirement, { outcome: 'skip', title: 'skipped', message: why, remedy }), { source });
    return { findings, skipped: why, requests: 0 };
  };
  if (session.aborted) return skipAll(`run aborted: ${session.aborted.message}`);
  if (st.writes && !session.config.allowWrites)
    return skipAll(
      'writes are off (the default in production, or --allow-writes false, or ANIMAL_STORE_ALLOW_WRITES=false); this test creates pets',
      'allow the run to create pets: --allow-writes (or ANIMAL_STORE_ALLOW_WRITES=true), or --profile full',
    );
  try {
    await st.run(makeContext(session, st.title));
  } catch (e) {
    if (e instanceof RunAborted) {
      session.aborted = e;
      return { ...skipAll(`run aborted: ${e.message}`), abort: e, requests: session.client.requestsSent - before };
    }
    // A defect of the suite, never of the server: the test's requirements count as not exercised.
    for (const requirement of st.requirements)
      session.record(
        judgeAny(requirement, {
          outcome: 'error',
          title: 'suite-error',
          message: `the spec test could not complete: ${(e as Error).message}`,
        }),
        { source },
      );
  }
  return { findings, requests: session.client.requestsSent - before, ...notesOf(session) };
}

function notesOf(session: Session): { notes?: Record<string, string> } {
  return session.notes.size ? { notes: Object.fromEntries(session.notes) } : {};
}

/** An error without a stack: Vitest then shows the finding, not a code frame of the harness. */
function plainError(message: string): Error {
  const e = new Error(message);
  e.stack = `${e.name}: ${message}`;
  return e;
}

export function mustFailures(findings: readonly Finding[]): Finding[] {
  return findings.filter((f) => f.outcome === 'fail' && lookup(f.requirement).level === 'MUST');
}

export function defineSpec(file: SpecFile): SpecFile {
  const collector = (globalThis as Record<symbol, unknown>)[COLLECT] as Collector | undefined;
  if (collector) {
    collector.push(file);
    return file;
  }
  describe(`${file.operation} › ${file.behaviour}`, () => {
    for (const st of file.tests) {
      test(st.title, async ({ task, skip }) => {
        const { vitestSession } = await import('./vitest-session.ts');
        const session = await vitestSession();
        const out = await executeTest(session, st, file);
        Object.assign(task.meta, {
          findings: out.findings,
          requests: out.requests,
          abort: out.abort?.message,
          abortReason: out.abort?.reason,
          diagnosis: out.abort?.diagnosis,
          requirements: st.requirements,
          notes: out.notes,
        });
        if (out.skipped) skip(out.skipped);
        // The test fails for its own requirements only: what the every-response checks find is reported once per requirement, by the suite's reporter.
        const failed = mustFailures(out.findings.filter((f) => (st.requirements as readonly string[]).includes(f.requirement)));
        if (failed.length) throw plainError(failed.map((f) => `${f.requirement}: ${f.title} — ${f.message}`).join('\n'));
      });
    }
  });
  return file;
}

const collected = new Map<string, SpecFile[]>();

/** Import spec modules in collection mode and return their definitions (cached per module). */
export async function collectSpecs(paths: readonly string[]): Promise<SpecFile[]> {
  const g = globalThis as Record<symbol, unknown>;
  const out: SpecFile[] = [];
  for (const p of paths) {
    let files = collected.get(p);
    if (!files) {
      files = [];
      g[COLLECT] = files;
      try {
        await import(p);
      } finally {
        delete g[COLLECT];
      }
      collected.set(p, files);
    }
    out.push(...files);
  }
  return out;
}
