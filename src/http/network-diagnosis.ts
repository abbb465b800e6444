/**
 * What a user can act on when the preflight request could not reach the target over the network: a proxy that
 * cannot be reached or refuses the tunnel (told apart from the target), a certificate of a CA the run does not trust
 * (its issuer named, and the option that fixes it), a certificate for another name or out of date, a server that
 * demands a client certificate or refuses the one given, a server that speaks HTTP/2 only. One line each.
 * Node side only.
 */
import { fileName, shownProxy, type NetworkConfig, type Route } from '../settings/network.ts';
import { originOf } from '../settings/proxy-route.ts';
import type { Exchange } from './transport.ts';
import type { TlsPeer } from './tls-inspect.ts';

type TransportError = NonNullable<Exchange['error']>;

const CA_OPTION = '--ca-file FILE (or ANIMAL_STORE_CA_FILE; added to the system roots, not in place of them)';
const CERT_OPTION = '--client-cert FILE --client-key FILE (or ANIMAL_STORE_CLIENT_CERT and ANIMAL_STORE_CLIENT_KEY)';

/** host:port of a base URL, as the messages name it. */
export function authorityOf(baseUrl: string): string {
  const o = originOf(baseUrl);
  return o ? `${o.host.indexOf(':') >= 0 ? `[${o.host}]` : o.host}:${o.port}` : baseUrl;
}

/** A proxy that could not be reached or would not open the tunnel: the proxy's problem, not the target's. */
export function proxyDiagnosis(
  baseUrl: string,
  route: Extract<Route, { via: 'proxy' }>,
  e: TransportError | { proxyStatus: number },
): string {
  const via = `the proxy ${shownProxy(route.proxy)} (${route.from})`;
  const target = authorityOf(baseUrl);
  const status = e.proxyStatus;
  const credentials = /^[a-z]+:\/\/[^@/]*@/i.test(route.proxy);
  if (status === 407)
    return credentials
      ? `${via} refused the credentials in its URL (407 Proxy Authentication Required): check the user and password in ${route.from}`
      : `${via} asks for credentials (407 Proxy Authentication Required): give them in its URL, http://user:password@host:port (${route.from}); they are redacted from every report`;
  if (status === 403)
    return `${via} refused to open a tunnel to ${target} (403 Forbidden): it does not allow this host or port — ask its administrators, or add the host to NO_PROXY if it is reached directly`;
  if (status === 502 || status === 503 || status === 504)
    return `${via} could not reach ${target} (${status}): is the base URL's host right, and can the proxy reach it? (the proxy looks the name up, not this machine)`;
  if (status) return `${via} answered ${status} to the request for a tunnel to ${target}`;
  const code = 'code' in e && e.code ? ` (${e.code})` : '';
  return `${via} cannot be reached${code}: check ${route.from}, or add ${target.replace(/:\d+$/, '')} to NO_PROXY if the target is reached directly`;
}

/** The certificate the server showed, in words: `CN=staging.example.com, issued by "CN=Example CA"`. */
const shown = (p: TlsPeer): string => `${p.subject ? `${p.subject}, ` : ''}issued by "${p.issuer ?? 'an unnamed issuer'}"`;

const UNTRUSTED =
  /^(UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT_LOCALLY|UNABLE_TO_GET_ISSUER_CERT|SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|CERT_UNTRUSTED)$/;
const CLIENT_CERT_REFUSED =
  /ALERT_(UNKNOWN_CA|BAD_CERTIFICATE|CERTIFICATE_UNKNOWN|UNSUPPORTED_CERTIFICATE|CERTIFICATE_EXPIRED|CERTIFICATE_REVOKED|ACCESS_DENIED)$/;

/** What a TLS diagnosis is about: the target (host:port), what the inspection saw, the run's network. */
interface Seen {
  target: string;
  p: TlsPeer;
  n: NetworkConfig;
}

