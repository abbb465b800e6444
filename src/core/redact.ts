/**
 * Redaction of secrets from anything the suite writes: reports, JUnit, stdout,
 * stderr. The key's value is removed wherever it occurs (a server may echo it
 * in a body or header), not only in the Authorization header.
 * Pure module (bundled for k6).
 */
export const REDACTED = '[REDACTED]';

export interface Redactor {
  (text: string): string;
  secrets: readonly string[];
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A redactor for the given secrets. Each secret is also matched in its common
 * encodings (URL-encoded, JSON-escaped, base64) so an echo in another form is
 * caught, and without its last character, so an echoed near-miss is caught.
 */
export function makeRedactor(secrets: readonly (string | undefined)[]): Redactor {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (!secret || secret.length < 4) continue;
    // The key without its last character too: the suite itself sends near-misses
    // (last character cut or changed), and a server may echo them.
    // Any run of half of it too (at least 8 characters): the near-misses the suite derives from the key (a prefix, the
    // key with more words after it, another case) are about the key, and an echo of one shows most of it.
    const half = Math.max(8, Math.ceil(secret.length / 2));
    for (let i = 0; secret.length >= 16 && i + half <= secret.length; i++) forms.add(secret.slice(i, i + half));
    for (const s of secret.length >= 8 ? [secret, secret.slice(0, -1)] : [secret]) {
      forms.add(s);
      forms.add(encodeURIComponent(s));
      forms.add(JSON.stringify(s).slice(1, -1));
      // base64 of whole 3-byte groups, from each of the three alignments, is found inside the base64 of
      // anything that contains them: `key:` under Basic, the whole `Bearer <key>` echoed encoded
      const whole = (t: string) => t.slice(0, t.length - (t.length % 3));
      for (const part of [s, whole(s), whole(s.slice(1)), whole(s.slice(2))]) {
        const b64 = typeof btoa === 'function' ? safeBtoa(part) : undefined;
        if (b64) forms.add(b64.replace(/=+$/, ''));
      }
    }
  }
  const list = [...forms].filter((f) => f.length >= 4).sort((a, b) => b.length - a.length);
  const re = list.length ? new RegExp(list.map(escapeRegExp).join('|'), 'gi') : undefined;
  const redact = ((text: string) => (re && typeof text === 'string' ? text.replace(re, REDACTED) : text)) as Redactor;
  redact.secrets = list;
  return redact;
}

function safeBtoa(s: string): string | undefined {
  try {
    return btoa(s);
  } catch {
    return undefined;
  }
}

/** Redact every string inside a JSON-like value (keys too). */
export function redactDeep<T>(value: T, redact: (s: string) => string): T {
  if (typeof value === 'string') return redact(value) as unknown as T;
  if (Array.isArray(value)) return (value as unknown[]).map((v) => redactDeep(v, redact)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[redact(k)] = redactDeep(v, redact);
    return out as T;
  }
  return value;
}
