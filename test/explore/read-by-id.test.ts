/** The bulk read-back reads by id the pets a page showed wrong, then the unsettled, then one of each kind of input. */
import { describe, expect, it } from 'vitest';
import { byIdOrder, inputKinds } from '../../src/explore/read-by-id.ts';
import type { Created } from '../../src/explore/readback.ts';

const pet = (id: string, name: string, why = 'a plain NewPet', cls = 'valid'): Created =>
  ({ id, created: {}, probe: { name, why, cls } }) as unknown as Created;

describe('the pets read back by id', () => {
  it('A name holding two tabs is of one kind, the tab (U+0009), a no-break space of the Unicode-space kind, a categoryId spelling one kind whatever its digits.', () => {
    expect(inputKinds(pet('1', 'a\tb\tc'))).toEqual(['name: U+0009']);
    expect(inputKinds(pet('2', 'a\u00a0b'))).toEqual(['name: Unicode spaces', 'name: other non-ASCII characters']);
    const spelled = (n: string) => inputKinds(pet('3', 'x', `categoryId written ${n}`, 'silent'));
    expect(spelled('1e2')).toEqual(spelled('7.0'));
    expect(inputKinds(pet('4', 'plain'))).toEqual([]);
  });

  it('The suspects come first, then the unsettled, then the pet holding the most kinds of input not yet read, at most n.', () => {
    const [s, u] = [pet('s', 'x'), pet('u', 'y')];
    const all = [s, u, pet('p', 'plain'), pet('n', 'c\nd'), pet('t', 'a\tb\nc'), pet('a', 'Ω'), pet('q', '"q"')];
    // t holds a tab and a line feed: read before n, whose line feed t's read covers
    expect(byIdOrder([s], [u], all, 16).map((c) => c.id)).toEqual(['s', 'u', 't', 'a', 'q']);
    expect(byIdOrder([s], [u], all, 3).map((c) => c.id)).toEqual(['s', 'u', 't']);
    expect(byIdOrder([], [], all, 16).map((c) => c.id)).toEqual(['t', 'a', 'q']);
  });
});
