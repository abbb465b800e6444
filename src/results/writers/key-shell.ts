/**
 * A wrong credential (src/core/credentials.ts) as curl arguments that make it from the key's variable, never from the
 * key: `-H "Authorization: Bearer ${KEY}x"`, the key's case changed by `tr`, cut by `${KEY:0:n}` (bash), the key in a
 * header or a cookie, `-u` for the Basic scheme. A query parameter holding the key is the URL's (written redacted,
 * then turned back into the variable by `urlWithKey`).
 */
import { REDACTED } from '../../core/redact.ts';
import type { KeyEdit, KeyPlacement } from '../../core/credentials.ts';

/** Flip the case of the (at mod letters)-th letter of the text on stdin. */
const flipNth = (at: number) =>
  `awk -v n=${at} '{L=0;for(i=1;i<=length($0);i++)if(substr($0,i,1)~/[A-Za-z]/)L++;k=n%L;c=0;o="";for(i=1;i<=length($0);i++){ch=substr($0,i,1);if(ch~/[A-Za-z]/){if(c==k)ch=(ch~/[a-z]/)?toupper(ch):tolower(ch);c++}o=o ch}printf "%s",o}'`;

/**
 * The key's first `n` characters as editKey keeps them (bash arithmetic): at least half of it, at most all but one.
 */
const kept = (v: string, n: string) => {
  const len = `\${#${v}}`;
  return `\${${v}:0:(m=${n}, h=(${len}+1)/2, m=m>h?m:h, m<${len}?m:${len}-1)}`;
};

/** The token of an edit as a shell expression inside double quotes (`v`: the variable's name). */
function editedToken(e: KeyEdit, v: string): string {
  switch (e.edit) {
    case 'case':
      return `$(printf %s "$${v}" | ${flipNth(e.at)})`;
    case 'case-all':
      return `$(printf %s "$${v}" | tr a-zA-Z A-Za-z)`;
    case 'prefix':
      return kept(v, `${e.n}`);
    case 'cut':
      return kept(v, `\${#${v}}-${Math.max(1, e.n)}`);
    case 'suffix':
      return `\${${v}}${e.text}`;
    case 'words':
      return `$${v} ${e.words.join(' ')}`;
    case 'shape':
      return `<another key of the key's shape>`;
  }
}

/** The curl arguments (already quoted) that send a placement of the key; no Authorization but the one they set. */
export function credentialArgs(p: KeyPlacement, v: string): string[] {
  if ('near' in p) return ['-H', `"Authorization: Bearer ${editedToken(p.near, v)}"`];
  if ('basic' in p) return ['-u', p.basic === 'user' ? `"$${v}:"` : `"user:$${v}"`];
  if ('headers' in p) return p.headers.flatMap((h) => ['-H', h === 'cookie' ? `"cookie: api_key=$${v}"` : `"${h}: $${v}"`]);
  return [];
}

/** A quoted URL whose redacted key (a query parameter holding it) is the variable again. */
export const urlWithKey = (quoted: string, v: string): string => quoted.split(REDACTED).join(`'"$${v}"'`);
