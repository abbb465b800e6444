/**
 * One request before the run to tell "unreachable" (exit 3) from "misbehaving"
 * (a verdict): refused connections and unknown hosts are unreachable; anything
 * that answers, however badly, is judged by the run.
 */
import { send } from '../http/transport.ts';
import type { Target } from './run-conformance.ts';

export async function preflight(target: Target): Promise<{ ok: true } | { ok: false; message: string }> {
  const { config } = target;
  const url = `${config.baseUrl}/pets?limit=1`;
  const ex = await send({ method: 'GET', url, headers: { accept: 'application/json', ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}) } }, { timeoutMs: config.timeoutMs, maxBodyBytes: 64 * 1024 });
  if (ex.error && (ex.error.kind === 'refused' || ex.error.kind === 'dns')) return { ok: false, message: `${config.baseUrl}: ${ex.error.kind === 'refused' ? 'connection refused' : 'host not found'}` };
  return { ok: true };
}
