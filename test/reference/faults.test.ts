import { afterEach, describe, expect, test } from 'vitest';
import { isRequirementId } from '../../src/core/catalogue.ts';
import { FAULT_NAMES, FAULTS, faultsFor, parseFaults } from '../../reference/faults.ts';
import { repeat, start, type Srv } from './helpers.ts';
import { CONFORMANCE_PROOFS } from './proofs/conformance.ts';
import { HOSTILE_PROOFS } from './proofs/hostile.ts';
import { LOAD_PROOFS } from './proofs/load.ts';
import type { Proof } from './proofs/types.ts';

const TABLES: Record<'conformance' | 'load' | 'hostile', Proof[]> = {
  conformance: CONFORMANCE_PROOFS,
  load: LOAD_PROOFS,
  hostile: HOSTILE_PROOFS,
};

const open: Srv[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});
async function server(p: Proof, faulty: boolean): Promise<Srv> {
  const s = await start({ ...p.options, faults: faulty ? [p.fault] : [] });
  open.push(s);
  return s;
}

describe('The fault table', () => {
  test('Every fault mode has exactly one proof, in the table of its suite.', () => {
    for (const [suite, proofs] of Object.entries(TABLES)) for (const p of proofs) expect(FAULTS[p.fault].suite, p.fault).toBe(suite);
    const proven = Object.values(TABLES).flatMap((t) => t.map((p) => p.fault));
    expect([...proven].sort()).toEqual([...FAULT_NAMES].sort());
  });

  test('Every expectation names a catalogue requirement (or REDACTION for echo-key).', () => {
    for (const name of FAULT_NAMES) {
      const { requirement } = FAULTS[name].expect;
      expect(isRequirementId(requirement) || (name === 'echo-key' && requirement === 'REDACTION'), `${name} → ${requirement}`).toBe(true);
    }
  });

  test('The shared faults are listed for both the conformance and the load suite.', () => {
    expect(faultsFor('load')).toEqual(expect.arrayContaining(['reset-in-ms', 'remaining-not-falling', 'never-429']));
    expect(faultsFor('conformance')).toEqual(expect.arrayContaining(['reset-in-ms', 'remaining-not-falling']));
  });

  test('parseFaults reads a comma list, ignores blanks and duplicates, and rejects unknown names.', () => {
    expect(parseFaults(undefined)).toEqual([]);
    expect(parseFaults(' hang, list-500,,hang ')).toEqual(['hang', 'list-500']);
    expect(() => parseFaults('hang,nonsense')).toThrow(/nonsense/);
  });
});

test('sustained-throttle leaves a burst to the ceiling and the recovery after Retry-After untouched.', async () => {
  const s = await start({ faults: ['sustained-throttle'], enterprise: { perMinute: 10, perDay: 1000 } });
  open.push(s);
  expect((await repeat(s, 11, '/pets')).map((r) => r.status)).toEqual([...Array(10).fill(200), 429]);
  s.clock.advance(60_000);
  expect((await s.send('/pets')).status).toBe(200);
});

for (const [suite, proofs] of Object.entries(TABLES)) {
  describe(`The ${suite} fault modes`, () => {
    test.each(proofs)('$fault breaks the behaviour it claims, which holds without it.', async (p) => {
      expect(await p.holds(await server(p, false)), 'correct server').toBe(true);
      expect(await p.holds(await server(p, true)), `server with ${p.fault}`).toBe(false);
    });
  });
}
