/** What a run says of its target, in its reports and to its entry points (one type for both). Pure. */
export interface TargetInfo {
  env: string;
  baseUrl: string;
  /** The plan of the key; absent when none was given for a real target (never guessed). */
  plan?: string;
  /** The target is the suite's own embedded reference server. */
  embedded: boolean;
  /**
   * The embedded server's short world (absent for a real target): its rate-limit window and quota day, in ms, and
   * the per-day quota of each plan under test — what the run was judged on instead of the spec's minute and day.
   */
  world?: {
    windowMs: number;
    dayMs: number;
    perDay: Record<string, number>;
    /** The per-day quota of each plan's daily key, the daily scenario's own (absent in reports written before it had one). */
    dailyKeyPerDay?: Record<string, number>;
    machine?: WorldMachine;
    /**
     * The window and day the conformance specs ran in, when the world was re-sized after them (to this machine's
     * rate, measured before the rate-limit scenarios): windowMs and dayMs are then the scenarios'.
     */
    specs?: { windowMs: number; dayMs: number };
    /** How many times the window was doubled before a second attempt of a scenario whose client fell short of its rate. */
    widened?: number;
  };
  /** The network the run reached the target over (absent in reports written before it was recorded). */
  network?: NetworkInfo;
}

/** What the embedded server's world was sized to: this machine's rate against it, measured before the run. */
export interface WorldMachine {
  /** Responses a second sustained against a throwaway embedded server. */
  measuredPerS: number;
  ms: number;
  inFlight: number;
  /** The rate a second a window asks for: a share of the measured one, at most world.ts's EMBEDDED_RATE_PER_S. */
  windowRatePerS: number;
}

/** The route, protocol and TLS of a run, as its reports record them: never a credential, never a folder. */
export interface NetworkInfo {
  /** Directly, or through a proxy. */
  via: 'direct' | 'proxy';
  /** The proxy's URL, its credentials redacted, and the setting that named it (HTTPS_PROXY, --proxy…). */
  proxy?: string;
  proxySource?: string;
  /** HTTP/2 was offered by ALPN (--http2). */
  http2: boolean;
  /** The protocol the preflight's connection agreed on, when the target is https. */
  negotiated?: 'HTTP/2' | 'HTTP/1.1';
  /** The CA file trusted besides the system's roots (its file name), or `run` for the CA made for the run (the embedded server over TLS). */
  ca?: string;
  /** The client certificate presented (its file name). */
  clientCertificate?: string;
  /** The server's certificate was not verified (--insecure). */
  insecure: boolean;
}

/** A run's network in one line: `through the proxy … (HTTPS_PROXY) · HTTP/2 offered by ALPN, agreed · …`. */
export function networkText(n: NetworkInfo, baseUrl: string): string {
  const https = /^https:/i.test(baseUrl);
  const route =
    n.via === 'proxy' ? `through the proxy ${n.proxy} (${n.proxySource}${https ? ', a CONNECT tunnel' : ', in clear'})` : 'direct';
  const offered = !https ? 'HTTP/1.1 (plain http)' : n.http2 ? 'HTTP/2 offered by ALPN, HTTP/1.1 where not taken' : 'HTTP/1.1';
  const agreed = n.negotiated ? ` (agreed: ${n.negotiated})` : '';
  const trust = !https
    ? []
    : n.insecure
      ? ['server certificate NOT verified (--insecure)']
      : [
          n.ca === 'run'
            ? 'trusting the CA made for this run'
            : n.ca
              ? `trusting the system's roots and ${n.ca}`
              : "trusting the system's roots",
        ];
  const client = n.clientCertificate ? [`client certificate ${n.clientCertificate}`] : [];
  return [route, `${offered}${agreed}`, ...trust, ...client].join(' · ');
}
