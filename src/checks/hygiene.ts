/**
 * Hygiene and security (ADVISORY: the spec is silent, a user must know; a
 * warning, never a failure). Each warning is reported once per run and place
 * (the first response that shows it, with redacted evidence), not once per
 * response; every clean response counts as a pass.
 *
 * - HYGIENE-CREDENTIAL-NOT-REFLECTED: the credential a request carried (its
 *   token raw, under Bearer or Basic — Basic's decoded user-id and password
 *   too) appears in the response body or a header, in any case, raw,
 *   URL-encoded, JSON-escaped or base64-encoded (also inside the base64 of a
 *   longer text, such as the whole Authorization value).
 * - HYGIENE-DEPRECATION-ONLY-GETPET: an operation the spec does not deprecate
 *   carries a Deprecation, Sunset or deprecation Link.
 */
import { header } from '../core/ratelimit.ts';
import { HYGIENE } from '../core/spec/hygiene/requirements.ts';
import { deprecationSignals } from './deprecation.ts';
import type { CheckSession, ResponseCheck } from './types.ts';

const CREDENTIAL = 'HYGIENE-CREDENTIAL-NOT-REFLECTED';
const DEPRECATION = 'HYGIENE-DEPRECATION-ONLY-GETPET';

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

/** True the first time a key is seen in this run (the warnings reported once per run and place). */
function firstTime(session: CheckSession, key: string): boolean {
  const seen = (session.reported ??= new Set<string>());
  if (seen.has(key)) return false;
  seen.add(key);
  return true;
}

export const credentialReflectionCheck: ResponseCheck = {
  name: 'credential-not-reflected',
  requirements: [CREDENTIAL],
  run({ ex, session, report }) {
    const res = ex.response;
    const authorization = header(ex.request.headers ?? {}, 'authorization');
    if (!res || authorization === undefined) return;
    const secrets = credentialSecrets(authorization);
    if (!secrets.length) return;
    const hits = reflections(res, secrets);
    if (!hits.length) report(HYGIENE.judge(CREDENTIAL, { ok: true, message: `${ex.api.operation} ${res.status}` }));
    const own = ex.api.auth === undefined || ex.api.auth === 'valid';
    const whose = own ? 'The configured API key' : 'A credential the suite made up';
    for (const h of hits) {
      if (!firstTime(session, `${CREDENTIAL} ${h.where} ${own}`)) continue;
      const body = h.where === 'the response body';
      report(
        HYGIENE.judge(CREDENTIAL, {
          ok: false,
          fail: own ? (body ? 'key-in-body' : 'key-in-header') : body ? 'in-body' : 'in-header',
          message:
            `${whose} came back ${h.form} in ${h.where} of a ${res.status} to ${ex.api.operation} (${h.secret.what}); ` +
            'whatever logs or caches responses now holds it. Reported once per place; the evidence is redacted.',
          evidence: { expected: 'no trace of the request’s credential', actual: `${h.secret.what}, ${h.form}, in ${h.where}` },
        }),
      );
    }
  },
};

const UNDEPRECATED = new Set(['listPets', 'createPet']);

export const deprecationElsewhereCheck: ResponseCheck = {
  name: 'deprecation-only-getpet',
  requirements: [DEPRECATION],
  run({ ex, session, report }) {
    const res = ex.response;
    if (!res || !UNDEPRECATED.has(ex.api.operation)) return;
    const signals = deprecationSignals(res.headers);
    if (!signals.length) report(HYGIENE.judge(DEPRECATION, { ok: true, message: `${ex.api.operation} ${res.status}` }));
    else if (firstTime(session, `${DEPRECATION} ${ex.api.operation}`))
      report(
        HYGIENE.judge(DEPRECATION, {
          ok: false,
          message: `${ex.api.operation} answered ${res.status} with ${signals.join(', ')}; the spec deprecates only getPet and names GET /pets as its replacement. Reported once per operation.`,
          evidence: { expected: 'no Deprecation, Sunset or deprecation Link', actual: signals.join(', ') },
        }),
      );
  },
};

export const hygieneChecks: readonly ResponseCheck[] = [credentialReflectionCheck, deprecationElsewhereCheck];
