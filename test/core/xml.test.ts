/**
 * One XML path: the element builder of src/core/xml.ts writes both JUnit writers' elements and attributes (the
 * certificate's junit.xml and each k6 scenario's), and what they write is read by a real XML 1.0 parser (saxes,
 * strict), not the suite's own checker: text a server sent — lone surrogates, C0 and C1 controls, U+FFFE and U+FFFF,
 * bidirectional and zero-width characters, markup — in messages, names and bodies parses, and reads back as
 * visible() shows it.
 */
import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import type { Judgement } from '../../src/core/sections/define.ts';
import { judge, withEvidence } from '../support/fixture-judgements.ts';
import type { LoadReport } from '../../src/core/load-report.ts';
import { visible } from '../../src/core/visible.ts';
import { xmlBlock, xmlDocument, xmlElement, xmlText } from '../../src/core/xml.ts';
import { loadJunit } from '../../load/lib/report-text.ts';
import { renderJunit } from '../../src/results/writers/junit.ts';
import { aborted, conformance, found, report } from '../support/report-fixtures.ts';
import { passingLoad } from '../support/load-fixtures.ts';

/** What a server may send that XML 1.0 forbids or a reader cannot see, each with a neighbour that must survive. */
const NASTY: [string, string][] = [
  ['a lone high surrogate', 'lone \uD800 high'],
  ['a lone low surrogate', 'lone \uDC00 low'],
  ['a swapped pair', 'swapped \uDC00\uD800 pair'],
  ['C0 controls', 'nul\u0000 bel\u0007 esc\u001B us\u001F'],
  ['C1 controls', 'c1 \u0080 nel\u0085 apc\u009F'],
  ['U+FFFE and U+FFFF', 'nonchars \uFFFE \uFFFF'],
  ['bidirectional controls', 'bidi \u202E\u2066\u200F'],
  ['zero-width characters', 'zero-width \u200B\u200D\uFEFF'],
  ['markup', `markup <a x="1"> & 'q' ]]> </testcase>`],
  ['an astral character', 'astral \u{1F600} kept'],
  ['line breaks and tabs', 'line\nbreak\ttab\rreturn'],
];
const HOSTILE = NASTY.map(([, s]) => s).join(' | ');

interface Parsed {
  errors: string[];
  /** Every element: its name, its attributes and the text directly inside it. */
  elements: { name: string; attributes: Record<string, string>; text: string }[];
}

/** `xml` through saxes, strict XML 1.0: every error it reports, and what it read. */
function parse(xml: string): Parsed {
  const parser = new SaxesParser({ defaultXMLVersion: '1.0', forceXMLVersion: true });
  const out: Parsed = { errors: [], elements: [] };
  const open: Parsed['elements'] = [];
  parser.on('error', (e) => out.errors.push(e.message));
  parser.on('opentag', (tag) => {
    const el = { name: tag.name, attributes: tag.attributes as Record<string, string>, text: '' };
    out.elements.push(el);
    open.push(el);
  });
  parser.on('text', (t) => {
    if (open.length) open[open.length - 1].text += t;
  });
  parser.on('closetag', () => void open.pop());
  parser.write(xml).close();
  return out;
}

/** Every attribute value and text the parser read, in one string. */
const everything = (p: Parsed) => p.elements.flatMap((e) => [...Object.values(e.attributes), e.text]).join('\n');

describe('the XML parser of these tests', () => {
  it.each([
    ['a lone surrogate', '<a>\uD800</a>'],
    ['a control character', '<a>\u0007</a>'],
    ['U+FFFF', '<a x="\uFFFF"/>'],
    ['a bare ampersand', '<a>fish & chips</a>'],
    ['an unescaped < in an attribute', '<a x="1<2"/>'],
  ])('It refuses a document with %s.', (_name, xml) => {
    expect(parse(xml).errors).not.toEqual([]);
  });
});

