/**
 * One request before the run, to diagnose before any detail: refused
 * connections, unknown hosts, TLS failures and a proxy that cannot be reached or
 * refuses the tunnel are "unreachable" (exit 3) with a one-line diagnosis
 * (network-diagnosis.ts: the issuer a certificate could not be verified against
 * and the option that fixes it, a client certificate demanded, the proxy told
 * apart from the target); anything that answers, however badly, is judged by the
 * run — with a hint when it answers 404 at a base URL without /v1, or answers
 * HTML (a web page, not the API). It also says which protocol ALPN agreed on.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { Config } from '../settings/read-config.ts';
import { DIRECT, routeFor } from '../settings/network.ts';
import { header } from '../core/ratelimit.ts';
import { send, type Exchange } from './transport.ts';
import { authorityOf, proxyDiagnosis, tlsDiagnosis } from './network-diagnosis.ts';
import { inspectTls } from './tls-inspect.ts';

export type Preflight =
  | {
      ok: true;
      hint?: string;
      /** The protocol the connection agreed on by ALPN, when it was TLS. */ protocol?: 'HTTP/2' | 'HTTP/1.1';
      /** How long the request took (the run's plan reads the server's latency from it). */
      latencyMs?: number;
    }
  | { ok: false; message: string; diagnosis: string };

type Failed = Extract<Preflight, { ok: false }>;

export async function preflight(target: { config: Config }, transport: typeof send = send): Promise<Preflight> {
  const { config } = target;
  const url = `${config.baseUrl}/pets?limit=1`;
  const alpn = watchAlpn(url);
  let ex: Exchange;
  try {
    ex = await transport(
      {
        method: 'GET',
        url,
        headers: { accept: 'application/json', ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}) },
      },
      { timeoutMs: config.timeoutMs, maxBodyBytes: 64 * 1024, network: config.network },
    );
  } finally {
    alpn.stop();
  }
  const failed = await unreachable(config, ex);
  if (failed) return failed;
  const res = ex.response;
  const protocol = alpn.protocol();
  const extra = { ...(protocol ? { protocol } : {}), latencyMs: ex.durationMs };
  if (res && /text\/html/i.test(header(res.headers, 'content-type') ?? ''))
    return {
      ok: true,
      hint: `GET ${url} answered ${res.status} with an HTML page, not the API's JSON: check the base URL (it should end with the API's /v1)`,
      ...extra,
    };
  return { ok: true, ...(res?.status === 404 ? baseUrlHint(config.baseUrl ?? '') : {}), ...extra };
}

/** The preflight's failure, diagnosed, when it means the target cannot be reached (none when it answered). */
async function unreachable(config: Config, ex: Exchange): Promise<Failed | undefined> {
  const e = ex.error;
  const base = config.baseUrl ?? '';
  const network = config.network ?? DIRECT;
  const route = routeFor(base, network.proxy);
  if (e && e.kind === 'proxy' && route.via === 'proxy')
    return { ok: false, message: `${base}: the proxy failed (${e.message})`, diagnosis: proxyDiagnosis(base, route, e) };
  if (e && e.kind === 'refused')
    return {
      ok: false,
      message: `${base}: connection refused`,
      diagnosis: `nothing listens at ${base} (connection refused): is the server up, and the base URL right?`,
    };
  if (e && e.kind === 'dns')
    return { ok: false, message: `${base}: host not found`, diagnosis: `the host of ${base} is not found (DNS): check the base URL` };
  const https = /^https:/i.test(base);
  // Over TLS 1.3 a server demanding a client certificate closes the connection after the handshake: a reset, inspected.
  if (e && (e.kind === 'tls' || (https && e.kind === 'reset'))) {
    const peer = await inspectTls(base, network, { timeoutMs: config.timeoutMs, alertMs: e.kind === 'reset' ? 1500 : 0 });
    const specific = tlsDiagnosis(base, { error: e, peer, network });
    if (e.kind === 'reset' && !specific) return undefined;
    const why = e.message
      .replace(/\s+/g, ' ')
      .replace(/[0-9A-F]{8,}:error:[0-9A-F]+:/, '')
      .trim();
    return {
      ok: false,
      message: `${base}: TLS handshake failed (${why})`,
      diagnosis: `the TLS handshake with ${base} failed (${why}): ${specific ?? 'an expired or self-signed certificate, or http/https mixed up'}`,
    };
  }
  const res = ex.response;
  const gateway = res && res.status === 400 && /no required ssl certificate|ssl certificate error|client certificate/i.test(res.bodyText);
  if (gateway && !network.clientCert)
    return {
      ok: false,
      message: `${base}: a client certificate is required`,
      diagnosis: `${authorityOf(base)} (a gateway in front of the server) answered 400 "${res.bodyText
        .replace(/<[^>]*>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim()
        .slice(
          0,
          80,
        )}": it demands a client certificate; give one with --client-cert FILE --client-key FILE (or ANIMAL_STORE_CLIENT_CERT and ANIMAL_STORE_CLIENT_KEY)`,
    };
  return undefined;
}

/** The protocol ALPN agreed on for the connections made to the target's host and port while it is watched. */
function watchAlpn(url: string): { protocol(): 'HTTP/2' | 'HTTP/1.1' | undefined; stop(): void } {
  const authority = /^https:\/\/([^/?#]+)/i.exec(url)?.[1]?.toLowerCase();
  let agreed: string | undefined;
  const onConnected = (m: unknown) => {
    const { socket, connectParams } = m as {
      socket?: { alpnProtocol?: string | false };
      connectParams?: { host?: string; port?: string | number };
    };
    const host = `${connectParams?.host ?? ''}`.toLowerCase();
    if (authority && (host === authority || `${host}:443` === authority) && socket?.alpnProtocol) agreed = socket.alpnProtocol;
  };
  if (authority) subscribe('undici:client:connected', onConnected);
  return {
    protocol: () => (agreed === 'h2' ? 'HTTP/2' : agreed ? 'HTTP/1.1' : undefined),
    stop: () => authority && unsubscribe('undici:client:connected', onConnected),
  };
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
