/**
 * The rules of "Hygiene and security" (ADVISORY: the spec is silent, a user must know; a violation warns, never
 * fails), written once: the response checks (src/checks/hygiene.ts) read each exchange and call these.
 *
 * - HYGIENE-CREDENTIAL-NOT-REFLECTED: the credential a request carried (its token raw, under Bearer or Basic — Basic's
 *   decoded user-id and password too) appears in the response body or a header, in any case, raw, URL-encoded,
 *   JSON-escaped or base64-encoded (also inside the base64 of a longer text, such as the whole Authorization value).
 * - HYGIENE-DEPRECATION-ONLY-GETPET: an operation the spec does not deprecate carries a Deprecation, Sunset or
 *   deprecation Link.
 * Pure.
 */
import type { Judgement } from '../define.ts';
import { HYGIENE } from './requirements.ts';

/** Shorter secrets are not looked for: a made-up or empty token would match ordinary text. */
export const MIN_SECRET = 8;

export interface Secret {
  /** What it is, never its value: "the Bearer token", "the Basic password". */
  what: string;
  text: string;
}

function base64(s: string): string | undefined {
  try {
    return btoa(s).replace(/=+$/, '');
  } catch {
    return undefined; // not Latin-1: cannot be sent as a header value anyway
  }
}

function decodeBasic(token: string): string | undefined {
  try {
    const text = atob(token);
    return /^[\x20-\x7e]+$/.test(text) ? text : undefined;
  } catch {
    return undefined;
  }
}

/** The secrets an Authorization value carries (at least MIN_SECRET characters each). */
export function credentialSecrets(authorization: string): Secret[] {
  const m = /^(\S+)\s+(\S.*)$/.exec(authorization.trim());
  const scheme = m ? m[1] : undefined;
  const token = m ? m[2].trim() : authorization.trim();
  const out: Secret[] = [{ what: scheme ? `the ${scheme} credential` : 'the raw credential', text: token }];
  const decoded = scheme?.toLowerCase() === 'basic' ? decodeBasic(token) : undefined;
  if (decoded) {
    const colon = decoded.indexOf(':');
    out.push({ what: 'the decoded Basic credential', text: decoded });
    if (colon >= 0)
      out.push(
        { what: 'the Basic user-id', text: decoded.slice(0, colon) },
        { what: 'the Basic password', text: decoded.slice(colon + 1) },
      );
  }
  return out.filter((s) => s.text.length >= MIN_SECRET);
}

