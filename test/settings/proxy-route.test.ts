/**
 * The route of a request is decided as Go decides it (k6 is Go: http.ProxyFromEnvironment), so that both engines of
 * a run take the same one. The table of hosts and NO_PROXY is golang.org/x/net/http/httpproxy's own (proxy_test.go,
 * UseProxyTests: http requests, port 80), transcribed, and checked row by row against net/http.ProxyFromEnvironment
 * of Go 1.25.12 (the toolchain the real k6 binaries were built with) on 2026-11-28; then the scheme rules: each
 * scheme its own proxy, no fallback from https to HTTP_PROXY, loopback never proxied.
 */
import { describe, expect, test } from 'vitest';
import { noProxyMatches, parseIp, useProxy } from '../../src/settings/proxy-route.ts';
import { proxyUrl, routeFor, shownProxy } from '../../src/settings/network.ts';

const GO_NO_PROXY =
  'foobar.com, .barbaz.net, *.wildcard.io, 192.168.1.1, 192.168.1.2:81, 192.168.1.3:80, 10.0.0.0/30, 2001:db8::52:0:1, [2001:db8::52:0:2]:443, [2001:db8::52:0:3]:80, 2002:db8:a::45/64';

/** [host, does Go send it through the proxy?] */
const GO_CASES: [string, boolean][] = [
  ['localhost', false],
  ['127.0.0.1', false],
  ['127.0.0.2', false],
  ['[::1]', false],
  ['[::2]', true],
  ['192.168.1.1', false],
  ['192.168.1.2', true],
  ['192.168.1.3', false],
  ['192.168.1.4', true],
  ['10.0.0.2', false],
  ['[2001:db8::52:0:1]', false],
  ['[2001:db8::52:0:2]', true],
  ['[2001:db8::52:0:3]', false],
  ['[2002:db8:a::123]', false],
  ['[fe80::424b:c8be:1643:a1b6]', true],
  ['barbaz.net', true],
  ['www.barbaz.net', false],
  ['foobar.com', false],
  ['www.foobar.com', false],
  ['foofoobar.com', true],
  ['baz.com', true],
  ['localhost.net', true],
  ['local.localhost', true],
  ['barbarbaz.net', true],
  ['wildcard.io', true],
  ['nested.wildcard.io', false],
  ['awildcard.io', true],
];

describe("Go's NO_PROXY, case by case", () => {
  test.each(GO_CASES)('http://%s goes through the proxy: %s.', (host, proxied) => {
    expect(useProxy(GO_NO_PROXY, host, '80')).toBe(proxied);
    expect(routeFor(`http://${host}/v1`, { http: 'http://proxy:3128', noProxy: GO_NO_PROXY }).via).toBe(proxied ? 'proxy' : 'direct');
  });

  test('"*" sends every host directly; an empty NO_PROXY none.', () => {
    expect(noProxyMatches('*', 'api.example.com', '443')).toBe(true);
    expect(noProxyMatches('', 'api.example.com', '443')).toBe(false);
  });
});

describe('the scheme decides the proxy', () => {
  const proxy = { https: 'http://secure-proxy:3128', http: 'http://plain-proxy:3128', httpsFrom: 'HTTPS_PROXY' };
  test('An https target goes through HTTPS_PROXY, an http one through HTTP_PROXY; neither falls back on the other.', () => {
    expect(routeFor('https://api.example.com/v1', proxy)).toEqual({ via: 'proxy', proxy: 'http://secure-proxy:3128', from: 'HTTPS_PROXY' });
    expect(routeFor('http://api.example.com/v1', proxy)).toEqual({ via: 'proxy', proxy: 'http://plain-proxy:3128', from: 'HTTP_PROXY' });
    expect(routeFor('https://api.example.com/v1', { http: 'http://plain-proxy:3128' })).toEqual({ via: 'direct' });
  });

  test('The default port is the scheme’s: NO_PROXY with :443 exempts an https target without a port.', () => {
    expect(routeFor('https://api.example.com/v1', { ...proxy, noProxy: 'api.example.com:443' }).via).toBe('direct');
    expect(routeFor('https://api.example.com:8443/v1', { ...proxy, noProxy: 'api.example.com:443' }).via).toBe('proxy');
  });

  test('A proxy without a scheme is http:// (as Go reads it); its credentials are never shown.', () => {
    expect(proxyUrl('proxy.corp:3128')).toEqual({ url: 'http://proxy.corp:3128', scheme: 'http' });
    expect(proxyUrl('https://u:p@proxy.corp/')).toEqual({ url: 'https://u:p@proxy.corp', scheme: 'https' });
    expect(shownProxy('http://user:s3cret@proxy.corp:3128')).toBe('http://[REDACTED]@proxy.corp:3128');
  });

  test('IP addresses are read as Go reads them: IPv4-mapped IPv6 is IPv4; nonsense is no IP.', () => {
    expect(parseIp('::ffff:10.0.0.1')).toEqual([10, 0, 0, 1]);
    expect(parseIp('2001:db8::1')?.length).toBe(16);
    expect(parseIp('300.1.1.1')).toBeUndefined();
    expect(parseIp('example.com')).toBeUndefined();
  });
});
