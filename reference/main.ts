/**
 * `npm run reference`: the reference server on 127.0.0.1:4010, with fault modes
 * and valid variants switched on by flags (or ANIMAL_STORE_FAULT /
 * ANIMAL_STORE_VARIANTS), through the suite's one options parser. `--help`
 * lists every fault mode and variant, one line each. Once its banner (the
 * listening line, then the demo keys) is printed, SIGINT or SIGTERM stops it:
 * "<signal>: stopping", then exit 0 once the server has closed and the output is flushed.
 *
 * npm runs a script as `sh -c "…"` and forwards SIGINT and SIGTERM to that shell
 * only (a terminal's Ctrl-C reaches the whole process group; `kill <npm pid>`, an
 * IDE's stop button or a process manager signal npm alone). The shell forks node
 * and does not pass signals on: it dies of SIGTERM, leaving the server orphaned on
 * its port, and holds SIGINT until node ends. So package.json starts it with
 * `exec node …` (npm's signals reach node), and, started by npm, it also stops
 * once its parent process is gone ("parent process exited: stopping"): npm
 * killed outright.
 *
 * The one file of reference/ that imports the suite: its options (flags,
 * environment, .env) through src/config, so that `npm run reference` reads them
 * as every other command does. What the server does and judges imports nothing
 * of the suite.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configFrom, ConfigError, optionsHelp } from '../src/config/command-config.ts';
import { exitFlushed } from '../src/config/exit.ts';
import { buildApp } from './app.ts';
import { FAULT_NAMES, FAULTS, parseFaults } from './faults.ts';
import { DEFAULT_ENTERPRISE } from './keys.ts';
import { PLAN_NAMES, SPEC_PLANS } from './plan-limits.ts';
import { listen, type ServeTls } from './server.ts';
import { makeCertificates, type CertificateSet } from './certificates.ts';
import { parseVariants, VARIANTS } from './variants.ts';

export function help(): string {
  const width = Math.max(...FAULT_NAMES.map((f) => f.length), ...VARIANTS.map((v) => v.name.length + 2)) + 2;
  return [
    'Usage: npm run reference -- [options]',
    '',
    'The Animal Store reference server, with its demo keys (one per plan) printed at start.',
    '',
    optionsHelp('reference'),
    '',
    'Fault modes (--faults a,b): each breaks one behaviour the suite must catch.',
    ...FAULT_NAMES.map((f) => `  ${f.padEnd(width)}${FAULTS[f].description}`),
    '',
    'Valid variants (--variants name=value,…): unusual behaviours the suite must never fail; each is certified,',
    'unless its line says a requirement warns (then the run is passed, incomplete: not certified).',
    ...VARIANTS.map((v) => `  ${v.name.padEnd(width)}${v.values.join('|')}: ${v.description}`),
  ].join('\n');
}

/** How often the parent process is looked at: a vanished npm frees the port within about this long. */
const PARENT_POLL_MS = 500;
/** Read at once: npm gone while the server starts is seen too. */
const PARENT = process.ppid;

/**
 * Calls `onGone` once the parent process has exited (this process then has another parent: init or a subreaper).
 * Only when started by npm (it waits for its script): a server started from a shell that then exits, with nohup
 * or `(node … &)`, is orphaned on purpose, and may be orphaned before it could read its first parent.
 */
function stopWithParent(onGone: () => void): void {
  if (!process.env.npm_lifecycle_event) return;
  const timer = setInterval(() => {
    if (process.ppid === PARENT) return;
    clearInterval(timer);
    onGone();
  }, PARENT_POLL_MS);
  timer.unref();
}

/** --tls / --mutual-tls: a CA made for this server's life in a temporary folder (removed when it stops), HTTP/2 and HTTP/1.1 by ALPN. */
function servedTls(mode: 'https' | 'mutual'): { set: CertificateSet; serve: ServeTls } {
  const set = makeCertificates(mkdtempSync(join(tmpdir(), 'animal-store-reference-tls-')));
  return { set, serve: { cert: set.serverCert, key: set.serverKey, ...(mode === 'mutual' ? { clientCa: set.ca } : {}) } };
}

/** What a client needs to reach the server over TLS: the CA to trust, and for mutual TLS the client certificate. */
function tlsLines(set: CertificateSet, mutual: boolean): string[] {
  return [
    `TLS: HTTP/2 and HTTP/1.1 by ALPN; the certificate is signed by "${set.caName}", made for this server and removed when it stops:`,
    `  --ca-file ${set.ca}`,
    ...(mutual
      ? [`Mutual TLS: a client certificate of that CA is demanded:`, `  --client-cert ${set.clientCert} --client-key ${set.clientKey}`]
      : []),
  ];
}

async function main(): Promise<void> {
  const c = configFrom(process.argv.slice(2), 'reference');
  if (c.help) {
    process.stdout.write(`${help()}\n`);
    return;
  }
  let faults;
  let variants;
  try {
    faults = parseFaults(c.reference.faults);
    variants = parseVariants(c.reference.variants);
  } catch (e) {
    throw new ConfigError((e as Error).message);
  }
  // --rpm / --rpd set the enterprise key's limits; the other plans keep the spec's.
  const enterprise = {
    perMinute: c.reference.rpm ?? DEFAULT_ENTERPRISE.perMinute,
    perDay: c.reference.rpd ?? DEFAULT_ENTERPRISE.perDay,
  };
  const app = buildApp({
    faults,
    variants,
    enterprise,
    ...(c.load.windowMs ? { windowMs: c.load.windowMs } : {}),
    ...(c.load.dayMs ? { dayMs: c.load.dayMs } : {}),
  });
  const tls = c.reference.tls ? servedTls(c.reference.tls) : undefined;
  const server = await listen(app, { host: c.reference.host, port: c.reference.port, ...(tls ? { tls: tls.serve } : {}) });
  // Before anything is printed: whoever reads the keys may stop the server at once.
  let stopping = false;
  const stop = (why: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${why}: stopping`);
    void server.close().then(() => {
      if (tls) rmSync(tls.set.dir, { recursive: true, force: true });
      exitFlushed(0);
    });
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  stopWithParent(() => stop('parent process exited'));
  console.log(`Animal Store reference server listening on ${server.url}`);
  if (tls) for (const line of tlsLines(tls.set, c.reference.tls === 'mutual')) console.log(line);
  if (faults.length) console.log(`Fault modes: ${faults.join(', ')}`);
  if (c.reference.variants) console.log(`Valid variants: ${c.reference.variants}`);
  const window = c.load.windowMs ? `${c.load.windowMs} ms window` : 'minute';
  const limits = { ...SPEC_PLANS, enterprise };
  console.log(`Demo keys (requests per ${window} · per day):`);
  for (const plan of PLAN_NAMES) console.log(`  ${plan.padEnd(10)} ${app.keys[plan]}  ${limits[plan].perMinute} · ${limits[plan].perDay}`);
}

main().catch((e: unknown) => {
  console.error(`reference: ${e instanceof ConfigError ? 'configuration error: ' : ''}${(e as Error).message}`);
  exitFlushed(2);
});