/** The forms a secret may come back in, each named; base64 at each of the three alignments (inside a longer encoded text). */
export function secretForms(secret: string): { form: string; text: string }[] {
  const forms = [
    { form: 'raw', text: secret },
    { form: 'URL-encoded', text: encodeURIComponent(secret) },
    { form: 'JSON-escaped', text: JSON.stringify(secret).slice(1, -1) },
  ];
  // base64 of whole 3-byte groups, from each of the three alignments: found inside the base64 of any longer text (e.g. "Bearer <key>")
  for (const skip of [0, 1, 2]) {
    const part = secret.slice(skip);
    const b64 = base64(part.slice(0, part.length - (part.length % 3)));
    if (b64) forms.push({ form: 'base64-encoded', text: b64 });
  }
  const seen = new Set<string>();
  return forms.filter((f) => {
    const k = f.text.toLowerCase();
    if (f.text.length < MIN_SECRET || seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

export interface Reflection {
  /** "the response body" or "the X-Echo header". */
  where: string;
  secret: Secret;
  form: string;
}

/** Where a response reflects one of the secrets (any case): the body, then each header; the first form found per place. */
export function reflections(res: { headers: Record<string, string>; bodyText: string }, secrets: readonly Secret[]): Reflection[] {
  const places: [string, string][] = [
    ['the response body', res.bodyText],
    ...Object.entries(res.headers).map(([name, value]): [string, string] => [`the ${name} header`, String(value)]),
  ];
  // Every secret's forms, lower-cased, once for all the places (not once per header).
  const forms = secrets.flatMap((secret) => secretForms(secret.text).map((f) => ({ secret, form: f.form, lower: f.text.toLowerCase() })));
  const out: Reflection[] = [];
  for (const [where, text] of places) {
    const hay = text.toLowerCase();
    const hit = forms.find((f) => hay.includes(f.lower));
    if (hit) out.push({ where, secret: hit.secret, form: hit.form });
  }
  return out;
}

/** What an exchange was, for a judgement: its operation and the status it was answered with. */
export interface Answered {
  operation: string;
  status: number;
}

/** HYGIENE-CREDENTIAL-NOT-REFLECTED, when the response reflects nothing. */
export const judgeNotReflected = (a: Answered): Judgement =>
  HYGIENE.judge('HYGIENE-CREDENTIAL-NOT-REFLECTED', { ok: true, message: `${a.operation} ${a.status}` });

/** HYGIENE-CREDENTIAL-NOT-REFLECTED: one place a response reflected a credential; `own`: the configured key (else one the suite made up). */
export function judgeReflection(a: Answered, h: Reflection, own: boolean): Judgement {
  const whose = own ? 'The configured API key' : 'A credential the suite made up';
  const body = h.where === 'the response body';
  return HYGIENE.judge('HYGIENE-CREDENTIAL-NOT-REFLECTED', {
    ok: false,
    fail: own ? (body ? 'key-in-body' : 'key-in-header') : body ? 'in-body' : 'in-header',
    message:
      `${whose} came back ${h.form} in ${h.where} of a ${a.status} to ${a.operation} (${h.secret.what}); ` +
      'whatever logs or caches responses now holds it. Reported once per place; the evidence is redacted.',
    evidence: { expected: 'no trace of the request’s credential', actual: `${h.secret.what}, ${h.form}, in ${h.where}` },
  });
}

/** The operations the spec does not deprecate (only getPet is). */
export const UNDEPRECATED: ReadonlySet<string> = new Set(['listPets', 'createPet']);

/** HYGIENE-DEPRECATION-ONLY-GETPET: the deprecation signals (none: a pass) an operation the spec does not deprecate carried. */
export function judgeDeprecationElsewhere(a: Answered, signals: readonly string[]): Judgement {
  if (!signals.length) return HYGIENE.judge('HYGIENE-DEPRECATION-ONLY-GETPET', { ok: true, message: `${a.operation} ${a.status}` });
  return HYGIENE.judge('HYGIENE-DEPRECATION-ONLY-GETPET', {
    ok: false,
    message: `${a.operation} answered ${a.status} with ${signals.join(', ')}; the spec deprecates only getPet and names GET /pets as its replacement. Reported once per operation.`,
    evidence: { expected: 'no Deprecation, Sunset or deprecation Link', actual: signals.join(', ') },
  });
}

/** What a server risks by taking an extension, for the warning. */
const DIFFERENTIAL =
  'a proxy, WAF or gateway in front that parses JSON strictly (or takes another extension) reads another request than this server: a parser differential';

/**
 * HYGIENE-JSON-EXTENSION: a body that is JSON only through an extension RFC 8259 §9 lets a parser take (`extension`),
 * answered `status`: refused is a pass, created (201) a warning naming the extension and its risk.
 */
export function judgeJsonExtension(r: { label: string; extension: string; status: number }): Judgement {
  if (r.status !== 201) return HYGIENE.judge('HYGIENE-JSON-EXTENSION', { ok: true, message: `${r.label}: refused with ${r.status}` });
  return HYGIENE.judge('HYGIENE-JSON-EXTENSION', {
    outcome: 'warn',
    title: 'accepted',
    args: { extension: r.extension },
    message: `${r.label}: HTTP ${r.status}. The body is JSON only through ${r.extension}, an extension RFC 8259 §9 lets a parser take; the risk: ${DIFFERENTIAL}. Refuse such bodies with a 400 Error (Go: check that the decoder has nothing more, dec.More(); Jackson: FAIL_ON_TRAILING_TOKENS and no ALLOW_* read feature).`,
    evidence: { expected: 'a 400 Error (or the extension’s reading stored)', actual: `HTTP ${r.status}` },
  });
}
