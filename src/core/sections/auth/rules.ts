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
