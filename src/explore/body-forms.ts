/**
 * The text of a createPet body, generated from RFC 8259's grammar. From any NewPet: every equivalent text — the four
 * whitespace characters between any tokens, any character of any string (member names too) escaped, hex digits in
 * either case, `\/` for the solidus — which must be served as the same value; the extensions §9 lets a parser take
 * (comments, trailing commas, single quotes, unquoted names, unescaped control characters, leading zeros, data after
 * the value) — latitude: refused is a pass, accepted a warning, and what is accepted must be the extension's reading;
 * what RFC 8259 leaves open (a byte order mark, a member given twice, depth, size) — refusable; and what no reading
 * makes a NewPet (a required member named in another case) — invalid. The hand-written cases of earlier versions are
 * examples of these forms (`BODY_EXAMPLES`), sent by the coverage part; the arbitraries reach the rest.
 */
import fc from 'fast-check';
import { num, prop, render, str, withProp, type JNode, type Spelling } from './json-text.ts';
import type { Body, Form } from './surface.ts';

const RFC8259 = 'RFC 8259';
const RFC9110 = 'RFC 9110';

const EXTENSION_KEYS = ['comments', 'trailingComma', 'singleQuotes', 'unquotedNames', 'rawControls', 'after'] as const;

/** Does a spelling use an extension (its text is then no JSON)? */
export const usesExtension = (sp: Spelling): boolean => EXTENSION_KEYS.some((k) => sp[k] !== undefined && sp[k] !== false);

/** What a spelling does, for people. */
export function spellingLabel(sp: Spelling): string {
  const parts = [
    sp.ws?.some((w) => w !== '') ? `whitespace ${JSON.stringify(sp.ws.join(''))} between the tokens` : '',
    sp.escape?.some(Boolean)
      ? `${sp.escape.every(Boolean) ? 'every character' : 'characters'} of the strings escaped (${sp.long ? '\\u only, ' : ''}${sp.upper?.every(Boolean) ? 'upper' : sp.upper?.some(Boolean) ? 'mixed' : 'lower'}-case hex)`
      : '',
    sp.solidus ? 'every / written \\/' : '',
    sp.order?.length ? `members in another order (ranks ${sp.order.join(',')})` : '',
    sp.comments?.some(Boolean) ? 'comments' : '',
    sp.trailingComma ? 'trailing commas' : '',
    sp.singleQuotes ? `single quotes (${sp.singleQuotes === 'names' ? 'member names' : 'every string'})` : '',
    sp.unquotedNames ? 'member names without quotes' : '',
    sp.rawControls ? 'control characters unescaped' : '',
    sp.after !== undefined ? `${JSON.stringify(sp.after.slice(0, 24))} after the value` : '',
  ].filter(Boolean);
  return parts.join(', ') || 'the plainest text';
}

/**
 * The body written as `sp` spells it. Equivalent JSON: the same value whatever the spelling; an extension: latitude,
 * read as the same NewPet by a parser taking it (its reading: the plain text). `change` alters the tree first (a
 * solidus or a control character to spell, in the name).
 */
export function spellingForm(sp: Spelling, o: { id?: string; label?: string; change?: (n: JNode) => JNode } = {}): Form {
  const ext = usesExtension(sp);
  return {
    kind: 'body',
    id: o.id ?? (ext ? 'json-extension' : 'json-text'),
    cls: ext ? 'latitude' : 'equivalent',
    label: o.label ?? spellingLabel(sp),
    source: ext
      ? `${RFC8259} §9 (a parser MAY accept non-JSON forms or extensions)`
      : `${RFC8259} §2 (whitespace around any token), ${sp.order?.length ? '§4 (an object is an unordered collection), ' : ''}§7 (any character may be escaped, hex digits in either case, \\/)`,
    spell: (b) => {
      const node = o.change ? o.change(b.node) : b.node;
      return { text: render(node, sp), ...(ext ? { readings: [render(node)] } : {}) };
    },
  };
}

/** The name of a NewPet with `extra` appended (a character to spell). */
const nameWith =
  (extra: string) =>
  (n: JNode): JNode => {
    const name = prop(n, 'name');
    return name?.k === 'str' ? withProp(n, 'name', { ...name, value: `${name.value}${extra}` }) : n;
  };

