/**
 * What an older suite saved: one surface variant per counterexample, by its id (`variant: 'ct-charset'`), with what it
 * sent beside it. Each id is the form it was (surface.ts), so that a saved counterexample of the old shape is replayed
 * and judged as before; an id no form stands for is left out, and said.
 */
import type { ReplayProbe, SurfaceRecord } from '../results/types.ts';
import { BODY_EXAMPLES, OTHER_MEDIA_TYPES } from './body-forms.ts';
import { OPEN_QUERY_FORMS } from './query-forms.ts';
import { recordOf } from './surface.ts';

const RFC9110 = 'RFC 9110';
const rec = (kind: SurfaceRecord['kind'], id: string, cls: SurfaceRecord['cls'], label: string, source: string): SurfaceRecord => ({
  kind,
  id,
  cls,
  label,
  source,
});
const json = (label: string) => rec('body', 'json-text', 'equivalent', label, 'RFC 8259 §7');
const ct = (label: string) => rec('header', 'content-type', 'equivalent-http', label, `${RFC9110} §8.3.1`);
const accept = (label: string, cls: SurfaceRecord['cls'] = 'equivalent-http') => rec('header', 'accept', cls, label, `${RFC9110} §12.5.1`);
const auth = (label: string) => rec('auth', 'authorization', 'equivalent-http', label, `${RFC9110} §11.1`);
const query = (label: string) => rec('query', 'query', 'equivalent-http', label, 'RFC 3986 §6.2.2');

/** The old ids, each as the form it was. */
const LEGACY: Readonly<Record<string, SurfaceRecord>> = {
  ...Object.fromEntries([...BODY_EXAMPLES, ...OTHER_MEDIA_TYPES, ...OPEN_QUERY_FORMS].map((f) => [f.id, recordOf(f)])),
  'json-escaped-member-name': json('the member name "name" written with an escape (n\\u0061me)'),
  'json-escaped-member-name-2': json('the categoryId member name written with escapes (\\u0063ategoryId)'),
  'ct-charset': ct('Content-Type: application/json; charset=utf-8'),
  'ct-case': ct('Content-Type: Application/JSON;Charset=UTF-8'),
  'ct-ows': ct('Content-Type: application/json ; charset="utf-8"'),
  'accept-any': accept('Accept: */*'),
  'accept-absent': accept('no Accept'),
  'accept-range': accept('Accept: application/*'),
  'accept-weighted': accept('Accept: text/html;q=0.9, application/json'),
  'accept-param': accept('Accept: application/json; charset=utf-8'),
  'accept-case': accept('Accept: Application/JSON'),
  'accept-charset': rec('header', 'accept-charset', 'equivalent-http', 'Accept-Charset: utf-8', `${RFC9110} §12.5.2`),
  'accept-html': accept('Accept: text/html', 'refusable'),
  'auth-lower': auth('Authorization: bearer <key>'),
  'auth-upper': auth('Authorization: BEARER <key>'),
  'auth-spaces': auth('Authorization: Bearer  <key> (two spaces)'),
  'q-order': query('the parameters in the other order'),
  'q-encoded-name': query('a parameter name percent-encoded'),
  'q-encoded-value': query('a status value percent-encoded'),
  'q-trailing-amp': query('an empty pair at the end'),
};

/** A saved request in today's shape: its old variant id turned into its form; undefined when no form stands for it. */
export function upgradeProbe(p: ReplayProbe): ReplayProbe | undefined {
  if (p.variant === undefined) return p;
  const form = LEGACY[p.variant];
  if (!form) return undefined;
  const { variant: _old, ...rest } = p;
  return { ...rest, surface: [form] };
}
