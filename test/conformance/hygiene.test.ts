/**
 * Hygiene and security observations over a whole run (ADVISORY: the spec is
 * silent): a server reflecting credentials or signalling deprecation on
 * listPets gets a warning, once per place, with redacted evidence — and the
 * run still certifies, since the spec does not require it. The correct server
 * passes both.
 */
import { describe, expect, test } from 'vitest';
import { DEMO_KEYS } from '../../reference/keys.ts';
import type { FaultName } from '../../reference/faults.ts';
import { REQUIREMENTS } from '../../src/core/catalogue.ts';
import { outcomeOf } from '../../src/results/aggregate.ts';
import { runSuiteAgainst } from '../support/suite.ts';

const KEY = DEMO_KEYS.business;
const CREDENTIAL = 'HYGIENE-CREDENTIAL-NOT-REFLECTED';
const DEPRECATION = 'HYGIENE-DEPRECATION-ONLY-GETPET';
/** Every encoding of the key a report could leak: raw, base64, and base64 of the whole Authorization value. */
const LEAKS = [KEY, btoa(KEY).slice(0, 16), btoa(`Bearer ${KEY}`).slice(8, 32)];

/** `clean`: some judged responses show nothing (the header fault reflects on every response that carries a credential). */
const CASES: { fault: FaultName; requirement: string; titles: RegExp; maxWarnings: number; clean: boolean }[] = [
  {
    fault: 'reflect-credentials',
    requirement: CREDENTIAL,
    titles: /^Credential reflected in the response body/,
    maxWarnings: 2,
    clean: true,
  },
  {
    fault: 'reflect-credentials-header',
    requirement: CREDENTIAL,
    titles: /^Credential reflected in a response header/,
    maxWarnings: 2,
    clean: false,
  },
  { fault: 'deprecate-list', requirement: DEPRECATION, titles: /^Deprecation signalled on an operation/, maxWarnings: 1, clean: true },
];

describe('hygiene warnings', () => {
  test.each(CASES)(
    'With fault $fault the suite warns on $requirement at most $maxWarnings times, with redacted evidence, and still certifies.',
    async ({ fault, requirement, titles, maxWarnings, clean }) => {
      const run = await runSuiteAgainst({ faults: [fault] });
      const warnings = run.findings.filter((f) => f.requirement === requirement && f.outcome === 'warn');
      expect(warnings.length).toBeGreaterThanOrEqual(1);
      expect(warnings.length).toBeLessThanOrEqual(maxWarnings);
      for (const w of warnings) {
        expect(w.title).toMatch(titles);
        expect(w.evidence?.response, 'the evidence shows the response').toBeDefined();
      }
      expect(run.findings.some((f) => f.requirement === requirement && f.outcome === 'pass')).toBe(clean);
      const text = JSON.stringify(run.findings);
      for (const leak of LEAKS) expect(text).not.toContain(leak);
      expect(run.problems().map((p) => p.split(' ')[0])).toEqual([requirement]);
      expect(outcomeOf('conformance', run.results, false)).toBe('certified');
    },
    90_000,
  );

  test('The configured key reflected in a 404 of getPet is named as such, not only the made-up credentials of the 401s.', async () => {
    const run = await runSuiteAgainst({ faults: ['reflect-credentials'] });
    const titles = run.findings.filter((f) => f.requirement === CREDENTIAL && f.outcome === 'warn').map((f) => f.title);
    expect(titles).toContain('Credential reflected in the response body (the configured key)');
    expect(titles).toContain('Credential reflected in the response body');
  }, 90_000);

  test('The correct server passes both: no credential reflected, deprecation only on getPet.', async () => {
    const run = await runSuiteAgainst({});
    expect(run.status(CREDENTIAL)).toBe('pass');
    expect(run.status(DEPRECATION)).toBe('pass');
  }, 90_000);
});

test('Every ADVISORY requirement is proven by a fault mode that makes it warn.', async () => {
  const { FAULTS, FAULT_NAMES } = await import('../../reference/faults.ts');
  const proven = new Set(FAULT_NAMES.filter((f) => FAULTS[f].expect.outcome === 'warn').map((f) => FAULTS[f].expect.requirement));
  expect(REQUIREMENTS.filter((r) => r.level === 'ADVISORY' && !proven.has(r.id)).map((r) => r.id)).toEqual([]);
});