/** Any equivalent spelling of a JSON text: shrinks towards the plainest. */
export const jsonSpellingArb: fc.Arbitrary<Spelling> = fc.record(
  {
    ws: fc.array(fc.constantFrom(' ', '\t', '\n', '\r', '  ', ' \r\n\t'), { maxLength: 5 }),
    escape: fc.array(fc.boolean(), { maxLength: 7 }),
    upper: fc.array(fc.boolean(), { maxLength: 4 }),
    long: fc.boolean(),
    solidus: fc.boolean(),
    order: fc.array(fc.nat({ max: 7 }), { maxLength: 7 }),
  },
  { requiredKeys: [] },
);

/** Garbage after the JSON text: a letter, a closing bracket, a semicolon, a literal, a NUL. */
const garbageArb: fc.Arbitrary<string> = fc.constantFrom('x', '}', ']', ';', ' null', '\u0000');

/** Another NewPet than `n`: another name, categoryId and status (a reader keeping the last value stores this one). */
function another(n: JNode): JNode {
  const name = prop(n, 'name');
  const cat = prop(n, 'categoryId');
  const st = prop(n, 'status');
  let out = withProp(n, 'categoryId', num(cat?.k === 'num' && cat.text === '2' ? '3' : '2'));
  out = withProp(out, 'status', str(st?.k === 'str' && st.value === 'pending' ? 'sold' : 'pending'));
  return name?.k === 'str' ? withProp(out, 'name', { ...name, value: `${name.value}-second` }) : out;
}

/** Data after the value: garbage, the value again, or another NewPet (Go's and Jackson's readers keep the first). */
const afterFormArb: fc.Arbitrary<Form> = fc
  .tuple(fc.oneof(garbageArb, fc.constantFrom('again', 'another')), jsonSpellingArb)
  .map(([after, base]) => ({
    kind: 'body',
    id: 'json-extension',
    cls: 'latitude',
    label:
      after === 'again'
        ? 'the value twice'
        : after === 'another'
          ? 'another NewPet after the value'
          : `${JSON.stringify(after)} after the value`,
    source: `${RFC8259} §9 (Go's json.Decoder and Jackson without FAIL_ON_TRAILING_TOKENS read the first value)`,
    spell: (b) => {
      const tail = after === 'again' ? `\n${render(b.node)}` : after === 'another' ? `\n${render(another(b.node))}` : after;
      return { text: `${render(b.node, base)}${tail}`, readings: [render(b.node)] };
    },
  }));

/** One extension of §9 at a time (a finding names it), on any equivalent spelling. */
export const extensionArb: fc.Arbitrary<{ sp: Spelling; change?: (n: JNode) => JNode }> = fc.oneof(
  fc.array(fc.constantFrom('block' as const, 'line' as const, undefined), { minLength: 1, maxLength: 4 }).map((comments) => ({
    sp: { comments: comments.some(Boolean) ? comments : ['block' as const] },
  })),
  fc.constant({ sp: { trailingComma: true } }),
  fc.constantFrom('names' as const, 'all' as const).map((q) => ({ sp: { singleQuotes: q } })),
  fc.constant({ sp: { unquotedNames: true } }),
  fc.constantFrom('\t', '\u0001', '\u001f').map((c) => ({ sp: { rawControls: true }, change: nameWith(c) })),
);

/** The extension forms the arbitrary picks from: one extension of the text, or data after the value (one time in two). */
export const extensionFormArb: fc.Arbitrary<Form> = fc.oneof(
  fc.tuple(extensionArb, jsonSpellingArb).map(([{ sp, change }, base]) => spellingForm({ ...base, ...sp }, change ? { change } : {})),
  afterFormArb,
);

/** A second value of a NewPet member, valid too, so that either reading of the duplicate is a valid NewPet. */
function secondValue(key: string, first: JNode | undefined, name: string | undefined): JNode | undefined {
  if (key === 'name') return str(`${name ?? ''}-2`);
  if (key === 'status') return str(first?.k === 'str' && first.value === 'sold' ? 'available' : 'sold');
  if (key === 'categoryId') return num(first?.k === 'num' && first.text === '1' ? '2' : '1');
  return undefined;
}

/**
 * The member `key` given twice with two valid values (added first when the NewPet omits it): a server may keep the
 * first or the last (or refuse), but what it answers and what it stores must be the same reading.
 */
