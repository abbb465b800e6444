/**
 * The rules of the transport (a complete response, no redirect to another origin), written once: the check registry
 * (src/checks/registry.ts) reads each exchange's facts and calls these on every request of every phase. Pure.
 */
import type { Judgement } from '../define.ts';
import { TRANSPORT } from './requirements.ts';

/** TRANSPORT-COMPLETE-RESPONSE: a request got a whole response (`error`: the transport's failure, if any). */
export function judgeComplete(
  error: { kind: string; message: string } | undefined,
  { status, durationMs }: { status: number | undefined; durationMs: number },
): Judgement {
  return TRANSPORT.judge('TRANSPORT-COMPLETE-RESPONSE', {
    ok: !error,
    args: { kind: error?.kind ?? '' },
    message: error ? error.message : `${status} in ${durationMs} ms`,
  });
}

/** TRANSPORT-NO-CROSS-ORIGIN-REDIRECT: no 3xx sends the client (and its key) to another origin (`crossOrigin`: Location's). */
export function judgeNoCrossOriginRedirect({
  status,
  location,
  crossOrigin,
}: {
  status: number;
  location?: string;
  crossOrigin: boolean;
}): Judgement {
  const away = status >= 300 && status < 400 && location !== undefined && crossOrigin;
  return TRANSPORT.judge('TRANSPORT-NO-CROSS-ORIGIN-REDIRECT', {
    ok: !away,
    message: away
      ? `The server redirected to another origin (${location}); the suite did not follow it, so the key was not sent there.`
      : `status ${status}`,
    evidence: away ? { expected: 'an answer on the same origin', actual: `${status} Location: ${location}` } : undefined,
  });
}
