/**
 * What every library server offers the test: its base URL (ending in /v1) and
 * a way to close it. `jsonErrors` is the team's choice of 429 body: an Error
 * (`true`) or the library's default (`false`).
 */
export interface LibraryServer {
  url: string;
  close(): Promise<void>;
}

export interface ServerOptions {
  /** The limiter's window (each library's windowMs / timeWindow / duration). */
  windowMs: number;
  /** The enterprise key's limit a window (the test's custom plan); LIMITS.enterprise by default. */
  enterpriseLimit?: number;
}
