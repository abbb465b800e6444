/**
 * METHOD-HEAD-AS-GET (RFC 9110 §9.3.2): HEAD is GET without content. Whether a server serves HEAD is its choice (the
 * spec shows GET only): refused — a 405, a 501, a router's 404 — passes. Served, it answers as GET would: a 2xx where
 * GET of the same path with the same credential is refused (a 404 for an id no pet has, a 401) tells what GET does
 * not, and fails; a served HEAD whose Content-Type is not GET's warns (the same header fields: SHOULD). Pure.
 */
import type { Judgement } from '../define.ts';
import { RESPONSES } from './requirements.ts';

/** One answer of the pair: its status (none: no answer) and what it is, in words. */
export interface HeadGetAnswer {
  status: number | undefined;
  shown: string;
  /** The media type of Content-Type, without parameters (undefined: none sent). */
  mediaType?: string;
}

const is2xx = (status: number | undefined) => status !== undefined && status >= 200 && status < 300;

/** HEAD `path` and GET `path`, sent with the same credential (`credential`: in words), judged together. */
export function judgeHeadAsGet(path: string, credential: string, head: HeadGetAnswer, get: HeadGetAnswer): Judgement[] {
  if (head.status === undefined || get.status === undefined) return [];
  const args = { path };
  const message = `HEAD ${path} ${credential}: ${head.shown}; GET ${path}: ${get.shown}`;
  if (!is2xx(head.status))
    return [
      head.status === get.status
        ? RESPONSES.judge('METHOD-HEAD-AS-GET', { ok: true, args, message })
        : RESPONSES.judge('METHOD-HEAD-AS-GET', { ok: true, pass: 'refused', args, message }),
    ];
  if (!is2xx(get.status))
    return [
      RESPONSES.judge('METHOD-HEAD-AS-GET', {
        ok: false,
        message: `${message} — HEAD is GET without content (RFC 9110 §9.3.2): served where GET is refused, it tells what GET does not`,
        evidence: { expected: `${get.status}, as GET (or HEAD not served: 405, 501)`, actual: head.shown },
      }),
    ];
  const same = (head.mediaType ?? '').toLowerCase() === (get.mediaType ?? '').toLowerCase();
  return [
    same
      ? RESPONSES.judge('METHOD-HEAD-AS-GET', { ok: true, args, message })
      : RESPONSES.judge('METHOD-HEAD-AS-GET', {
          outcome: 'warn',
          title: 'headers',
          message: `${message}: Content-Type ${head.mediaType ?? 'absent'} for HEAD, ${get.mediaType ?? 'absent'} for GET (RFC 9110 §9.3.2: the same header fields SHOULD be sent)`,
        }),
  ];
}
