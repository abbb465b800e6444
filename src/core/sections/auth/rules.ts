/**
 * The rules of "Authentication", written once: the conformance specs send the configured key, bad credentials of
 * each kind, and unauthenticated requests that are also invalid, then call these with what came back. Pure.
 */
import type { Judgement } from '../define.ts';
import { AUTH } from './requirements.ts';

/** What the rules read of an answer: the operation asked, its status (undefined: no response), how it is shown. */
export interface AuthAnswer {
  operation: string;
  status: number | undefined;
  shown: string;
}

/** The requirements a bad credential proves, one per kind. */
export type BadCredentialRequirement = 'AUTH-MISSING-401' | 'AUTH-WRONG-SCHEME-401' | 'AUTH-EMPTY-TOKEN-401' | 'AUTH-UNKNOWN-KEY-401';

/** AUTH-*-401: a request with a bad credential (`what` it was, never its value) is answered 401. */
export function judgeBadCredential(
  a: AuthAnswer,
  { requirement, what }: { requirement: BadCredentialRequirement; what: string },
): Judgement {
  const ok = a.status === 401;
  return AUTH.judge(requirement, {
    ok,
    args: { operation: a.operation },
    message: `${a.operation} with ${what}: ${a.shown}`,
    evidence: ok ? undefined : { expected: '401', actual: a.shown },
  });
}

/** AUTH-VALID-KEY-ACCEPTED: the configured key is answered neither 401 nor 403 (and answered at all). */
export function judgeValidKey(a: AuthAnswer): Judgement {
  const ok = a.status !== undefined && a.status !== 401 && a.status !== 403;
  return AUTH.judge('AUTH-VALID-KEY-ACCEPTED', {
    ok,
    pass: 'accepted',
    fail: 'rejected',
    args: { operation: a.operation },
    message: `${a.operation} with the configured key: ${a.shown}`,
    evidence: ok ? undefined : { expected: 'not 401', actual: a.shown },
  });
}

/** AUTH-BEFORE-VALIDATION: a request without a valid key that is also invalid or unknown is answered 401, not 400 or 404. */
export function judgeAuthenticationFirst(a: AuthAnswer): Judgement {
  const ok = a.status === 401;
  return AUTH.judge('AUTH-BEFORE-VALIDATION', {
    ok,
    message: `${a.operation} without a valid key: ${a.shown}`,
    evidence: ok ? undefined : { expected: '401', actual: a.shown },
  });
}

/** AUTH-VALID-KEY-ACCEPTED, failed: the configured key, spelled as HTTP allows, answered `status` (401). */
export const judgeKeyRefused = (status: number): Judgement =>
  AUTH.judge('AUTH-VALID-KEY-ACCEPTED', { ok: false, message: `HTTP ${status}` });

/** What the rules read of a request sent with a method or path the spec may not list: the method, the path, the answer. */
export interface MethodAnswer {
  method: string;
  path: string;
  status: number | undefined;
  shown: string;
}

const is2xx = (status: number | undefined) => status !== undefined && status >= 200 && status < 300;

/**
 * AUTH-EVERY-METHOD: a request without a valid key, whatever its method, is not served (any status but 2xx: 401, or
 * a router's 404 or 405 first — both orders are valid). An OPTIONS answered 2xx is observed: a CORS preflight carries
 * no credentials, and OPTIONS describes the resource (RFC 9110 §9.3.7).
 */
export function judgeMethodWithoutKey(a: MethodAnswer, what: string): Judgement {
  const args = { method: a.method, path: a.path };
  if (a.method === 'OPTIONS' && is2xx(a.status))
    return AUTH.judge('AUTH-EVERY-METHOD', {
      outcome: 'observe',
      title: 'options',
      args,
      message: `OPTIONS ${a.path} ${what}: ${a.shown}`,
    });
  const ok = a.status !== undefined && !is2xx(a.status);
  return AUTH.judge('AUTH-EVERY-METHOD', {
    ok,
    args,
    message: `${a.method} ${a.path} ${what}: ${a.shown}`,
    evidence: ok ? undefined : { expected: 'not 2xx (401, or a 404 or 405 before authentication)', actual: a.shown },
  });
}

/** AUTH-KEY-CHANNEL (MUST) and AUTH-KEY-IN-URL (SHOULD): the key sent outside the Authorization header is not accepted. */
export function judgeKeyChannel(a: AuthAnswer, channel: string, requirement: 'AUTH-KEY-CHANNEL' | 'AUTH-KEY-IN-URL'): Judgement {
  const ok = a.status !== undefined && !is2xx(a.status);
  const init = {
    ok,
    message: `${a.operation} with the key in ${channel} and no Authorization header: ${a.shown}`,
    evidence: ok ? undefined : { expected: '401', actual: a.shown },
  };
  return requirement === 'AUTH-KEY-CHANNEL'
    ? AUTH.judge('AUTH-KEY-CHANNEL', { ...init, args: { channel } })
    : AUTH.judge('AUTH-KEY-IN-URL', init);
}
