/**
 * The rules of the transport (a complete response, no redirect to another origin), written once: the check registry
 * (src/checks/registry.ts) reads each exchange's facts and calls these on every request of every phase. Pure.
 */
import type { Judgement } from '../define.ts';
import { TRANSPORT } from './requirements.ts';

/**
 * TRANSPORT-COMPLETE-RESPONSE: a request got a whole response (`error`: the transport's failure, if any). A timeout on
 * the client's account (`clientLate`: it ran so far behind its own timers that the server never had the whole timeout of
 * its attention — a busy machine) is not the server's: not judged, and said so.
 */
export function judgeComplete(
  error: { kind: string; message: string; clientLate?: { lateMs: number; elapsedMs: number } } | undefined,
  { status, durationMs }: { status: number | undefined; durationMs: number },
): Judgement {
  if (error?.kind === 'timeout' && error.clientLate)
    return TRANSPORT.judge('TRANSPORT-COMPLETE-RESPONSE', {
      outcome: 'skip',
      title: 'client-late',
      message: `${error.message}. The timeout measured this machine, not the server: not judged`,
      remedy: 'run it on a machine with a CPU to spare (the timeout is --timeout-ms)',
    });
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
