/**
 * Atomic file writes: the text goes to a temporary file in the same directory,
 * which is then renamed over the target, so a reader (a CI upload, a browser)
 * never sees a half-written report.
 */
import { closeSync, copyFileSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';

/** Writes through a temporary file beside `path`, renamed over it once `fill` has written it whole. */
function viaTemporary(path: string, fill: (tmp: string) => void): string {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    fill(tmp);
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  return path;
}

export function writeFileAtomic(path: string, text: string): string {
  return viaTemporary(path, (tmp) => writeFileSync(tmp, text, { encoding: 'utf8', flag: 'wx' }));
}

/** A file written a chunk at a time (a large one never whole in memory), atomically. */
export function writeFileAtomicStream(path: string, write: (out: (chunk: string) => void) => void): string {
  return viaTemporary(path, (tmp) => {
    const fd = openSync(tmp, 'wx');
    try {
      write((chunk) => {
        const buf = Buffer.from(chunk, 'utf8');
        for (let at = 0; at < buf.length;) at += writeSync(fd, buf, at, buf.length - at);
      });
    } finally {
      closeSync(fd);
    }
  });
}

/** A copy of `from` at `to`, atomically. */
export function copyFileAtomic(from: string, to: string): string {
  return viaTemporary(to, (tmp) => copyFileSync(from, tmp));
}
