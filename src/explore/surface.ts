/**
 * The request around the JSON value is input too: its surface — the body's text (body-forms.ts), the header fields
 * (header-forms.ts), the credentials' spelling and the query string (query-forms.ts). A change to it is a `Form`, one
 * tagged union (`kind`) that the prober, the replay, the coverage cases and the counterexample store switch on; each is
 * classed by the grammar and the spec:
 * - `equivalent`: the same JSON value (RFC 8259): served exactly as the request it spells (its MUSTs);
 * - `equivalent-http`: the same request by HTTP or URI syntax (RFC 9110, 3986): served alike, else the
 *   HTTP-EQUIVALENT-FORMS warning (the spec names no such form; HTTP makes them equivalent);
 * - `refusable`: left open by an RFC (a BOM, a duplicated member, a repeated parameter, another media type): a clean
 *   4xx Error, or served as one of its readings;
 * - `latitude`: no JSON, but read as a NewPet by an extension RFC 8259 §9 allows (comments, trailing commas, single
 *   quotes, data after the value): refused is a pass, accepted a warning naming the extension and its risk (a proxy or
 *   WAF that parses the body otherwise: a parser differential), and what is accepted must be the extension's reading;
 * - `invalid`: not what the operation takes (a required member named in another case, a near-miss of the key, a method
 *   the path does not take): refused — 400 for createPet, 401 for a credential, 405 with Allow for a method.
 * Two kinds vary what no schema lists (issue 39, request-forms.ts): the method and the credential; each is judged by
 * the rule the spec files call (checks.ts: judgeRequestForms).
 */
import type { KeyPlacement } from '../core/credentials.ts';
import type { SurfaceRecord } from '../results/types.ts';
import type { JNode } from './json-text.ts';

export type SurfaceClass = SurfaceRecord['cls'];

/** A valid NewPet as a body form starts from: its syntax tree (named), its text, and the name it carries. */
export interface Body {
  node: JNode;
  text: string;
  name?: string;
}

interface FormBase {
  /** The dimension it varies (`json-text`, `accept`, `query`…): stable, the title of a finding names it. */
  id: string;
  cls: SurfaceClass;
  label: string;
  /** The RFC section (or the spec's words) that makes it so. */
  source: string;
  /** An invalid form: the requirement its refusal proves (CREATE-400-BAD-BODY when not said for a body). */
  requirement?: SurfaceRecord['requirement'];
}

/** One change of a request's surface, by kind. */
export type Form =
  | (FormBase & { kind: 'body'; spell(b: Body): { text: string; readings?: string[] } })
  | (FormBase & { kind: 'header'; headers: Record<string, string | null> })
  | (FormBase & { kind: 'auth'; spelled: string })
  /** The body's framing: sent chunked (RFC 9112 §7.1) in chunks of these sizes in bytes (cycled), without Content-Length. */
  | (FormBase & { kind: 'framing'; chunks: number[] })
  | (FormBase & { kind: 'query'; shape(q: Record<string, string>): { raw: string; reading: Record<string, string> } | undefined })
  /** Another method than the operation's, on its path (request-forms.ts: HEAD, OPTIONS, TRACE, an extension, the methods that write). */
  | (FormBase & { kind: 'method'; method: string })
  /** The key edited, or placed where the spec does not put it (request-forms.ts; the wire is made from the key as it leaves). */
  | (FormBase & { kind: 'credential'; credential: KeyPlacement });

/** A form as data (what a probe and a saved counterexample keep; the wire data is the probe's own). */
export const recordOf = (f: Form | SurfaceRecord): SurfaceRecord => ({
  kind: f.kind,
  id: f.id,
  cls: f.cls,
  label: f.label,
  source: f.source,
  ...(f.requirement ? { requirement: f.requirement } : {}),
});

/** The classes from the most binding to the least: a request takes the first its forms have. */
const ORDER: readonly SurfaceClass[] = ['invalid', 'latitude', 'refusable', 'equivalent-http', 'equivalent'];

/** The class of a request's surface (no form: equivalent). */
export const classOf = (forms: readonly Pick<SurfaceRecord, 'cls'>[]): SurfaceClass =>
  ORDER.find((c) => forms.some((f) => f.cls === c)) ?? 'equivalent';

/** The forms HTTP or URI syntax makes equivalent (what HTTP-EQUIVALENT-FORMS names), by their ids. */
export const httpForms = (forms: readonly SurfaceRecord[]): SurfaceRecord[] => forms.filter((f) => f.cls === 'equivalent-http');

/** The ids of a request's forms, for a title: `accept, accept-language`. */
export const idsOf = (forms: readonly SurfaceRecord[]): string => [...new Set(forms.map((f) => f.id))].sort().join(', ');

/** The forms of a request, for people. */
export const labelOf = (forms: readonly SurfaceRecord[]): string => forms.map((f) => f.label).join('; ');
