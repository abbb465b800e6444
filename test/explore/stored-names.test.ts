/**
 * CREATE-400-NOTHING-STORED finds a refused create by its name on a page: only a name no other create of the phase
 * carried tells it apart. Names without the run's prefix (one that wholly spells a number, on the suite's own server)
 * may come again — "-0" refused for the data after its value, "-0" generated again and stored rightly: listed, it
 * proves nothing (a false alarm on the reference server, seed 96028, before).
 */
import { expect, test } from 'vitest';
import type { Probe } from '../../src/explore/probe.ts';
import { ownNames } from '../../src/explore/stateful.ts';

const probe = (name: string | undefined, label: string) => ({ op: 'createPet', name, label }) as unknown as Probe;

test.each([
  { what: 'a unique prefixed name', name: 'animal-store-conformance-1a-a', others: ['animal-store-conformance-1a-b'], kept: true },
  { what: 'a bare name another create carried too', name: '-0', others: ['-0'], kept: false },
  { what: 'a bare name no other create carried', name: '-0', others: ['-0e4', '0'], kept: true },
])('A refused create with $what is looked for on the pages: $kept.', ({ name, others, kept }) => {
  const refused = probe(name, 'refused');
  const writes = [refused, ...others.map((n, i) => probe(n, `other ${i}`))].map((p) => ({ probe: p }));
  expect(ownNames(writes, [refused])).toEqual(kept ? [refused] : []);
});

test('The same refused create sent once is its own carrier; a create without a name is nobody’s.', () => {
  const refused = probe('7', 'refused');
  expect(ownNames([{ probe: refused }, { probe: probe(undefined, 'no name') }], [refused])).toEqual([refused]);
});
