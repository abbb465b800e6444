/**
 * One request before the run, to diagnose before any detail: refused
 * connections, unknown hosts and TLS failures are "unreachable" (exit 3) with a
 * one-line diagnosis; anything that answers, however badly, is judged by the
 * run — with a hint when it answers 404 at a base URL without /v1, or answers
 * HTML (a web page, not the API).
 */
import type { Config } from '../settings/read-config.ts';
import { header } from '../core/ratelimit.ts';
import { send } from './transport.ts';

export type Preflight = { ok: true; hint?: string } | { ok: false; message: string; diagnosis: string };

export async function preflight(target: { config: Config }, transport: typeof send = send): Promise<Preflight> {
  const { config } = target;
  const url = `${config.baseUrl}/pets?limit=1`;
  const ex = await transport(
    { method: 'GET', url, headers: { accept: 'application/json', ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}) } },
    { timeoutMs: config.timeoutMs, maxBodyBytes: 64 * 1024 },
  );
  const e = ex.error;
  if (e && e.kind === 'refused')
    return {
      ok: false,
      message: `${config.baseUrl}: connection refused`,
      diagnosis: `nothing listens at ${config.baseUrl} (connection refused): is the server up, and the base URL right?`,
    };
  if (e && e.kind === 'dns')
    return {
      ok: false,
      message: `${config.baseUrl}: host not found`,
      diagnosis: `the host of ${config.baseUrl} is not found (DNS): check the base URL`,
    };
  if (e && e.kind === 'tls') {
    // OpenSSL's messages span lines: one line, and its reason without the library's address.
    const why = e.message
      .replace(/\s+/g, ' ')
      .replace(/[0-9A-F]{8,}:error:[0-9A-F]+:/, '')
      .trim();
    return {
      ok: false,
      message: `${config.baseUrl}: TLS handshake failed (${why})`,
      diagnosis: `the TLS handshake with ${config.baseUrl} failed (${why}): an expired or self-signed certificate, or http/https mixed up`,
    };
  }
  const res = ex.response;
  if (res && /text\/html/i.test(header(res.headers, 'content-type') ?? ''))
    return {
      ok: true,
      hint: `GET ${url} answered ${res.status} with an HTML page, not the API's JSON: check the base URL (it should end with the API's /v1)`,
    };
  return { ok: true, ...(res?.status === 404 ? baseUrlHint(config.baseUrl ?? '') : {}) };
}

/** The hint for a listPets answered 404, when the base URL's path does not end with /v1. */
export function baseUrlHint(baseUrl: string): { hint?: string } {
  const m = /^[a-z]+:\/\/[^/]+(\/[^?#]*)?/i.exec(baseUrl);
  const path = (m && m[1] ? m[1] : '').replace(/\/+$/, '');
  if (/\/v1$/.test(path)) return {};
  return {
    hint: `GET ${baseUrl}/pets answered 404 and the base URL does not end with /v1, the spec's version segment: check ANIMAL_STORE_BASE_URL (e.g. ${baseUrl.replace(/\/+$/, '')}/v1)`,
  };
}
