/**
 * Lists every function longer than a limit, longest first: the lines from its first to its last, nested functions
 * included (the style's "fits on a screen": about 60 lines at most). Not a test; a tool for finding the long ones.
 *
 *   node --import tsx test/support/function-lengths.ts [limit=60] [folders or files…=src load reference]
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

function* sourceFiles(path: string): Generator<string> {
  if (!statSync(path).isDirectory()) {
    yield path;
    return;
  }
  for (const e of readdirSync(path, { withFileTypes: true })) {
    const p = join(path, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'dist' && e.name !== 'node_modules') yield* sourceFiles(p);
    } else if (/\.(ts|mts|mjs|js)$/.test(e.name) && !e.name.endsWith('.d.ts')) yield p;
  }
}

/** A function's name as a reader would look for it: its own, its variable's or property's, or what it is passed to. */
function nameOf(n: ts.Node, sf: ts.SourceFile): string {
  const own = (n as ts.FunctionDeclaration).name;
  if (own) return own.getText(sf);
  const p = n.parent;
  if (ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p)) return p.name.getText(sf);
  if (ts.isCallExpression(p)) return `<callback of ${p.expression.getText(sf).slice(0, 40)}>`;
  return '<anonymous>';
}

/** [lines, "file:line name"] of every function in `file` longer than `limit` lines. */
export function longFunctions(file: string, limit: number, root = process.cwd()): [number, string][] {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const out: [number, string][] = [];
  const visit = (n: ts.Node) => {
    if (ts.isFunctionLike(n) && (n as ts.FunctionLikeDeclaration).body) {
      const first = sf.getLineAndCharacterOfPosition(n.getStart(sf)).line;
      const last = sf.getLineAndCharacterOfPosition(n.getEnd()).line;
      if (last - first + 1 > limit) out.push([last - first + 1, `${relative(root, file)}:${first + 1} ${nameOf(n, sf)}`]);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const [limit = '60', ...paths] = process.argv.slice(2);
  const rows = (paths.length ? paths : ['src', 'load', 'reference'])
    .flatMap((p) => [...sourceFiles(p)])
    .flatMap((f) => longFunctions(f, Number(limit)))
    .sort((a, b) => b[0] - a[0]);
  for (const [lines, where] of rows) console.log(`${String(lines).padStart(4)} ${where}`);
}
