/**
 * RESP-CONTENT-CODING: a response is read as its Content-Encoding says (the transport decodes gzip, deflate and br,
 * capped), and its coding must be one its request accepted — the rule is the responses section's
 * (`judgeContentCoding`, src/core/sections/responses/rules.ts); this check reads the codings and the request's
 * Accept-Encoding. A body that does not decode is RESP-BODY-JSON's finding (registry.ts).
 */
import { judgeContentCoding } from '../core/sections/responses/rules.ts';
import { codingsOf } from '../http/content-coding.ts';
import type { ResponseCheck } from './types.ts';

export const contentCoding: ResponseCheck = {
  name: 'content-coding',
  requirements: ['RESP-CONTENT-CODING'],
  run({ ex, report }) {
    const res = ex.response;
    if (!res) return;
    const codings = res.coding?.codings ?? codingsOf(res.headers['content-encoding']);
    const acceptEncoding = Object.entries(ex.request.headers ?? {}).find(([k]) => k.toLowerCase() === 'accept-encoding')?.[1];
    const j = judgeContentCoding({ operation: ex.api.operation, status: res.status, codings, acceptEncoding });
    if (j) report(j);
  },
};