describe('the element builder', () => {
  it('It escapes attribute values (line breaks kept as references) and text children; markup it built goes in as it is.', () => {
    const el = xmlElement('a', { x: 'say "1<2"\nthen', n: 3, b: true, u: undefined }, ['t<&', xmlElement('b'), xmlText('>')]);
    expect(el.markup).toBe('<a x="say &quot;1&lt;2&quot;&#10;then" n="3" b="true" u="">t&lt;&amp;<b/>&gt;</a>');
  });

  it('It writes an element without children as an empty-element tag, and a block as its lines between its tags.', () => {
    expect(xmlElement('e', {}, [], '  ').markup).toBe('  <e/>');
    expect(xmlBlock('r', { k: 'v' }, []).markup).toBe('<r k="v"/>');
    const block = xmlBlock('r', {}, [xmlElement('c', {}, ['x'], '  '), xmlBlock('d', {}, [xmlElement('e', {}, [], '    ')], '  ')]);
    expect(block.markup).toBe('<r>\n  <c>x</c>\n  <d>\n    <e/>\n  </d>\n</r>');
    expect(xmlDocument(block)).toBe(`<?xml version="1.0" encoding="UTF-8"?>\n${block.markup}\n`);
  });

  it.each(['a b', 'a"', '1a', 'a>', ''])('It refuses %j as an element or attribute name.', (name) => {
    expect(() => xmlElement(name)).toThrow(/not an XML name/);
    expect(() => xmlElement('a', { [name]: 'v' })).toThrow(/not an XML name/);
  });

  it.each(NASTY)('Text with %s parses, as an attribute and as text, and reads back as visible() shows it.', (_name, s) => {
    const parsed = parse(xmlDocument(xmlElement('a', { v: s }, [s])));
    expect(parsed.errors).toEqual([]);
    expect(parsed.elements[0].attributes.v).toBe(visible(s));
    expect(parsed.elements[0].text).toBe(visible(s));
  });
});

/** A scenario's judgements carrying the hostile text in their titles (testcase names) and messages. */
const hostileJudgements = (): Judgement[] => [
  { requirement: 'RL-CEILING-429', outcome: 'fail', title: `Title ${HOSTILE}`, message: `Message ${HOSTILE}` },
  { requirement: 'RL-RECOVERY', outcome: 'skip', title: 'Skipped', message: `Why ${HOSTILE}` },
  { requirement: 'RL-NOT-EARLY', outcome: 'warn', title: 'Warned', message: `Warning ${HOSTILE}` },
  { requirement: 'RL-429-RETRY-AFTER', outcome: 'error', title: 'Suite error', message: `Error ${HOSTILE}` },
];

const hostileLoad = (): LoadReport => ({
  ...passingLoad()[0],
  target: `https://api.example/v1?q=${HOSTILE}`,
  judgements: hostileJudgements(),
  notes: [`Note ${HOSTILE}`],
});

/** Every nasty piece of text is in what the parser read, as visible() shows it. */
function expectAllReadBack(p: Parsed): void {
  const text = everything(p);
  for (const [name, s] of NASTY) expect(text, name).toContain(visible(s));
}

describe('both JUnit writers, read by a real XML parser', () => {
  it('A k6 scenario report whose names, messages, target and notes carry the hostile text is well-formed XML 1.0.', () => {
    const parsed = parse(loadJunit(hostileLoad()));
    expect(parsed.errors).toEqual([]);
    const cases = parsed.elements.filter((e) => e.name === 'testcase');
    expect(cases.map((c) => c.attributes.name)).toContain(`RL-CEILING-429: ${visible(`Title ${HOSTILE}`)}`);
    expectAllReadBack(parsed);
  });

  it('A certificate whose evidence, titles, messages, notes, diagnosis and abort reason carry the hostile text is well-formed XML 1.0.', () => {
    const evidence = { response: { status: 200, headers: { 'x-echo': HOSTILE }, body: HOSTILE }, expected: HOSTILE, actual: HOSTILE };
    const failing = found(withEvidence(judge('RESP-BODY-JSON', false, `Title ${HOSTILE}`, `Message ${HOSTILE}`), evidence));
    const r = aborted(
      report({ findings: conformance({ 'RESP-BODY-JSON': [failing] }), load: [hostileLoad()], notes: [HOSTILE], diagnosis: HOSTILE }),
      `Stopped ${HOSTILE}`,
    );
    const parsed = parse(renderJunit(r));
    expect(parsed.errors).toEqual([]);
    const failures = parsed.elements.filter((e) => e.name === 'failure').map((e) => e.attributes.message);
    // each failure's message names its cause first ("[cause C-…] "), then the finding's title
    expect(failures.some((m) => m.replace(/^\[causes? [^\]]*\] /, '').startsWith(visible(`Title ${NASTY[0][1]}`)))).toBe(true);
    expect(parsed.elements.find((e) => e.name === 'error')?.text).toBe(visible(`Stopped ${HOSTILE}`));
    expectAllReadBack(parsed);
  });
});
