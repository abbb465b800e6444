/**
 * The certificate records the network its run took (issue 31): the banner's Network line — the route with the proxy's
 * credentials redacted, the HTTP version offered and agreed, the CA trusted, the client certificate — and a run that
 * did not verify the server's certificate (--insecure) is flagged as no certificate of a real service.
 */
import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/results/writers/html.ts';
import type { RunReport } from '../../src/results/types.ts';
import { certifiedReport } from '../support/report-fixtures.ts';

function withNetwork(network: NonNullable<RunReport['target']['network']>, baseUrl = 'https://api.example.com/v1'): RunReport {
  const r = certifiedReport();
  return { ...r, target: { ...r.target, baseUrl, network } };
}

describe('index.html: the network', () => {
  it('The banner says the route, the protocol, the CA and the client certificate, with the proxy redacted.', () => {
    const html = renderHtml(
      withNetwork({
        via: 'proxy',
        proxy: 'http://[REDACTED]@proxy.corp:3128',
        proxySource: 'HTTPS_PROXY',
        http2: true,
        negotiated: 'HTTP/2',
        ca: 'internal-ca.pem',
        clientCertificate: 'client.pem',
        insecure: false,
      }),
    );
    expect(html).toContain(
      `data-testid="meta-network">through the proxy http://[REDACTED]@proxy.corp:3128 (HTTPS_PROXY, a CONNECT tunnel) · HTTP/2 offered by ALPN, HTTP/1.1 where not taken (agreed: HTTP/2) · trusting the system&#39;s roots and internal-ca.pem · client certificate client.pem</dd>`,
    );
    expect(html).not.toContain('data-testid="flag-insecure"');
  });

  it('A run that did not verify the server’s certificate is flagged in the banner.', () => {
    const html = renderHtml(withNetwork({ via: 'direct', http2: false, insecure: true }));
    expect(html).toContain('data-testid="flag-insecure">Server certificate NOT verified (--insecure)');
    expect(html).toContain('data-testid="meta-network">direct · HTTP/1.1 · server certificate NOT verified (--insecure)</dd>');
  });

  it('A report written before the network was recorded shows no Network line.', () => {
    expect(renderHtml(certifiedReport())).not.toContain('meta-network');
  });
});
