/**
 * Lint of the requirement catalogue and of the specs that use it (test262 style):
 * unique ids, verbatim quotes from the spec, every id a spec uses exists, every
 * entry is judged by a spec, a response check or a load scenario (by what the
 * rules return, not by their source text); the plan limits and the operations are the spec's tables; spec files
 * follow conformance/<operation>/<behaviour>.spec.ts with full-sentence titles.
 */
import { existsSync, readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { isRequirementId, REQUIREMENTS } from '../src/core/catalogue.ts';
import { RESPONSE_CHECKS } from '../src/checks/registry.ts';
import { collectSpecs } from '../src/harness/define-spec.ts';
import { CONFORMANCE_DIR, specPaths } from '../src/harness/in-process-runner.ts';
import { SPEC_PATH } from '../src/results/meta.ts';
import { OPERATIONS } from '../src/core/operations.ts';
import { PLAN_NAMES, PLANS } from '../src/core/plans.ts';
import { FAULTS, FAULT_NAMES } from '../reference/faults.ts';
import { scenariosJudging, SCENARIO_INFO, SCENARIO_NAMES, type ScenarioName } from '../src/core/scenarios.ts';
import { SCENARIOS } from '../load/lib/load-shapes.ts';
import { PLAN_NAMES as REFERENCE_PLAN_NAMES, SPEC_PLANS } from '../reference/plan-limits.ts';
import { ceilingRun, o } from './support/samples.ts';

const ROOT = resolve(import.meta.dirname, '..');
const normalise = (s: string) => s.replace(/`/g, '').replace(/\s+/g, ' ');
const specText = normalise(readFileSync(SPEC_PATH, 'utf8'));

describe('the requirement catalogue', () => {
  test('Every requirement id is unique and upper-case kebab.', () => {
    const ids = REQUIREMENTS.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => !/^[A-Z0-9]+(-[A-Z0-9]+)+$/.test(id))).toEqual([]);
  });

  test('Every quote is a verbatim excerpt of the spec.', () => {
    expect(REQUIREMENTS.filter((r) => !specText.includes(normalise(r.quote))).map((r) => r.id)).toEqual([]);
  });

  test('Every ADVISORY entry (the spec is silent) is in the hygiene area and its note says why a user must know; every hygiene entry is ADVISORY.', () => {
    const advisory = REQUIREMENTS.filter((r) => r.level === 'ADVISORY' || r.area === 'hygiene');
    expect(advisory.length).toBeGreaterThan(0);
    expect(advisory.filter((r) => r.level !== 'ADVISORY' || r.area !== 'hygiene' || !r.note || r.noFault).map((r) => r.id)).toEqual([]);
  });

  test('Every requirement a spec test names exists in the catalogue.', async () => {
    const files = await collectSpecs(specPaths());
    const unknown = files.flatMap((f) => f.tests.flatMap((t) => t.requirements)).filter((id) => !isRequirementId(id));
    expect(unknown).toEqual([]);
    const checkIds = RESPONSE_CHECKS.flatMap((c) => c.requirements).filter((id) => !isRequirementId(id));
    expect(checkIds).toEqual([]);
  });

  test('Every conformance requirement is judged by a spec test or a response check.', async () => {
    const files = await collectSpecs(specPaths());
    const used = new Set([
      ...files.flatMap((f) => f.tests.flatMap((t) => t.requirements)),
      ...RESPONSE_CHECKS.flatMap((c) => c.requirements),
    ]);
    expect(REQUIREMENTS.filter((r) => r.by === 'conformance' && !used.has(r.id)).map((r) => r.id)).toEqual([]);
  });

  test('Every load requirement is asked by a scenario whose judgement by the core rules returns a verdict on it.', () => {
    const asked = new Set<string>(Object.values(SCENARIO_INFO).flatMap((s) => s.requirements));
    // What each scenario's judge (the core rules) says of no request and of a window that ends in a 429.
    const judged = (name: ScenarioName) =>
      // (with writes allowed: RL-429-NOTHING-STORED is judged only where the scenario may create)
      new Set(
        [[], ceilingRun()].flatMap((samples) =>
          SCENARIOS[name].judge(samples, { ...o, writes: true }, undefined).map((j) => j.requirement),
        ),
      );
    const load = REQUIREMENTS.filter((r) => r.by === 'load');
    expect(load.filter((r) => !asked.has(r.id)).map((r) => r.id)).toEqual([]);
    const unjudged = load.filter((r) => !SCENARIO_NAMES.some((n) => scenariosJudging(r.id).includes(n) && judged(n).has(r.id)));
    expect(unjudged.map((r) => r.id)).toEqual([]);
    // and nothing in the scenario table is unknown to the catalogue
    expect([...asked].filter((id) => !isRequirementId(id))).toEqual([]);
  });

  test('The plan limits of the suite and of the reference server are the spec’s "Rate limits by plan" table.', () => {
    const section = readFileSync(SPEC_PATH, 'utf8').split('### Rate limits by plan')[1].split('\n### ')[0];
    const rows = section
      .split('\n')
      .map((line) => line.split('|').map((c) => c.trim()))
      .filter((c) => c.length === 5 && /^([\d,]+|custom)$/.test(c[2]));
    const number = (cell: string) => (cell === 'custom' ? 'custom' : Number(cell.replace(/,/g, '')));
    const spec = Object.fromEntries(rows.map((c) => [c[1].toLowerCase(), { perMinute: number(c[2]), perDay: number(c[3]) }]));
    expect(Object.keys(spec)).toEqual([...PLAN_NAMES]);
    expect(spec.enterprise).toEqual({ perMinute: 'custom', perDay: 'custom' });
    const { enterprise: _custom, ...fixed } = spec;
    expect(PLANS).toEqual(fixed);
    expect(SPEC_PLANS).toEqual(fixed);
    expect(REFERENCE_PLAN_NAMES).toEqual(PLAN_NAMES);
  });

  test('The operations table is the spec’s Endpoints section: each operation’s name, method, path, heading, deprecation and Responses table.', () => {
    const endpoints = readFileSync(SPEC_PATH, 'utf8').split('\n## Endpoints')[1].split('\n## ')[0];
    const fromSpec = endpoints
      .split('\n### ')
      .slice(1)
      .map((section) => {
        const m = /Method and path: `(GET|POST) ([^`]+)` \(operation name `(\w+)`\)/.exec(section);
        if (!m) return undefined;
        const rows = section
          .split('\n')
          .map((line) => line.split('|').map((c) => c.trim()))
          .filter((c) => c.length === 5 && /^\d{3}$/.test(c[1]));
        const spec = {
          method: m[1],
          path: m[2],
          summary: section.split('\n')[0].trim(),
          deprecated: /Deprecation: the operation is marked deprecated/.test(section),
          parameters: [
            ...section
              .split('\n')
              .map((line) => line.split('|').map((c) => c.trim()))
              .filter((c) => c.length === 6 && /^(integer|PetStatus)$/.test(c[2]))
              .map((c) => c[1]),
            ...[...section.matchAll(/Path parameter: `(\w+)`/g)].map((p) => p[1]),
          ],
          ...Object.fromEntries([...section.matchAll(/Request body: required, .* shape (\w+)\./g)].map((r) => ['requestBody', r[1]])),
          responses: Object.fromEntries(rows.map((c) => [Number(c[1]), { schema: c[2].split(' ')[0], meaning: c[3].replace(/`/g, '') }])),
        };
        return [m[3], spec] as const;
      })
      .filter((x) => x !== undefined);
    expect(Object.fromEntries(fromSpec)).toEqual(OPERATIONS);
  });

  const shared = resolve(ROOT, '../shared/spec/animal-store-spec.md');
  if (!existsSync(shared))
    console.warn(
      `catalogue.test.ts: the spec comparison is SKIPPED: ${shared} is absent (a clone outside the workplace); the quotes are still checked against spec/.`,
    );
  test.skipIf(!existsSync(shared))('The spec copy in spec/ is identical to the shared spec.', () => {
    expect(readFileSync(SPEC_PATH, 'utf8')).toBe(readFileSync(shared, 'utf8'));
  });
});

describe('the conformance specs', () => {
  test('Every spec file is conformance/<operation>/<behaviour>.spec.ts with kebab-case names.', () => {
    const bad = specPaths()
      .map((p) => relative(CONFORMANCE_DIR, p))
      .filter((p) => !/^[a-z]+(-[a-z]+)*\/[a-z0-9]+(-[a-z0-9]+)*\.spec\.ts$/.test(p));
    expect(bad).toEqual([]);
  });

  test('Every test title is a full sentence and every title is unique.', async () => {
    const titles = (await collectSpecs(specPaths())).flatMap((f) => f.tests.map((t) => t.title));
    expect(titles.filter((t) => !/^[A-Z].*\.$/.test(t))).toEqual([]);
    expect(new Set(titles).size).toBe(titles.length);
  });

  test('Every spec test names at least one requirement.', async () => {
    const files = await collectSpecs(specPaths());
    expect(files.flatMap((f) => f.tests.filter((t) => t.requirements.length === 0).map((t) => t.title))).toEqual([]);
  });
});

describe('the sections of the spec', () => {
  test('Every entry names exactly the fault modes of the reference server that prove it (reference/faults.ts, expect.requirement).', () => {
    for (const r of REQUIREMENTS) {
      const proving = FAULT_NAMES.filter((f) => FAULTS[f].expect.requirement === r.id).sort();
      expect([...(r.faults ?? [])].sort(), r.id).toEqual(proving);
    }
  });
});