export function duplicated(key: string, id: string): Form {
  return {
    kind: 'body',
    id,
    cls: 'refusable',
    label: `the member "${key}" given twice, with two values`,
    source: `${RFC8259} §4 (names SHOULD be unique; a parser may keep the first or the last)`,
    spell: (b: Body) => {
      const given = prop(b.node, key);
      const first = given ?? secondValue(key, str(''), b.name)!;
      const second = secondValue(key, first, b.name)!;
      const base = given ? b.node : withProp(b.node, key, first);
      const baseText = render(base);
      const text = `${baseText.slice(0, -1)},${JSON.stringify(key)}:${render(second)}}`;
      return { text, readings: [baseText, render(withProp(base, key, second))] };
    },
  };
}

const bodyForm = (f: Omit<Extract<Form, { kind: 'body' }>, 'kind'>): Form => ({ kind: 'body', ...f });

/** What RFC 8259 or 9110 leaves to the server: a clean refusal, or one of the readings. */
export const OPEN_BODY_FORMS: readonly Form[] = [
  bodyForm({
    id: 'bom',
    cls: 'refusable',
    label: 'a byte order mark before the JSON value',
    source: `${RFC8259} §8.1 (a parser MAY ignore a BOM)`,
    spell: (b) => ({ text: `\uFEFF${b.text}`, readings: [b.text] }),
  }),
  duplicated('name', 'duplicate-member'),
  duplicated('status', 'duplicate-status'),
  duplicated('categoryId', 'duplicate-category-id'),
  bodyForm({
    id: 'deep-nesting',
    cls: 'refusable',
    label: 'an unknown property nested 2,000 levels deep',
    source: `${RFC8259} §9 (a parser may limit the depth of nesting)`,
    // Read by a server that takes it, the unknown property is ignored: the NewPet is the valid one.
    spell: (b) => ({ text: `${b.text.slice(0, -1)},"x-nested":${'['.repeat(2000)}${']'.repeat(2000)}}`, readings: [b.text] }),
  }),
  bodyForm({
    id: 'member-case-variant',
    cls: 'invalid',
    requirement: 'CREATE-400-MISSING-FIELD',
    label: 'the required member "name" written "Name" (member names are case-sensitive)',
    source: `${RFC8259} §8.3 (names compared code unit by code unit)`,
    spell: (b) => ({ text: b.text.replace('"name":', '"Name":') }),
  }),
  bodyForm({
    id: 'large-body',
    cls: 'refusable',
    label: 'a body of 1.5 MB (an unknown property)',
    source: `${RFC9110} §15.5.14 (413 Content Too Large)`,
    spell: (b) => ({ text: `${b.text.slice(0, -1)},"x-padding":"${'x'.repeat(1_500_000)}"}`, readings: [b.text] }),
  }),
];

/** Any of the open or invalid forms (BOM, a member given twice, depth, size, a name in another case). */
export const openBodyFormArb: fc.Arbitrary<Form> = fc.constantFrom(...OPEN_BODY_FORMS.filter((f) => f.id !== 'large-body'));

const replaceText = (find: RegExp | string, by: string) => (t: string) => t.replace(find, by);

/** A latitude form that edits the plain text (the earlier hand-written cases: their ids are kept for saved counterexamples). */
const edited = (id: string, label: string, source: string, edit: (t: string) => string): Form =>
  bodyForm({ id, cls: 'latitude', label, source, spell: (b) => ({ text: edit(b.text), readings: [b.text] }) });

