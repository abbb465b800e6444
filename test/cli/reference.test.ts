/**
 * `npm run reference` as a user runs it: it listens, says which fault modes and
 * valid variants are on, and lists every demo key with the limits it runs with
 * (--rpm / --rpd for the enterprise key, the spec's for the others); once that
 * banner is out, it stops cleanly on SIGTERM.
 */
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.ts';

/** A port nothing listens on right now. */
const freePort = () =>
  new Promise<number>((done) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => done(port));
    });
  });

describe('npm run reference', () => {
  it('It lists its fault modes, its variants and every demo key with its limits, enterprise with --rpm / --rpd.', async () => {
    const port = String(await freePort());
    const r = await runCli(
      'reference/main.ts',
      ['--port', port, '--faults', 'never-429', '--variants', 'limiter=sliding', '--rpm', '77', '--rpd', '900'],
      {
        // SIGTERM once the whole banner is out (its last line is the enterprise key's), which is when the server
        // promises to stop cleanly on a signal; then the test waits for the exit, however slow the machine.
        onSpawn: (child) => {
          let out = '';
          let sent = false;
          child.stdout?.on('data', (d) => {
            out += d;
            if (sent || !/^ {2}enterprise [^\n]*\n/m.test(out)) return;
            sent = true;
            child.kill('SIGTERM');
          });
        },
        killAfterMs: 60_000,
      },
    );
    expect(r.stdout, r.stderr).toMatch(/^Animal Store reference server listening on http:\/\/127\.0\.0\.1:\d+\/v1$/m);
    expect(r.stdout).toContain('Fault modes: never-429');
    expect(r.stdout).toContain('Valid variants: limiter=sliding');
    expect(r.stdout).toMatch(/^ {2}free +as_demo_free_\w+ {2}60 · 1000$/m);
    expect(r.stdout).toMatch(/^ {2}pro +as_demo_pro_\w+ {2}300 · 10000$/m);
    expect(r.stdout).toMatch(/^ {2}enterprise as_demo_enterprise_\w+ {2}77 · 900$/m);
    expect(r.stdout).toContain('SIGTERM: stopping');
    // Stopped by the signal, not killed after the timeout (tsx may re-raise the signal once the server has closed).
    expect(r.code === 0 || r.signal === 'SIGTERM').toBe(true);
  }, 60_000);
});
