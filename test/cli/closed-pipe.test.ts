/**
 * A reader that closes the pipe early (`npm start -- --help | head -3`) gets no
 * stack trace from the suite: the writes to a closed stdout are dropped and the
 * command ends with its own exit code.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/cli.ts';
import { nodeArgs } from '../../bin/build.mjs';

const ENTRIES = ['src/cli/main.ts', 'src/cli/conformance.ts', 'load/node/cli.ts'];

/** Run `entry --help` with its stdout closed by the reader before it writes anything. */
function helpIntoClosedPipe(entry: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [...nodeArgs(entry), '--help'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(killer);
      done({ code, stderr });
    });
  });
}

describe('a reader that closes the pipe early', () => {
  it.each(ENTRIES)('%s --help into a closed pipe ends with exit code 0 and no stack trace.', async (entry) => {
    const r = await helpIntoClosedPipe(entry);
    expect(r.stderr).not.toMatch(/EPIPE|at .*:\d+:\d+/);
    expect(r.code).toBe(0);
  });
});
