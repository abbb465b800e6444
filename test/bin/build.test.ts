/**
 * The commands' JavaScript build (bin/build.mjs) never runs stale code: its key is every source file's path and
 * content, so an edit, a new file or a rename gives another build, built before the command runs; the build behaves
 * as its sources (import.meta of the source file); several commands finding the same build missing build it once.
 * Proven on a small tree of stand-in sources (a temporary folder), and on the suite itself: `bin/run.mjs` prints what
 * tsx running the sources prints.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { builtPath, ENTRIES, ensureBuilt, nodeArgs, ROOT, sourceKey } from '../../bin/build.mjs';
import { tempDir } from '../support/temp.ts';

/** A tree with every entry point, each printing what it is, where its source is, and a shared module's word. */
function standInTree(): string {
  const root = tempDir('js-build');
  const write = (rel: string, text: string) => {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  };
  write('src/core/word.ts', "export const word = 'one';\n");
  for (const e of ENTRIES) {
    const up = '../'.repeat(e.split('/').length - 1);
    write(e, `import { word } from '${up}src/core/word.ts';\nexport const said = \`${e} \${word} \${import.meta.dirname}\`;\n`);
  }
  write('conformance/auth/a.spec.ts', "import { word } from '../../src/core/word.ts';\nexport const spec = word;\n");
  write('package.json', '{"type":"module"}\n');
  return root;
}

async function said(dir: string, entry: string): Promise<string> {
  const url = `${pathToFileURL(builtPath(dir, entry)).href}?${Math.random()}`;
  return ((await import(url)) as { said: string }).said;
}

describe('The JavaScript build of the commands (bin/build.mjs)', () => {
  it('The key changes with any edit, new file, rename or removal of a source, and only then (load/dist is output, not source).', () => {
    const root = standInTree();
    const keys = [sourceKey(root)];
    expect(sourceKey(root)).toBe(keys[0]);
    writeFileSync(join(root, 'src/core/word.ts'), "export const word = 'two';\n");
    keys.push(sourceKey(root));
    writeFileSync(join(root, 'src/core/other.ts'), 'export {};\n');
    keys.push(sourceKey(root));
    renameSync(join(root, 'src/core/other.ts'), join(root, 'src/core/renamed.ts'));
    keys.push(sourceKey(root));
    writeFileSync(join(root, 'src/core/renamed.ts'), 'export {};\n'.replace('{}', '{ }'));
    keys.push(sourceKey(root));
    expect(new Set(keys).size).toBe(keys.length);
    mkdirSync(join(root, 'load/dist'), { recursive: true });
    writeFileSync(join(root, 'load/dist/ceiling.js'), 'built\n');
    expect(sourceKey(root)).toBe(keys.at(-1));
    // The same sources elsewhere (a moved checkout; a node_modules copied with its builds): the builds hold absolute paths.
    const moved = `${root}-moved`;
    cpSync(root, moved, { recursive: true });
    expect(sourceKey(moved)).not.toBe(sourceKey(root));
  });

  it('An edited source is built before the next command runs: the command runs the edit, never the earlier build.', async () => {
    const root = standInTree();
    const first = await ensureBuilt(root);
    expect(await said(first, 'src/cli/main.ts')).toBe(`src/cli/main.ts one ${join(root, 'src/cli')}`);
    expect(await ensureBuilt(root)).toBe(first);
    writeFileSync(join(root, 'src/core/word.ts'), "export const word = 'two';\n");
    const second = await ensureBuilt(root);
    expect(second).not.toBe(first);
    expect(await said(second, 'src/cli/main.ts')).toBe(`src/cli/main.ts two ${join(root, 'src/cli')}`);
    expect(readdirSync(join(second, 'conformance/auth'))).toContain('a.spec.mjs');
  });

  it('Commands that find the same build missing at once each get it whole, and leave nothing half-built beside it.', async () => {
    const root = standInTree();
    const dirs = await Promise.all([ensureBuilt(root), ensureBuilt(root), ensureBuilt(root)]);
    expect(new Set(dirs).size).toBe(1);
    expect(JSON.parse(readFileSync(join(dirs[0], 'complete.json'), 'utf8'))).toMatchObject({ entries: ENTRIES });
    // No half-written build, temporary folder or lock is left beside it.
    expect(readdirSync(dirname(dirs[0])).filter((n) => !n.startsWith('.'))).toEqual([basename(dirs[0])]);
  });

  it('A build left unfinished by a killed command (its lock, its process gone) is built again at once, not waited for.', async () => {
    const root = standInTree();
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    const cache = join(root, 'node_modules/.cache/animal-store/js');
    mkdirSync(join(cache, `${sourceKey(root)}.lock`), { recursive: true });
    writeFileSync(join(cache, `${sourceKey(root)}.lock`, 'pid'), String(dead));
    const dir = await ensureBuilt(root);
    expect(await said(dir, 'load/build.ts')).toBe(`load/build.ts one ${join(root, 'load')}`);
  });

  it('npm start -- --help from the build prints what tsx running the sources prints.', () => {
    const run = (args: string[]) => execFileSync(process.execPath, [...args, '--help'], { cwd: ROOT, encoding: 'utf8' });
    expect(nodeArgs('src/cli/main.ts')).toEqual([join(ROOT, 'bin/run.mjs'), 'src/cli/main.ts']);
    expect(run(nodeArgs('src/cli/main.ts'))).toBe(run(['--import', 'tsx', join(ROOT, 'src/cli/main.ts')]));
  });
});
