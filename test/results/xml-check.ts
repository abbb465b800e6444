/**
 * A small XML 1.0 well-formedness checker (no DTD): characters, one root element,
 * balanced tags, attribute syntax and uniqueness, entity and character
 * references. Enough to prove junit.xml and badge.svg parse in any XML parser.
 */
const NAME = '[A-Za-z_:][-A-Za-z0-9_:.]*';
const INVALID_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;
const REF = /&(#[0-9]+|#x[0-9a-fA-F]+|[A-Za-z_][-A-Za-z0-9_.]*);/y;
const PREDEFINED = new Set(['amp', 'lt', 'gt', 'quot', 'apos']);

function checkRefs(text: string, where: string, problems: string[]): void {
  for (let i = text.indexOf('&'); i >= 0; i = text.indexOf('&', i + 1)) {
    REF.lastIndex = i;
    const m = REF.exec(text);
    if (!m) {
      problems.push(`${where}: bare '&'`);
      continue;
    }
    const ref = m[1];
    if (ref.startsWith('#')) {
      const code = ref.startsWith('#x') ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      if (code > 0x10ffff || INVALID_CHAR.test(String.fromCodePoint(code)))
        problems.push(`${where}: reference to an invalid character &${ref};`);
    } else if (!PREDEFINED.has(ref)) problems.push(`${where}: undefined entity &${ref};`);
  }
}

const START_TAG = new RegExp(`<(${NAME})((?:\\s+${NAME}\\s*=\\s*(?:"[^"<]*"|'[^'<]*'))*)\\s*(/?)>`, 'y');
const END_TAG = new RegExp(`</(${NAME})\\s*>`, 'y');
const ATTR = new RegExp(`(${NAME})\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'g');

/** Where a check of a document is: the elements open, the root elements met, what was found wrong. */
interface Markup {
  stack: string[];
  roots: number;
  problems: string[];
}

/** A comment or CDATA section at `lt`: the position after it, 'stop' when it is malformed, undefined when none is there. */
function commentOrCdata(xml: string, lt: number, m: Markup): number | 'stop' | undefined {
  if (xml.startsWith('<!--', lt)) {
    const end = xml.indexOf('-->', lt + 4);
    if (end >= 0 && !xml.slice(lt + 4, end).includes('--')) return end + 3;
    m.problems.push(`bad comment at ${lt}`);
    return 'stop';
  }
  if (!xml.startsWith('<![CDATA[', lt)) return undefined;
  const end = xml.indexOf(']]>', lt);
  if (end >= 0 && m.stack.length) return end + 3;
  m.problems.push(`bad CDATA at ${lt}`);
  return 'stop';
}

/** An end or start tag at `lt` (its attributes checked): the position after it, or 'stop' when it is malformed. */
function tagAt(xml: string, lt: number, m: Markup): number | 'stop' {
  END_TAG.lastIndex = lt;
  const e = END_TAG.exec(xml);
  if (e) {
    const open = m.stack.pop();
    if (open !== e[1]) m.problems.push(`</${e[1]}> closes <${open ?? 'nothing'}> at ${lt}`);
    return END_TAG.lastIndex;
  }
  START_TAG.lastIndex = lt;
  const s = START_TAG.exec(xml);
  if (!s) {
    m.problems.push(`malformed markup at ${lt}: ${JSON.stringify(xml.slice(lt, lt + 40))}`);
    return 'stop';
  }
  const names = new Set<string>();
  for (const a of s[2].matchAll(ATTR)) {
    if (names.has(a[1])) m.problems.push(`duplicate attribute ${a[1]} at ${lt}`);
    names.add(a[1]);
    checkRefs(a[2] ?? a[3] ?? '', `attribute ${a[1]} at ${lt}`, m.problems);
  }
  if (!m.stack.length && ++m.roots > 1) m.problems.push(`second root element <${s[1]}> at ${lt}`);
  if (!s[3]) m.stack.push(s[1]);
  return START_TAG.lastIndex;
}

/** Problems found in `xml`; empty when it is well-formed. */
export function xmlProblems(xml: string): string[] {
  const m: Markup = { stack: [], roots: 0, problems: [] };
  const bad = INVALID_CHAR.exec(xml);
  if (bad) m.problems.push(`invalid character U+${bad[0].codePointAt(0)!.toString(16)} at ${bad.index}`);
  let pos = /^<\?xml[^?]*\?>/.exec(xml)?.[0].length ?? 0;
  while (pos < xml.length) {
    const lt = xml.indexOf('<', pos);
    const text = xml.slice(pos, lt < 0 ? xml.length : lt);
    if (text.includes(']]>')) m.problems.push(`']]>' in text at ${pos}`);
    if (!m.stack.length && text.trim()) m.problems.push(`text outside the root element at ${pos}`);
    checkRefs(text, `text at ${pos}`, m.problems);
    if (lt < 0) break;
    const next = commentOrCdata(xml, lt, m) ?? tagAt(xml, lt, m);
    if (next === 'stop') break;
    pos = next;
  }
  if (m.stack.length) m.problems.push(`unclosed element(s): ${m.stack.join(', ')}`);
  if (!m.roots) m.problems.push('no root element');
  return m.problems;
}