/** The examples the coverage part sends: the earlier hand-written list, now instances of the forms above. */
export const BODY_EXAMPLES: readonly Form[] = [
  spellingForm({ ws: [' \r\n\t'] }, { id: 'json-whitespace', label: 'insignificant whitespace around and inside the JSON value' }),
  spellingForm(
    { escape: [true], upper: [true], long: true },
    { id: 'json-escapes-upper', label: 'every character of every string written as a \\u escape, upper-case hex' },
  ),
  spellingForm(
    { escape: [false, true], upper: [false] },
    { id: 'json-escapes-lower', label: 'every other character of every string written as a \\u escape, lower-case hex' },
  ),
  spellingForm({ order: [2, 1, 0] }, { id: 'json-member-order', label: 'the members of the object in reverse order' }),
  spellingForm(
    { solidus: true, ws: ['\t'] },
    { id: 'json-solidus', label: 'a solidus in the name written \\/, tabs between the tokens', change: nameWith('/x') },
  ),
  ...OPEN_BODY_FORMS,
  edited(
    'trailing-garbage',
    'data after the JSON value',
    `${RFC8259} §9 (Go's json.Decoder, Jackson without FAIL_ON_TRAILING_TOKENS read the first value)`,
    (t) => `${t}x`,
  ),
  edited('trailing-brace', 'a closing brace too many', `${RFC8259} §9`, (t) => `${t}}`),
  bodyForm({
    id: 'two-values',
    cls: 'latitude',
    label: 'a second JSON value after the first (another NewPet)',
    source: `${RFC8259} §9 (a parser reading the first value keeps the first)`,
    spell: (b) => ({
      text: `${b.text}\n${b.text.replace(/"status":"[a-z]+"/, '"status":"pending"').replace(/"categoryId":\d+/, '"categoryId":2')}`,
      readings: [b.text],
    }),
  }),
  edited('trailing-comma', 'a trailing comma (JSON5)', `${RFC8259} §9 (JSON5)`, replaceText(/}$/, ',}')),
  edited('comment', 'a comment (JSON5)', `${RFC8259} §9 (JSON5)`, replaceText(/}$/, '/* note */}')),
  edited(
    'single-quotes',
    'member names in single quotes (JSON5)',
    `${RFC8259} §9 (JSON5)`,
    replaceText(/"(name|categoryId|status)":/g, "'$1':"),
  ),
  bodyForm({
    id: 'unescaped-control',
    cls: 'latitude',
    label: 'a raw control character inside the name string',
    source: `${RFC8259} §9 (Jackson's ALLOW_UNQUOTED_CONTROL_CHARS)`,
    spell: (b) => ({ text: b.text.replace('"name":"', '"name":"\u0001'), readings: [b.text.replace('"name":"', '"name":"\\u0001')] }),
  }),
  bodyForm({
    id: 'leading-zero',
    cls: 'latitude',
    label: 'a categoryId with a leading zero (07)',
    source: `${RFC8259} §9 (Jackson's ALLOW_LEADING_ZEROS_FOR_NUMBERS)`,
    spell: (b) => ({ text: b.text.replace(/"categoryId":(\d)/, '"categoryId":0$1'), readings: [b.text] }),
  }),
];

/**
 * The body sent chunked (RFC 9112 §7.1: Transfer-Encoding: chunked, no Content-Length), in chunks of these sizes in
 * bytes (cycled; a chunk may end inside a UTF-8 character): the same request by HTTP — a recipient MUST be able to parse
 * the chunked coding (§7.1) — served alike, else HTTP-EQUIVALENT-FORMS warns; a 411 (RFC 9110 §15.5.12) is a refusal
 * of the framing, warned the same way.
 */
export const framingForm = (chunks: number[]): Form => ({
  kind: 'framing',
  id: 'chunked',
  cls: 'equivalent-http',
  label: `the body sent chunked (Transfer-Encoding: chunked, no Content-Length), in chunks of ${chunks.join(', ')} bytes`,
  source: 'RFC 9112 §7.1 (a recipient MUST be able to parse the chunked transfer coding), §6.3 (message body length)',
  chunks,
});

/** Any chunked framing: chunks of any sizes from one byte up, or the whole body in one chunk; shrinks towards one chunk. */
export const framingFormArb: fc.Arbitrary<Form> = fc
  .oneof(fc.constant<number[]>([65536]), fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 4 }))
  .map(framingForm);

/** The framing the coverage part sends: small chunks of two sizes (one of a single byte, inside any UTF-8 character). */
export const FRAMING_EXAMPLES: readonly Form[] = [framingForm([7, 1])];

/** Content-Type of a createPet with a valid body that is no JSON media type: refusable (415, or read anyway). */
export const OTHER_MEDIA_TYPES: readonly Form[] = [
  {
    kind: 'header',
    id: 'ct-absent',
    cls: 'refusable',
    label: 'no Content-Type',
    source: `${RFC9110} §8.3 (a recipient may refuse, or sniff)`,
    headers: { 'content-type': null },
  },
  {
    kind: 'header',
    id: 'ct-text',
    cls: 'refusable',
    label: 'Content-Type: text/plain',
    source: `${RFC9110} §15.5.16 (415 Unsupported Media Type)`,
    headers: { 'content-type': 'text/plain' },
  },
  {
    kind: 'header',
    id: 'ct-form',
    cls: 'refusable',
    label: 'Content-Type: application/x-www-form-urlencoded',
    source: `${RFC9110} §15.5.16`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  },
  {
    kind: 'header',
    id: 'ct-suffix',
    cls: 'refusable',
    label: 'Content-Type: application/vnd.animal-store+json',
    source: `${RFC9110} §15.5.16`,
    headers: { 'content-type': 'application/vnd.animal-store+json' },
  },
];
