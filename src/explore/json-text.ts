/**
 * Request bodies as a small JSON syntax tree, so generated bodies are written
 * exactly as intended: int64 numbers as their own digits (never through a JS
 * number), non-canonical number spellings (`1.0`, `1e2`, `-0`) kept as
 * written, strings either as JSON.stringify writes them or with every
 * non-ASCII character escaped (`\u00e9`, surrogate pairs for astral ones), and
 * malformed text where a case needs it.
 */
export type JNode =
  | { k: 'num'; text: string }
  | { k: 'str'; value: string; escaped?: boolean; named?: 'prefixed' | 'bare' }
  | { k: 'lit'; text: 'true' | 'false' | 'null' }
  | { k: 'arr'; items: JNode[] }
  | { k: 'obj'; props: [string, JNode][] }
  | { k: 'raw'; text: string }
  /** Malformed JSON: the text of `of` without its last character. */
  | { k: 'cut'; of: JNode };

export const num = (text: string | bigint): JNode => ({ k: 'num', text: String(text) });
export const str = (value: string, escaped = false): JNode => ({ k: 'str', value, ...(escaped ? { escaped } : {}) });
export const lit = (text: 'true' | 'false' | 'null'): JNode => ({ k: 'lit', text });
export const obj = (props: [string, JNode][]): JNode => ({ k: 'obj', props });

/** JSON text of a string with every character outside printable ASCII written as a \u escape. */
export function escapeAll(s: string): string {
  return JSON.stringify(s).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function render(n: JNode): string {
  switch (n.k) {
    case 'num':
    case 'lit':
    case 'raw':
      return n.text;
    case 'str':
      return n.escaped ? escapeAll(n.value) : JSON.stringify(n.value);
    case 'arr':
      return `[${n.items.map(render).join(',')}]`;
    case 'obj':
      return `{${n.props.map(([k, v]) => `${JSON.stringify(k)}:${render(v)}`).join(',')}}`;
    case 'cut':
      return render(n.of).slice(0, -1);
  }
}

/** The same JSON value with insignificant whitespace (RFC 8259 §2: space, tab, line feed, carriage return) around every token. */
export function renderSpaced(n: JNode, ws = ' \r\n\t'): string {
  if (n.k === 'arr') return `[${ws}${n.items.map((x) => renderSpaced(x, ws)).join(`${ws},${ws}`)}${ws}]`;
  if (n.k === 'obj')
    return `{${ws}${n.props.map(([k, v]) => `${JSON.stringify(k)}${ws}:${ws}${renderSpaced(v, ws)}`).join(`${ws},${ws}`)}${ws}}`;
  return render(n);
}

/** The node of property `key` of an object node. */
export function prop(n: JNode, key: string): JNode | undefined {
  return n.k === 'obj' ? n.props.find(([k]) => k === key)?.[1] : undefined;
}

/** A copy of an object node with `key` set to `value` (or removed when value is undefined). */
export function withProp(n: JNode, key: string, value: JNode | undefined): JNode {
  if (n.k !== 'obj') return n;
  const props = n.props.filter(([k]) => k !== key);
  if (value === undefined) return { k: 'obj', props };
  const at = n.props.findIndex(([k]) => k === key);
  props.splice(at < 0 ? props.length : at, 0, [key, value]);
  return { k: 'obj', props };
}

/** Apply `f` to every string node (depth first). */
export function mapStrings(n: JNode, f: (s: Extract<JNode, { k: 'str' }>) => JNode): JNode {
  if (n.k === 'str') return f(n);
  if (n.k === 'arr') return { k: 'arr', items: n.items.map((x) => mapStrings(x, f)) };
  if (n.k === 'obj') return { k: 'obj', props: n.props.map(([k, v]) => [k, mapStrings(v, f)] as [string, JNode]) };
  if (n.k === 'cut') return { k: 'cut', of: mapStrings(n.of, f) };
  return n;
}