/** A certificate the run could not verify: its issuer named, and the option that fixes it. */
function untrusted({ target, p, n }: Seen, code: string): string {
  const also = n.caFile ? `, nor by a CA of ${fileName(n.caFile)} (--ca-file)` : '';
  if (p.selfSigned || code === 'DEPTH_ZERO_SELF_SIGNED_CERT')
    return `the certificate of ${target} is self-signed (${p.subject ?? 'no subject'}) and trusted neither by the system's roots${also}: if it is the right server, give that certificate with ${CA_OPTION}`;
  return `the certificate of ${target} (${shown(p)}) is not signed by a CA this run trusts — the system's roots${also} (${code}): give the CA certificate of "${p.issuer ?? 'its issuer'}" with ${CA_OPTION}`;
}

/** A client certificate demanded, or the one given refused. */
function clientCertificate({ target, p, n }: Seen, code: string): string | undefined {
  const required = /CERTIFICATE_REQUIRED$/.test(code);
  if (n.clientCert && p.connected && p.closedAfterHandshake && !/ALERT_/.test(code))
    return `${target} closed the connection right after the TLS handshake, without an alert and without answering: it most likely refused the client certificate ${fileName(n.clientCert)} (issued by "${p.clientIssuer ?? 'its issuer'}"): is it issued by a CA the server trusts, valid today, and meant for client authentication?`;
  if (required && !n.clientCert)
    return `${target} (the server, or a gateway in front of it) demands a client certificate (TLS alert: certificate required): give one with ${CERT_OPTION}`;
  if ((required || CLIENT_CERT_REFUSED.test(code)) && n.clientCert)
    return `${target} refused the client certificate ${fileName(n.clientCert)} (TLS alert: ${alertName(code)}): is it issued by a CA the server trusts, valid today, and meant for client authentication?`;
  if (/ALERT_HANDSHAKE_FAILURE$/.test(code) && !n.clientCert)
    return `${target} ended the TLS handshake (handshake failure): it may demand a client certificate (${CERT_OPTION}), or share no protocol version or cipher with this client`;
  return undefined;
}

const alertName = (code: string): string =>
  code
    .replace(/^.*ALERT_/, '')
    .toLowerCase()
    .replace(/_/g, ' ');

/** The one-line diagnosis of a TLS failure, from the request's error and the inspection of the server's certificate. */
export function tlsDiagnosis(
  baseUrl: string,
  failure: { error: TransportError; peer: TlsPeer; network: NetworkConfig },
): string | undefined {
  const { error: e, peer: p, network: n } = failure;
  const target = authorityOf(baseUrl);
  const seen: Seen = { target, p, n };
  const code = e.code && e.code !== 'UND_ERR_SOCKET' ? e.code : (p.code ?? p.authorizationError ?? e.code ?? '');
  const client = clientCertificate(seen, p.code && /ALERT_/.test(p.code) ? p.code : code);
  if (client) return client;
  if (UNTRUSTED.test(code) || (UNTRUSTED.test(p.authorizationError ?? '') && !n.insecure && e.kind === 'tls'))
    return untrusted(seen, UNTRUSTED.test(code) ? code : (p.authorizationError as string));
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID')
    return `the certificate of ${target} is for other names (${p.names ?? p.subject ?? 'none given'}), not ${target.replace(/:\d+$/, '')}: check the base URL's host`;
  if (code === 'CERT_HAS_EXPIRED') return `the certificate of ${target} (${shown(p)}) expired on ${p.validTo ?? 'an earlier date'}`;
  if (code === 'CERT_NOT_YET_VALID')
    return `the certificate of ${target} (${shown(p)}) is not valid before ${p.validFrom ?? 'a later date'}: is this machine's clock right?`;
  if (/NO_APPLICATION_PROTOCOL$/.test(code))
    return n.http2
      ? `${target} shares no application protocol with this client by ALPN (it offered none of h2, http/1.1)`
      : `${target} speaks HTTP/2 only (no protocol in common with HTTP/1.1 by ALPN): run with --http2 (or ANIMAL_STORE_HTTP2=yes)`;
  if (/WRONG_VERSION_NUMBER|PACKET_LENGTH_TOO_LONG|HTTP_REQUEST/.test(code))
    return `${target} does not speak TLS at that port: http/https mixed up`;
  return undefined;
}
