/**
 * One request before the run to tell "unreachable" (exit 3) from "misbehaving"
 * (a verdict): refused connections and unknown hosts are unreachable; anything
 * that answers, however badly, is judged by the run. A 404 on listPets at a
 * base URL whose path does not end with the spec's version segment /v1 gets a
 * hint (most likely a mistyped base URL), but the run still judges the server.
 */
import { send } from '../http/transport.ts';
import type { Target } from './run-conformance.ts';

export async function preflight(target: Target): Promise<{ ok: true; hint?: string } | { ok: false; message: string }> {
  const { config } = target;
  const url = `${config.baseUrl}/pets?limit=1`;
  const ex = await send(
    { method: 'GET', url, headers: { accept: 'application/json', ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}) } },
    { timeoutMs: config.timeoutMs, maxBodyBytes: 64 * 1024 },
  );
  if (ex.error && (ex.error.kind === 'refused' || ex.error.kind === 'dns'))
    return { ok: false, message: `${config.baseUrl}: ${ex.error.kind === 'refused' ? 'connection refused' : 'host not found'}` };
  return { ok: true, ...(ex.response?.status === 404 ? baseUrlHint(config.baseUrl ?? '') : {}) };
}

/** The hint for a listPets answered 404, when the base URL's path does not end with /v1. */
export function baseUrlHint(baseUrl: string): { hint?: string } {
  let path = '';
  try {
    path = new URL(baseUrl).pathname.replace(/\/+$/, '');
  } catch {
    return {};
  }
  if (/\/v1$/.test(path)) return {};
  return {
    hint: `GET ${baseUrl}/pets answered 404 and the base URL does not end with /v1, the spec's version segment: check ANIMAL_STORE_BASE_URL (e.g. ${baseUrl.replace(/\/+$/, '')}/v1)`,
  };
}
