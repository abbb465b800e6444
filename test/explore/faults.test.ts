/**
 * The exploration phase's reach, proven: every fault mode of the reference
 * server that only generated inputs reach is missed by the table-driven specs
 * alone (the phase off) and caught with the phase on — by the requirement the
 * fault names, as a counterexample that can be replayed (its minimal request as
 * a curl line with the key as a variable, its seed). And every invariant of the
 * phase has such a fault.
 */
import { describe, expect, test } from 'vitest';
import { FAULTS, FAULT_NAMES } from '../../reference/faults.ts';
import { replayCurl } from '../../src/results/writers/replay.ts';
import { runSuiteAgainst } from '../support/suite.ts';
import type { SpecFile } from '../../src/harness/define-spec.ts';

// Held-out faults (written after the generators) are measured by the benchmark, not required here.
const GENERATED_ONLY = FAULT_NAMES.filter((f) => FAULTS[f].generatedOnly && !FAULTS[f].heldOut);
const exploration = (file: SpecFile) => file.operation === 'exploration';

describe('faults only generated inputs reach', () => {
  test.each(GENERATED_ONLY.map((f) => [f, FAULTS[f].expect.requirement, FAULTS[f].expect.outcome] as const))(
    'With fault %s the specs alone do not report %s, and the exploration phase reports it as %s with a replayable counterexample.',
    async (fault, requirement, outcome) => {
      const off = await runSuiteAgainst({ faults: [fault] }, { env: { ANIMAL_STORE_EXPLORE_BUDGET: '0' } });
      expect(off.status(requirement)).not.toBe(outcome);
      expect(off.status(requirement)).not.toBe('fail');
      // The exploration phase alone (its spec file; the table-driven specs' run is the one above): it reports the fault
      // by itself, and the run costs a fifth less than the whole suite.
      const on = await runSuiteAgainst({ faults: [fault] }, { specs: exploration });
      expect(on.status(requirement), on.problems().join('\n')).toBe(outcome);
      const found = on.findings.find((f) => f.requirement === requirement && (f.outcome === 'fail' || f.outcome === 'warn') && f.replay);
      expect(found?.replay?.url).toMatch(/^http:\/\/127\.0\.0\.1:4010\/v1\/pets/);
      expect(found?.replay?.reproduce).toBe('--seed 1');
      const curl = replayCurl(found!.replay!);
      // The key as a variable, in the spelling the request used (bearer, BEARER… when the surface varies it).
      expect(curl).toMatch(/"Authorization: bearer +\$ANIMAL_STORE_API_KEY"/i);
      expect(curl).not.toContain('as_demo_');
    },
  );
});

test('Every invariant of the exploration phase is proven by at least one fault that only generated inputs reach.', () => {
  const proven = new Set(GENERATED_ONLY.map((f) => FAULTS[f].expect.requirement));
  const invariants = [
    'RESP-STATUS-DOCUMENTED', // never a 5xx, only documented statuses
    'RESP-BODY-JSON', // every response passes the check registry
    'CREATE-201-PET', // a valid request is accepted; what was created reads back exactly
    'CREATE-400-BAD-STATUS', // an invalid request is refused
    'CREATE-400-NOTHING-STORED', // … and stores nothing
    'GET-ROUND-TRIP', // read back exactly by id
    'LIST-ROUND-TRIP', // read back exactly in the status's list
    'LIST-LIMIT-OUT-OF-RANGE',
    'LIST-STATUS-UNKNOWN-NO-5XX',
    'GET-404-UNKNOWN', // an id no pet has is 404
    'GET-NON-INTEGER-ID-4XX',
    'HTTP-EQUIVALENT-FORMS', // a form HTTP makes equivalent is served alike (header fields, the query, a charset)
    'HYGIENE-JSON-EXTENSION', // a body that is JSON only through an extension RFC 8259 §9 allows: refused, or warned
    'RESP-CONTENT-CODING', // a response in a coding its request accepted
  ];
  expect(invariants.filter((r) => !proven.has(r))).toEqual([]);
});

test.each(['1', '2', '3'])(
  'A failing sequence is shrunk as a sequence and reported as its creates, then the read that failed: the unsigned categoryId fault ends on a read by id after a create with a negative categoryId (seed %s).',
  async (seed) => {
    // The stateful part alone: the coverage and generated parts would find it first, unshrunk, in bulk.
    const specs = (file: SpecFile) => file.operation === 'exploration' && file.behaviour === 'stateful-round-trip';
    const run = await runSuiteAgainst({ faults: ['category-id-unsigned'] }, { env: { ANIMAL_STORE_SEED: seed }, specs });
    const f = run.findings.find((x) => x.requirement === 'GET-ROUND-TRIP' && x.outcome === 'fail')!;
    expect(f.replay?.phase).toBe('stateful');
    expect(f.replay?.shrinks).toBeGreaterThan(0);
    expect(f.replay?.shrinkPath?.length).toBe(f.replay!.shrinks! + 1);
    expect(f.replay?.probe?.op).toBe('getPet');
    const creates = (f.replay?.before ?? []).filter((b) => b.probe.op === 'createPet').map((b) => b.probe.body ?? '');
    expect(creates.length).toBeGreaterThan(0);
    expect(creates.some((b) => /"categoryId":-\d+/.test(b))).toBe(true);
  },
);
