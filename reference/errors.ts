/**
 * The one error catalogue of the reference server: every Error body it writes
 * comes from here (code, HTTP status, message builder).
 */
import type { Has } from './faults.ts';
import { jsonReply, type Reply } from './reply.ts';

interface ErrorDef {
  status: number;
  message: (detail?: string) => string;
}

const withDetail = (base: string) => (detail?: string) => (detail ? `${base}: ${detail}` : `${base}.`);

export const ERRORS = {
  unauthorized: { status: 401, message: withDetail('Missing or invalid API key') },
  invalid_parameter: { status: 400, message: withDetail('Invalid query or path parameter') },
  invalid_body: { status: 400, message: withDetail('The request body is not a JSON object') },
  validation_failed: { status: 400, message: withDetail('The request body is not a valid NewPet') },
  name_too_long: { status: 422, message: withDetail('The name is longer than this service keeps') },
  not_found: { status: 404, message: withDetail('No such resource') },
  method_not_allowed: { status: 405, message: withDetail('This path does not take this method') },
  unsupported_media_type: { status: 415, message: withDetail('The request body must be application/json') },
  not_acceptable: { status: 406, message: withDetail('This service answers application/json only') },
  pet_not_found: { status: 404, message: withDetail('No animal with this id') },
  rate_limited: { status: 429, message: withDetail('Rate limit exceeded; retry after the time in the Retry-After header') },
  throttled_503: { status: 503, message: withDetail('Service temporarily unavailable; retry after the time in the Retry-After header') },
  key_banned: { status: 429, message: withDetail('This API key is temporarily banned for retrying before Retry-After elapsed') },
  internal_error: { status: 500, message: withDetail('Internal server error') },
} satisfies Record<string, ErrorDef>;

export type ErrorCode = keyof typeof ERRORS;

export interface ErrorBody {
  code: string;
  message?: string;
  status: number;
}

export interface ErrorOptions {
  has: Has;
  /** The Authorization header value, echoed by faults echo-key and reflect-credentials. */
  authorization?: string;
}

export function errorBody(code: ErrorCode, detail: string | undefined, o: ErrorOptions): ErrorBody {
  const def: ErrorDef = ERRORS[code];
  let message = def.message(detail);
  const echo = o.has('echo-key') || (o.has('reflect-credentials') && (def.status === 401 || def.status === 404));
  if (echo && o.authorization !== undefined) message += ` (Authorization: ${o.authorization})`;
  const status = o.has('error-status-mismatch') && def.status === 404 ? 400 : def.status;
  return o.has('error-missing-message') ? { code, status } : { code, message, status };
}

export type ErrorFactory = (code: ErrorCode, detail?: string, headers?: Record<string, string>) => Reply;

export function errorFactory(o: ErrorOptions): ErrorFactory {
  return (code, detail, headers) => {
    const reply = jsonReply(ERRORS[code].status, errorBody(code, detail, o), headers);
    return o.has('unauthorized-empty-body') && reply.status === 401 ? { ...reply, body: '' } : reply;
  };
}
