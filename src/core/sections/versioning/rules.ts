/** The rules of versioning, written once: the conformance spec reads the configured base address and calls this. Pure. */
import type { Judgement } from '../define.ts';
import { VERSIONING } from './requirements.ts';

/** VERSION-BASE-PATH: the base address's path (trailing slashes aside) ends with the /v1 version segment. */
export function judgeBasePath(path: string): Judgement {
  const ok = path.endsWith('/v1');
  return VERSIONING.judge('VERSION-BASE-PATH', {
    ok,
    message: `base path ${JSON.stringify(path || '/')}`,
    evidence: ok ? undefined : { expected: '…/v1', actual: path || '/' },
  });
}
