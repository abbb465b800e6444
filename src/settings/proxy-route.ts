/**
 * Which proxy a request to a URL goes through, decided as Go decides it (golang.org/x/net/http/httpproxy, which k6's
 * http.ProxyFromEnvironment is): the scheme's proxy (HTTPS_PROXY for https, HTTP_PROXY for http; no fallback from one
 * to the other), never for `localhost` or a loopback address, and not for a host NO_PROXY names — `*`, an IP, a CIDR
 * block, a domain and its subdomains (`example.com`, `.example.com`, `*.example.com`), each with an optional port.
 * The Node side routes by this so that both engines of a run take the same route. Pure (bundled for k6).
 */

/** An IP address as its bytes (4 for IPv4 and IPv4-mapped IPv6, 16 for IPv6), or undefined when `s` is none. */
export function parseIp(s: string): number[] | undefined {
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(s);
  if (v4) {
    const b = v4.slice(1).map(Number);
    return b.every((x, i) => x <= 255 && String(x) === v4[i + 1].replace(/^0+(?=\d)/, '')) ? b : undefined;
  }
  if (s.indexOf(':') < 0 || !/^[0-9a-f:.]+$/i.test(s)) return undefined;
  return parseIpv6(s);
}

function parseIpv6(s: string): number[] | undefined {
  const halves = s.split('::');
  if (halves.length > 2) return undefined;
  const groups = (part: string): number[] | undefined => {
    if (part === '') return [];
    const out: number[] = [];
    const items = part.split(':');
    for (let i = 0; i < items.length; i++) {
      const v4 = i === items.length - 1 && items[i].indexOf('.') >= 0 ? parseIp(items[i]) : undefined;
      if (v4 && v4.length === 4) out.push((v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]);
      else if (/^[0-9a-f]{1,4}$/i.test(items[i])) out.push(parseInt(items[i], 16));
      else return undefined;
    }
    return out;
  };
  const head = groups(halves[0]);
  const tail = halves.length === 2 ? groups(halves[1]) : [];
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if ((halves.length === 2 && missing < 1) || (halves.length === 1 && missing !== 0)) return undefined;
  const words = head.concat(new Array<number>(missing).fill(0), tail);
  const bytes: number[] = [];
  for (const w of words) bytes.push(w >> 8, w & 255);
  // ::ffff:a.b.c.d is the IPv4 address a.b.c.d (Go's net.IP compares them equal)
  const mapped = bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 255 && bytes[11] === 255;
  return mapped ? bytes.slice(12) : bytes;
}

const isLoopback = (ip: number[]): boolean => (ip.length === 4 ? ip[0] === 127 : ip.every((b, i) => b === (i === 15 ? 1 : 0)));

function inCidr(ip: number[], net: number[], bits: number): boolean {
  if (ip.length !== net.length) return false;
  for (let i = 0; i < bits; i++) {
    const mask = 128 >> (i % 8);
    if ((ip[i >> 3] & mask) !== (net[i >> 3] & mask)) return false;
  }
  return true;
}

/** One entry of NO_PROXY: a test of a host (lowercase, IPv6 without brackets), its IP if it is one, and its port. */
type Matcher = (host: string, ip: number[] | undefined, port: string) => boolean;

const sameIp = (a: number[], b: number[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

function matcherOf(entry: string): Matcher | undefined {
  const cidr = /^([^/]+)\/(\d{1,3})$/.exec(entry);
  if (cidr) {
    const net = parseIp(cidr[1]);
    const bits = Number(cidr[2]);
    if (!net || bits > net.length * 8) return undefined;
    return (_h, ip) => !!ip && inCidr(ip, net, bits);
  }
  const hp = /^\[([^\]]+)\](?::(\d*))?$/.exec(entry) || /^([^:]+):(\d*)$/.exec(entry);
  const host = hp ? hp[1] : entry;
  const port = hp && hp[2] ? hp[2] : '';
  if (!host) return undefined;
  const ipOf = parseIp(host);
  if (ipOf) return (_h, ip, p) => !!ip && sameIp(ip, ipOf) && (!port || port === p);
  // domain.com matches domain.com and its subdomains; .domain.com and *.domain.com only the subdomains
  const bare = host.indexOf('*.') === 0 ? host.slice(1) : host;
  const matchHost = bare.charAt(0) !== '.';
  const suffix = matchHost ? `.${bare}` : bare;
  return (h, ip, p) => !ip && (endsWith(h, suffix) || (matchHost && h === suffix.slice(1))) && (!port || port === p);
}

const endsWith = (s: string, suffix: string): boolean => s.length >= suffix.length && s.slice(s.length - suffix.length) === suffix;

/** Does NO_PROXY (Go's reading of it) send a request to host:port directly? */
export function noProxyMatches(noProxy: string | undefined, host: string, port: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  const ip = parseIp(h);
  for (const raw of (noProxy || '').split(',')) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry === '*') return true;
    const m = matcherOf(entry);
    if (m && m(h, ip, port)) return true;
  }
  return false;
}

/** Does Go send a request to host:port through its scheme's proxy (given one)? Never to localhost or a loopback address. */
export function useProxy(noProxy: string | undefined, host: string, port: string): boolean {
  const h = host.replace(/^\[|\]$/g, '');
  if (h === 'localhost') return false;
  const ip = parseIp(h.toLowerCase());
  if (ip && isLoopback(ip)) return false;
  return !noProxyMatches(noProxy, h, port);
}

/** A URL's scheme, host (IPv6 without brackets) and port (the scheme's default when none), if it is an http(s) URL. */
export function originOf(url: string): { scheme: 'http' | 'https'; host: string; port: string } | undefined {
  const m = /^(https?):\/\/(?:[^@/?#]*@)?(\[[^\]]+\]|[^:/?#]+)(?::(\d+))?/i.exec(url);
  if (!m) return undefined;
  const scheme = m[1].toLowerCase() as 'http' | 'https';
  return { scheme, host: m[2].replace(/^\[|\]$/g, '').toLowerCase(), port: m[3] || (scheme === 'https' ? '443' : '80') };
}
