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

/** Problems found in `xml`; empty when it is well-formed. */
export function xmlProblems(xml: string): string[] {
  const problems: string[] = [];
  const bad = INVALID_CHAR.exec(xml);
  if (bad) problems.push(`invalid character U+${bad[0].codePointAt(0)!.toString(16)} at ${bad.index}`);
  let pos = 0;
  const decl = /^<\?xml[^?]*\?>/.exec(xml);
  if (decl) pos = decl[0].length;
  const stack: string[] = [];
  let roots = 0;
  const startTag = new RegExp(`<(${NAME})((?:\\s+${NAME}\\s*=\\s*(?:"[^"<]*"|'[^'<]*'))*)\\s*(/?)>`, 'y');
  const endTag = new RegExp(`</(${NAME})\\s*>`, 'y');
  const attr = new RegExp(`(${NAME})\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'g');
  while (pos < xml.length) {
    const lt = xml.indexOf('<', pos);
    const text = xml.slice(pos, lt < 0 ? xml.length : lt);
    if (text.includes(']]>')) problems.push(`']]>' in text at ${pos}`);
    if (!stack.length && text.trim()) problems.push(`text outside the root element at ${pos}`);
    checkRefs(text, `text at ${pos}`, problems);
    if (lt < 0) break;
    if (xml.startsWith('<!--', lt)) {
      const end = xml.indexOf('-->', lt + 4);
      if (end < 0 || xml.slice(lt + 4, end).includes('--')) {
        problems.push(`bad comment at ${lt}`);
        break;
      }
      pos = end + 3;
      continue;
    }
    if (xml.startsWith('<![CDATA[', lt)) {
      const end = xml.indexOf(']]>', lt);
      if (end < 0 || !stack.length) {
        problems.push(`bad CDATA at ${lt}`);
        break;
      }
      pos = end + 3;
      continue;
    }
    endTag.lastIndex = lt;
    const e = endTag.exec(xml);
    if (e) {
      const open = stack.pop();
      if (open !== e[1]) problems.push(`</${e[1]}> closes <${open ?? 'nothing'}> at ${lt}`);
      pos = endTag.lastIndex;
      continue;
    }
    startTag.lastIndex = lt;
    const s = startTag.exec(xml);
    if (!s) {
      problems.push(`malformed markup at ${lt}: ${JSON.stringify(xml.slice(lt, lt + 40))}`);
      break;
    }
    const names = new Set<string>();
    for (const m of s[2].matchAll(attr)) {
      if (names.has(m[1])) problems.push(`duplicate attribute ${m[1]} at ${lt}`);
      names.add(m[1]);
      checkRefs(m[2] ?? m[3] ?? '', `attribute ${m[1]} at ${lt}`, problems);
    }
    if (!stack.length && ++roots > 1) problems.push(`second root element <${s[1]}> at ${lt}`);
    if (!s[3]) stack.push(s[1]);
    pos = startTag.lastIndex;
  }
  if (stack.length) problems.push(`unclosed element(s): ${stack.join(', ')}`);
  if (!roots) problems.push('no root element');
  return problems;
}
