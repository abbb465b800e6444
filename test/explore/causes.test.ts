/**
 * One finding per cause: every finding of the exploration phase carries its cause — the minimal request, or for a
 * stored-state failure the create that stored what broke it — and the findings that follow from another share its key
 * as consequences; what follows from a cause already found is not judged again. A server with one bug shows one
 * cause: a stored name that breaks every later page (FastAPI and a lone surrogate: five MUST failures before), an
 * invalid name accepted (pydantic's coercion: the 201 and both round trips before), a null status accepted (Go).
 */
import { describe, expect, test } from 'vitest';
import type { Finding } from '../../src/results/types.ts';
import { runSuiteAgainst } from '../support/suite.ts';

const problems = (fs: readonly Finding[]) => fs.filter((f) => f.replay && (f.outcome === 'fail' || f.outcome === 'warn'));

describe('causes', () => {
  test('Every finding the phase reports carries its cause: a key and its title in words.', async () => {
    const run = await runSuiteAgainst({ faults: ['get-mid-id-500', 'status-whitespace-accepted'] });
    const found = problems(run.findings);
    expect(found.length).toBeGreaterThan(1);
    for (const f of found) {
      expect(f.cause?.key, f.requirement).toBeTruthy();
      expect(f.cause?.title, f.requirement).toBeTruthy();
    }
    const get = found.find((f) => f.requirement === 'GET-404-UNKNOWN')!;
    const five = found.find((f) => f.requirement === 'RESP-STATUS-DOCUMENTED' && f.cause?.key === get.cause?.key)!;
    // The 500 and what it broke: one cause, the 500 first, the rest its consequences.
    expect(five.cause?.consequence).toBeUndefined();
    expect(get.cause?.consequence).toBe(true);
  });

  test('A stored name that breaks every later page is one cause, the create that stored it, whatever page fails after it.', async () => {
    const run = await runSuiteAgainst({ faults: ['list-500-after-astral'] });
    const found = problems(run.findings);
    expect(found.map((f) => f.requirement).sort()).toEqual(expect.arrayContaining(['LIST-200-PETS', 'RESP-STATUS-DOCUMENTED']));
    const keys = new Set(found.map((f) => f.cause?.key));
    expect(keys.size, found.map((f) => `${f.requirement}: ${f.cause?.key}`).join('\n')).toBe(1);
    expect([...keys][0]).toMatch(/^POST \/pets /);
    expect(found.filter((f) => !f.cause?.consequence)).toHaveLength(1);
    expect(found.find((f) => !f.cause?.consequence)?.cause?.title).toMatch(/stored, then GET /);
  });

  test.each([
    ['wrong-type-accepted', 'CREATE-400-WRONG-TYPE'],
    ['status-null-accepted', 'CREATE-400-BAD-STATUS'],
    ['name-container-accepted', 'CREATE-400-WRONG-TYPE'],
  ])(
    'With %s the phase reports %s, and never judges the round trips of the pets it should not have created.',
    async (fault, requirement) => {
      const run = await runSuiteAgainst({ faults: [fault as never] });
      const found = problems(run.findings);
      expect(found.map((f) => f.requirement)).toContain(requirement);
      expect(found.filter((f) => /ROUND-TRIP|LIST-COMPLETE-PAGE/.test(f.requirement)).map((f) => f.message)).toEqual([]);
      expect(run.status('GET-ROUND-TRIP')).not.toBe('fail');
      expect(run.status('LIST-ROUND-TRIP')).not.toBe('fail');
    },
  );

  test('A pet whose create already failed is not read back: a name stored otherwise than sent is one finding, not three.', async () => {
    const run = await runSuiteAgainst({ faults: ['name-normalized'] });
    const found = problems(run.findings).filter((f) => f.requirement !== 'HTTP-EQUIVALENT-FORMS');
    expect(found.map((f) => f.requirement)).toEqual(['CREATE-201-PET']);
  });
});
