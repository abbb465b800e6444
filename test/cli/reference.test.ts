/**
 * `npm run reference` as a user runs it: it listens, says which fault modes and
 * valid variants are on, and lists every demo key with the limits it runs with
 * (--rpm / --rpd for the enterprise key, the spec's for the others); once that
 * banner is out, it stops cleanly on SIGTERM — and, started through npm, when
 * npm alone is interrupted or terminated.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import http2 from 'node:http2';
import { connect, createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { cleanEnv, ROOT, runCli } from '../support/cli.ts';
import { nodeArgs } from '../../bin/build.mjs';

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
  }, 90_000);
});

/** Resolves with what `child` wrote to stdout once `line` is among it; rejects if the child ends first. */
const printed = (child: ChildProcess, line: RegExp) =>
  new Promise<string>((done, fail) => {
    let out = '';
    child.stdout?.on('data', (d) => {
      out += d;
      if (line.test(out)) done(out);
    });
    child.once('close', (code) => fail(new Error(`ended (${code}) before ${line}: ${out}`)));
  });

/** True once every process holding the child's stdout has ended (the server, npm's grandchild, holds it too); false after `ms`. */
const allEnded = (child: ChildProcess, ms: number) =>
  new Promise<boolean>((done) => {
    const timer = setTimeout(() => done(false), ms);
    child.once('close', () => {
      clearTimeout(timer);
      done(true);
    });
  });

/** Does anything accept a connection on the port? */
const listening = (port: number) =>
  new Promise<boolean>((done) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => done(!!socket.destroy()));
    socket.once('error', () => done(false));
  });

describe('npm run reference, stopped through npm', () => {
  it.each([
    ['SIGTERM', 'SIGTERM: stopping'],
    ['SIGINT', 'SIGINT: stopping'],
    ['SIGKILL', 'parent process exited: stopping'],
  ] as const)(
    'When npm alone is sent %s (kill <npm pid>, an IDE stop button, a process manager), the server it started says "%s" and frees its port.',
    async (signal, says) => {
      const port = await freePort();
      // npm runs the script through its shell, as for a user; in a process group of its own, so that whatever is
      // left of it when the test fails is killed after.
      const npm = spawn('npm', ['run', 'reference', '--', '--port', String(port)], {
        cwd: ROOT,
        env: cleanEnv({}),
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      try {
        await printed(npm, /^ {2}enterprise [^\n]*\n/m);
        expect(await listening(port)).toBe(true);
        const ended = allEnded(npm, 20_000);
        const said = printed(npm, new RegExp(`^${says}$`, 'm')).catch((e: Error) => e.message);
        npm.kill(signal);
        expect(await ended, 'the server still holds the pipe 20 s after npm was stopped').toBe(true);
        expect(await said).toMatch(new RegExp(`^${says}$`, 'm'));
        expect(await listening(port)).toBe(false);
      } finally {
        try {
          process.kill(-(npm.pid as number), 'SIGKILL');
        } catch {
          // every process of the group has ended
        }
      }
    },
    90_000,
  );
});

describe('npm run reference -- --mutual-tls', () => {
  it('It serves HTTPS with HTTP/2 by ALPN, prints the CA and the client certificate a client needs, demands that certificate, and removes them when it stops.', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [...nodeArgs('reference/main.ts'), '--mutual-tls', '--port', String(port)], {
      cwd: ROOT,
      env: cleanEnv({}),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const out = await printed(child, /^ {2}enterprise [^\n]*\n/m);
      expect(out).toMatch(new RegExp(`^Animal Store reference server listening on https://127\\.0\\.0\\.1:${port}/v1$`, 'm'));
      const ca = /--ca-file (\S+)/.exec(out)![1];
      const [, cert, key] = /--client-cert (\S+) --client-key (\S+)/.exec(out)!;
      const key0 = /^ {2}pro +(\S+)/m.exec(out)![1];
      const get = (withCert: boolean) =>
        new Promise<string>((done) => {
          const tls = { ca: readFileSync(ca), ...(withCert ? { cert: readFileSync(cert), key: readFileSync(key) } : {}) };
          const s = http2.connect(`https://127.0.0.1:${port}`, tls);
          s.on('error', (e: NodeJS.ErrnoException) => done(e.code ?? e.message));
          const req = s.request({ ':path': '/v1/pets?limit=1', authorization: `Bearer ${key0}` });
          req.on('response', (h) => (done(String(h[':status'])), s.close()));
          req.on('error', (e: NodeJS.ErrnoException) => done(e.code ?? e.message));
          req.end();
        });
      expect(await get(true)).toBe('200');
      expect(await get(false)).toMatch(/CERTIFICATE_REQUIRED|ECONNRESET|ERR_HTTP2/);
      const ended = allEnded(child, 20_000);
      child.kill('SIGTERM');
      expect(await ended).toBe(true);
      expect(existsSync(ca)).toBe(false);
    } finally {
      child.kill('SIGKILL');
    }
  }, 90_000);
});
