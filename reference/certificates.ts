/**
 * Certificates for serving the reference server over TLS, made with the `openssl` command (OpenSSL 1.1.1 or 3, or
 * LibreSSL): a CA of its own, a server certificate it signs for the names a local run reaches the server by
 * (localhost, 127.0.0.1, ::1 and `animal-store.internal`, a name only a test's proxy knows), and a client certificate
 * for mutual TLS. P-256 keys, SHA-256, short validity: they serve one run (`npm start -- --tls`) or one
 * `npm run reference -- --tls`, and the self-tests cache theirs. Nothing here is trusted outside the run that makes it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface CertificateSet {
  dir: string;
  /** The CA's certificate (what a client is told to trust) and its name. */
  ca: string;
  caName: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
}

/** The names the server certificate is valid for. */
export const SERVER_NAMES = ['DNS:localhost', 'IP:127.0.0.1', 'IP:::1', 'DNS:animal-store.internal'];

function openssl(args: string[], cwd: string): void {
  try {
    execFileSync('openssl', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], timeout: 30_000 });
  } catch (e) {
    const err = e as NodeJS.ErrnoException & { stderr?: Buffer };
    if (err.code === 'ENOENT')
      throw new Error('serving over TLS makes its certificates with the openssl command, which is not installed (on PATH)', { cause: e });
    throw new Error(
      `openssl ${args[0]} failed: ${String(err.stderr ?? err.message)
        .trim()
        .split('\n')
        .slice(-2)
        .join(' ')}`,
      { cause: e },
    );
  }
}

const EC = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];

/** A key and a certificate signed by the CA of `dir`, with the given extensions. */
function signed(dir: string, o: { name: string; subject: string; ext: string[]; days: number }): void {
  writeFileSync(join(dir, `${o.name}.ext`), `${o.ext.join('\n')}\n`);
  openssl(['req', '-new', ...EC, '-keyout', `${o.name}.key`, '-out', `${o.name}.csr`, '-subj', o.subject], dir);
  openssl(
    [
      'x509',
      '-req',
      '-in',
      `${o.name}.csr`,
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-sha256',
      '-days',
      String(o.days),
    ].concat(['-out', `${o.name}.pem`, '-extfile', `${o.name}.ext`]),
    dir,
  );
}

/**
 * Make a CA, a server certificate and a client certificate in `dir` (an empty folder of the caller's), valid for
 * `days`. `label` names the CA (a test makes two CAs and tells them apart by name).
 */
export function makeCertificates(dir: string, o: { days?: number; label?: string } = {}): CertificateSet {
  const days = o.days ?? 2;
  const caName = `Animal Store ${o.label ?? 'run'} CA`;
  openssl(
    [
      'req',
      '-x509',
      ...EC,
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
      '-sha256',
      '-days',
      String(days),
      '-subj',
      `/O=Animal Store/CN=${caName}`,
    ].concat(['-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign']),
    dir,
  );
  const leaf = ['basicConstraints=critical,CA:FALSE', 'keyUsage=critical,digitalSignature'];
  signed(dir, {
    name: 'server',
    subject: '/CN=localhost',
    days,
    ext: [...leaf, 'extendedKeyUsage=serverAuth', `subjectAltName=${SERVER_NAMES.join(',')}`],
  });
  signed(dir, { name: 'client', subject: '/CN=animal-store-conformance client', days, ext: [...leaf, 'extendedKeyUsage=clientAuth'] });
  return certificateSet(dir, caName);
}

/** The files of a set made in `dir` earlier (undefined when one is missing). */
export function certificateSet(dir: string, caName: string): CertificateSet {
  const set = {
    dir,
    ca: join(dir, 'ca.pem'),
    caName,
    serverCert: join(dir, 'server.pem'),
    serverKey: join(dir, 'server.key'),
    clientCert: join(dir, 'client.pem'),
    clientKey: join(dir, 'client.key'),
  };
  for (const f of [set.ca, set.serverCert, set.serverKey, set.clientCert, set.clientKey])
    if (!existsSync(f)) throw new Error(`${f} is missing`);
  return set;
}
