/**
 * RESP-CONTENT-CODING: a response is read as its Content-Encoding says (the transport decodes gzip, deflate and br,
 * capped), and its coding must be one its request accepted (RFC 9110 §12.5.3): with no Accept-Encoding any coding is
 * acceptable; with one, a coding it lists with a weight above 0 (or `*`), x-gzip being gzip (a coding listed twice with
 * two weights is acceptable by either). A body that does not
 * decode is RESP-BODY-JSON's finding (registry.ts).
 */
import { RESPONSES } from '../core/spec/responses/requirements.ts';
import { codingsOf } from '../http/content-coding.ts';
import type { ResponseCheck } from './types.ts';

const alias = (c: string) => (c === 'x-gzip' ? 'gzip' : c);

/** Does an Accept-Encoding value (undefined: absent) accept `coding`? */
export function accepts(acceptEncoding: string | undefined, coding: string): boolean {
  if (acceptEncoding === undefined) return true;
  const items = acceptEncoding
    .split(',')
    .map((part) => {
      const [name, ...params] = part.split(';').map((x) => x.trim());
      const q = params.map((p) => /^q\s*=\s*([\d.]+)$/i.exec(p)?.[1]).find((x) => x !== undefined);
      return { name: alias(name.toLowerCase()), q: q === undefined ? 1 : Number(q) };
    })
    .filter((it) => it.name !== '');
  // A coding listed twice with two weights says two things: either reading is the server's.
  const named = items.filter((it) => it.name === alias(coding));
  if (named.length) return named.some((it) => it.q > 0);
  const star = items.find((it) => it.name === '*');
  return star !== undefined && star.q > 0;
}

export const contentCoding: ResponseCheck = {
  name: 'content-coding',
  requirements: ['RESP-CONTENT-CODING'],
  run({ ex, report }) {
    const res = ex.response;
    const codings = res?.coding?.codings ?? codingsOf(res?.headers['content-encoding']);
    if (!res || !codings.length) return;
    const asked = Object.entries(ex.request.headers ?? {}).find(([k]) => k.toLowerCase() === 'accept-encoding')?.[1];
    const refused = codings.filter((c) => !accepts(asked, c));
    const said = asked === undefined ? 'no Accept-Encoding' : `Accept-Encoding: ${JSON.stringify(asked)}`;
    report(
      RESPONSES.judge('RESP-CONTENT-CODING', {
        ok: refused.length === 0,
        args: { coding: refused.join(', ') },
        message: `${ex.api.operation} answered ${res.status} in ${codings.join(', ')} to a request with ${said}`,
        evidence: refused.length
          ? { expected: `a coding ${said} accepts, or none`, actual: `Content-Encoding: ${codings.join(', ')}` }
          : undefined,
      }),
    );
  },
};
