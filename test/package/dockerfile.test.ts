/**
 * The Dockerfile, as far as a machine without a container engine can check it (README says it is unverified):
 * every path it copies exists, it copies the folders the package ships and nothing of the suite's own tests, its Node
 * is one the suite runs on, it installs the runtime dependencies from the lockfile, and its command is the package's
 * own (`animal-store-certify`) run in the mounted job folder.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/cli.ts';

const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
const instructions = dockerfile
  .split('\n')
  .filter((l) => l.trim() && !l.startsWith('#'))
  .map((l) => {
    const [op, ...rest] = l.trim().split(/\s+/);
    return { op, args: rest };
  });
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  bin: Record<string, string>;
  files: string[];
  engines: { node: string };
};
/** Every source of every COPY (the last argument is the destination). */
const copied = instructions.filter((i) => i.op === 'COPY').flatMap((i) => i.args.slice(0, -1));

describe('The Dockerfile', () => {
  it('Every path it copies exists in the repository.', () => {
    expect(copied.length).toBeGreaterThan(0);
    for (const p of copied) expect(existsSync(join(ROOT, p)), p).toBe(true);
  });

  it('It copies the folders the package ships and the lockfile, and nothing of the tests, benchmarks or examples.', () => {
    const folders = (list: string[]) => list.filter((f) => f.endsWith('/') && !f.startsWith('!')).map((f) => f.replace(/\/$/, ''));
    expect(folders(copied).sort()).toEqual(['bin', ...folders(pkg.files)].sort());
    expect(copied).toContain('package-lock.json');
    expect(copied.filter((p) => /^(test|bench|examples)\b/.test(p))).toEqual([]);
    expect(readFileSync(join(ROOT, '.dockerignore'), 'utf8').split('\n')).toEqual(expect.arrayContaining(['node_modules', 'load/dist']));
  });

  it('Its Node is a release the suite runs on, and it installs the runtime dependencies from the lockfile.', () => {
    const from = instructions.find((i) => i.op === 'FROM')!.args[0];
    expect(Number(/^node:(\d+)/.exec(from)?.[1])).toBeGreaterThanOrEqual(Number(/(\d+)/.exec(pkg.engines.node)?.[1]));
    expect(instructions.find((i) => i.op === 'RUN')?.args.join(' ')).toBe('npm ci --omit=dev --no-audit --no-fund');
  });

  it("Its command is the package's animal-store-certify, run in the job's folder.", () => {
    const suite = instructions.find((i) => i.op === 'WORKDIR')!.args[0];
    const entry = JSON.parse(instructions.find((i) => i.op === 'ENTRYPOINT')!.args.join(' ')) as string[];
    expect(entry).toEqual(['node', `${suite}/${pkg.bin[pkg.name]}`]);
    expect(instructions.filter((i) => i.op === 'WORKDIR').at(-1)?.args).toEqual(['/work']);
  });
});
