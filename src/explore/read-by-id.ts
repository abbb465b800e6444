/**
 * Which created pets the bulk read-back also reads by id (getPet), within a small number: those a page showed wrong
 * or missed first (their read by id tells a list that alters or misses a stored pet from a store that kept another
 * pet than its 201 showed), then those no page could settle, then one pet of each kind of input not read yet — the
 * kinds of characters and spellings servers commonly treat apart — so that a getPet that alters one kind of input is
 * seen in every run, not only when a page happened to leave its pet unsettled. Pure.
 */
import type { Created } from './readback.ts';

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const hex = (ch: string) => ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');

/** Kinds of characters a name may hold that servers commonly treat apart. */
const NAME_KINDS: readonly (readonly [string, RegExp])[] = [
  ['Unicode spaces', /[\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/],
  ['format characters', /[\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]/],
  ['characters outside the BMP', /[\ud800-\udbff][\udc00-\udfff]/],
  ['lone surrogates', /[\ud800-\udbff](?![\udc00-\udfff])|(?:^|[^\ud800-\udbff])[\udc00-\udfff]/],
  ['other non-ASCII characters', /[^\u0000-\u007f]/],
  ['leading or trailing spaces', /^\s|\s$/],
  ['quotes and backslashes', /["'\\]/],
];

/** The kinds of input a created pet's request holds: its name's kinds of characters, then its other unusual traits. */
export function inputKinds(c: Created): string[] {
  const name = c.probe.name ?? '';
  // Each control character a kind of its own (a tab, a line feed and a NUL are each treated apart somewhere).
  const controls = new Set([...name].filter((ch) => CONTROL.test(ch)).map((ch) => `name: U+${hex(ch)}`));
  const kinds = [...controls, ...NAME_KINDS.filter(([, re]) => re.test(name)).map(([kind]) => `name: ${kind}`)];
  // Lengths where a store's limit may cut: each band of UTF-8 bytes and of UTF-16 units a kind of its own.
  const bytes = new TextEncoder().encode(name).length;
  for (const n of [64, 128, 255]) if (bytes > n) kinds.push(`name: over ${n} UTF-8 bytes`);
  if (name.length > 255) kinds.push('name: over 255 UTF-16 units');
  // The classifier's traits (classify.ts), their values left out: "categoryId written 1e2" is one kind of input.
  const traits = c.probe.cls === 'silent' ? c.probe.why.split('; ') : [];
  for (const t of traits) kinds.push(t.replace(/ written .*/, ' written otherwise').replace(/^(unknown propert)(y|ies) .*/, '$1ies'));
  return kinds;
}

/**
 * At most `n` pets to read by id: the suspects, the unsettled, then — greedily — the pet holding the most kinds of
 * input not yet read (the earliest of equals), until every kind is read or `n` are chosen.
 */
export function byIdOrder(suspect: readonly Created[], unsure: readonly Created[], all: readonly Created[], n: number): Created[] {
  const chosen = [...suspect, ...unsure].slice(0, n);
  const read = new Set(chosen.flatMap(inputKinds));
  const left = all.filter((c) => !chosen.includes(c)).map((c) => ({ c, kinds: inputKinds(c) }));
  while (chosen.length < n) {
    let best: { c: Created; fresh: string[] } | undefined;
    for (const { c, kinds } of left) {
      const fresh = kinds.filter((k) => !read.has(k));
      if (fresh.length > (best?.fresh.length ?? 0) && !chosen.includes(c)) best = { c, fresh };
    }
    if (!best) break;
    chosen.push(best.c);
    for (const k of best.fresh) read.add(k);
  }
  return chosen;
}
