/**
 * HTML escaped by default. The `html` tag escapes every value it is given —
 * as text between tags, as an attribute value inside quotes (keeping line
 * breaks and tabs) — unless the value is already `SafeHtml`: markup the tag
 * built, or the rare insertion marked `raw` (the page's own constant style,
 * script and drawings). A forgotten escape is therefore not possible: a value
 * that comes from the server is a string, and a string is always escaped.
 */
import { escapeAttr, escapeXml } from './common.ts';

/** Markup that is safe to insert as it is. Only `html`, `joinHtml` and `raw` make one. */
export class SafeHtml {
  readonly #text: string;
  constructor(text: string) {
    this.#text = text;
  }
  toString(): string {
    return this.#text;
  }
}

/** What may stand in a `${}` of the `html` tag: nothing (undefined, null, false) renders as nothing. */
export type HtmlValue = SafeHtml | string | number | boolean | undefined | null | readonly HtmlValue[];

/** Where a value lands: between tags, inside a quoted attribute value, or inside a tag outside any quotes. */
type Slot = 'text' | 'attr' | 'tag';

/** The slot after each literal part of a template (a tiny scanner over the literal parts only: values never change it). */
function slotsOf(parts: readonly string[]): Slot[] {
  let state: Slot = 'text';
  return parts.slice(0, -1).map((part) => {
    for (let i = 0; i < part.length; i++) {
      const c = part[i];
      if (state === 'text' && c === '<' && /[a-zA-Z/!]/.test(part[i + 1] ?? '')) state = 'tag';
      else if (state === 'tag' && c === '"') state = 'attr';
      else if (state === 'attr' && c === '"') state = 'tag';
      else if (state === 'tag' && c === '>') state = 'text';
    }
    return state;
  });
}

const SLOTS = new WeakMap<TemplateStringsArray, Slot[]>();

/** Array.isArray, narrowing to a readonly list too. */
const isList = (v: HtmlValue): v is readonly HtmlValue[] => Array.isArray(v);

function render(value: HtmlValue, slot: Slot): string {
  if (value instanceof SafeHtml) return value.toString();
  if (value === undefined || value === null || value === false) return '';
  if (isList(value)) return value.map((v) => render(v, slot)).join('');
  return slot === 'text' ? escapeXml(value) : escapeAttr(value);
}

/** The tagged template: every value escaped for where it lands, SafeHtml inserted as it is, arrays joined with nothing. */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): SafeHtml {
  let slots = SLOTS.get(strings);
  if (!slots) SLOTS.set(strings, (slots = slotsOf(strings)));
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i], slots[i]) + strings[i + 1];
  return new SafeHtml(out);
}

/** Items joined with a separator, each escaped as text unless it is SafeHtml. */
export function joinHtml(items: readonly HtmlValue[], separator: string): SafeHtml {
  return new SafeHtml(items.map((v) => render(v, 'text')).join(escapeXml(separator)));
}

/**
 * Markup inserted without escaping. Only for the page's own constants (its
 * style, its script, its drawings) — never for a value that came from a run.
 */
export function raw(markup: string): SafeHtml {
  return new SafeHtml(markup);
}
