/**
 * Fault json5-accepted: a body read as JSON5 by rewriting it into JSON first — comments dropped, a comma before a
 * closing bracket dropped, single-quoted strings and unquoted member names quoted — the way permissive readers do.
 * Apart from the suite's own reading of extensions (a bug shared would make both agree).
 */
const IDENT = /[A-Za-z_$][A-Za-z0-9_$]*/y;

/** The JSON text a JSON5 reader makes of `text` (unchanged where it is JSON already). */
export function json5ToJson(text: string): string {
  let out = '';
  for (let i = 0; i < text.length;) {
    const c = text[i];
    if (c === '"' || c === "'") {
      const end = stringEnd(text, i);
      const inner = text.slice(i + 1, end);
      out += c === '"' ? `"${inner}"` : `"${inner.replace(/\\'/g, "'").replace(/(^|[^\\])"/g, '$1\\"')}"`;
      i = end + 1;
    } else if (text.startsWith('//', i)) i = text.indexOf('\n', i) < 0 ? text.length : text.indexOf('\n', i);
    else if (text.startsWith('/*', i)) i = text.indexOf('*/', i) < 0 ? text.length : text.indexOf('*/', i) + 2;
    else if (c === ',' && /^\s*[}\]]/.test(text.slice(i + 1))) i++;
    else {
      IDENT.lastIndex = i;
      const id = IDENT.exec(text);
      const name = id && /^\s*:/.test(text.slice(i + id[0].length)) && !['true', 'false', 'null'].includes(id[0]);
      out += name ? `"${id[0]}"` : id ? id[0] : c;
      i += id ? id[0].length : 1;
    }
  }
  return out;
}

/** The index of the quote closing the string opened at `start`. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === text[start]) return i;
  }
  return text.length;
}
