/**
 * The one XML escaper, under every JUnit writer (the certificate's and each k6 scenario's), the HTML report and its
 * attributes: text from a server is made visible first (visible.ts: invisible, bidirectional and control characters as
 * \u escapes, lone surrogates included), then escaped; anything XML 1.0 still forbids becomes U+FFFD, so that no XML
 * parser refuses the file. Pure, ES2017 (bundled for k6).
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

/** Escape for XML/HTML text and double- or single-quoted attribute values. */
export function escapeXml(value: unknown): string {
  const s = value === undefined || value === null ? '' : String(value);
  return stripInvalidXml(visible(s)).replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

/** Escape for an attribute value, keeping line breaks and tabs (attribute normalisation would eat them). */
export function escapeAttr(value: unknown): string {
  return escapeXml(value).replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}
