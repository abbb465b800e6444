/**
 * The one XML escaper and element builder, under every JUnit writer (the certificate's and each k6 scenario's); the
 * escaper also under the HTML report and its attributes. Text from a server is made visible first (visible.ts:
 * invisible, bidirectional and control characters as \u escapes, lone surrogates included), then escaped; anything
 * XML 1.0 still forbids becomes U+FFFD, so that no XML parser refuses the file. The builder writes every element
 * and attribute through it: a value is never put in a tag by hand. Pure, ES2017 (bundled for k6).
 */
import { visible } from './visible.ts';

/** Characters XML 1.0 does not allow (lone surrogates, most C0 controls, U+FFFE and U+FFFF). */
const INVALID_XML =
  /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\uD800-\uDFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|^[\uDC00-\uDFFF]|([^\uD800-\uDBFF])([\uDC00-\uDFFF])/g;

/** `s` with every character XML 1.0 forbids replaced by U+FFFD. */
export function stripInvalidXml(s: string): string {
  return s.replace(INVALID_XML, (m, before?: string) => (before !== undefined ? `${before}\uFFFD` : '\uFFFD'));
}

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** A value written as text: a string, a number or a flag (undefined and null as ""). */
export type TextValue = string | number | boolean | undefined | null;

/** Escape for XML/HTML text and double- or single-quoted attribute values. */
export function escapeXml(value: TextValue): string {
  const s = value === undefined || value === null ? '' : String(value);
  return stripInvalidXml(visible(s)).replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

/** Escape for an attribute value, keeping line breaks and tabs (attribute normalisation would eat them). */
export function escapeAttr(value: TextValue): string {
  return escapeXml(value).replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}

/** Markup this module built: escaped text and whole elements, which an element takes as they are. Only xmlText, xmlElement and xmlBlock make one. */
export class Xml {
  constructor(readonly markup: string) {}
  toString(): string {
    return this.markup;
  }
}

/** An element's attributes, in the order written; each value is escaped (undefined and null as ""). */
export type XmlAttrs = Readonly<Record<string, string | number | boolean | undefined | null>>;

/** What an element holds: markup this module built, or anything else, which is text (escaped). */
export type XmlChild = Xml | string | number;

/** XML 1.0 names as the writers use them (ASCII): an element or attribute name from the code, never from a server. */
const NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

function checkedName(name: string): string {
  if (!NAME.test(name)) throw new Error(`not an XML name: ${JSON.stringify(name)}`);
  return name;
}

function openTag(name: string, attrs: XmlAttrs): string {
  let out = `<${checkedName(name)}`;
  for (const key of Object.keys(attrs)) out += ` ${checkedName(key)}="${escapeAttr(attrs[key])}"`;
  return out;
}

/** Text as markup: made visible, stripped of what XML 1.0 forbids, escaped. */
export function xmlText(value: TextValue): Xml {
  return new Xml(escapeXml(value));
}

/**
 * One element on one line (a text child may hold line breaks): `indent<name a="…">children</name>`, or
 * `indent<name a="…"/>` without children. A child that is not Xml is text, escaped.
 */
export function xmlElement(name: string, attrs: XmlAttrs = {}, children: readonly XmlChild[] = [], indent = ''): Xml {
  const open = `${indent}${openTag(name, attrs)}`;
  if (!children.length) return new Xml(`${open}/>`);
  return new Xml(`${open}>${children.map((c) => (c instanceof Xml ? c.markup : escapeXml(c))).join('')}</${name}>`);
}

/**
 * One element over several lines: its open tag at `indent`, each child on a line of its own (each built at its own,
 * deeper indent), its close tag at `indent`; `indent<name a="…"/>` without children.
 */
export function xmlBlock(name: string, attrs: XmlAttrs, lines: readonly Xml[], indent = ''): Xml {
  const open = `${indent}${openTag(name, attrs)}`;
  if (!lines.length) return new Xml(`${open}/>`);
  return new Xml(`${open}>\n${lines.map((l) => l.markup).join('\n')}\n${indent}</${name}>`);
}

/** A document: the XML declaration, the root element, a final line break. */
export function xmlDocument(root: Xml): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${root.markup}\n`;
}
