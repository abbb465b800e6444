/**
 * CI keeps certifying the example servers: `.ci/run` calls `examples/servers/run.sh install` and then
 * `run.sh certify all` after `npm test`, with nothing that would swallow the certification's failure
 * (an `|| true`, a background `&`, a comment), under `set -e`; and run.sh's certification is the suite's
 * full profile with the daily quota. Reads the files only: no server is started here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/cli.ts';

/** The lines of a shell script that run something: comments and blank lines left out. */
const commands = (script: string) =>
  script
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));

const CERTIFY = /^(CERTIFY_JOBS=[0-9]+ )?(bash |\.\/)?examples\/servers\/run\.sh certify all$/;
const INSTALL = /examples\/servers\/run\.sh install\b/;

/** Why this .ci/run would not (or not reliably) fail CI on a stack that is not certified: [] when it does. */
function certificationProblems(script: string): string[] {
  const lines = commands(script);
  const problems: string[] = [];
  if (!lines.some((l) => /^set -[a-z]*e/.test(l))) problems.push('no set -e: a failed command would not stop CI');
  const tests = lines.findIndex((l) => /^npm test\b/.test(l));
  const certify = lines.findIndex((l) => CERTIFY.test(l));
  const install = lines.findIndex((l) => INSTALL.test(l));
  if (certify < 0) {
    const swallowed = lines.find((l) => l.includes('run.sh certify all'));
    problems.push(swallowed ? `the certification's exit code is not CI's: ${swallowed}` : 'run.sh certify all is not called');
  }
  if (install < 0) problems.push('run.sh install is not called');
  if (certify >= 0 && install > certify) problems.push('run.sh install comes after the certification');
  if (certify >= 0 && tests > certify) problems.push('the certification comes before npm test');
  if (certify >= 0 && lines.slice(0, certify).some((l) => /^exit\b/.test(l))) problems.push('CI exits before the certification');
  return problems;
}

const CI = readFileSync(join(ROOT, '.ci/run'), 'utf8');

describe('CI certifies the example servers', () => {
  it('.ci/run installs the stacks and certifies every one after npm test, its failure failing CI.', () => {
    expect(certificationProblems(CI)).toEqual([]);
  });

  const broken: [string, string, RegExp][] = [
    ['the call removed', CI.replace(/^(?!#).*examples\/servers\/run\.sh certify all$/m, ''), /is not called/],
    ['the call commented out', CI.replace(/^((?!#).*examples\/servers\/run\.sh certify all)$/m, '# $1'), /is not called/],
    ['its failure swallowed', CI.replace(/^(.*run\.sh certify all)$/m, '$1 || true'), /exit code is not CI's/],
    ['run in the background', CI.replace(/^(.*run\.sh certify all)$/m, '$1 &'), /exit code is not CI's/],
    ['set -e removed', CI.replace(/^set -euo pipefail$/m, ''), /no set -e/],
    ['moved before npm test', CI.replace(/^npm test$/m, '').replace(/^(.*run\.sh certify all)$/m, '$1\nnpm test'), /before npm test/],
    ['an exit before it', CI.replace(/^npm test$/m, 'npm test\nexit 0'), /exits before/],
    ['the install removed', CI.replace(/^.*run\.sh install.*$/gm, ''), /install is not called/],
  ];
  it.each(broken)('A .ci/run with the certification %s is refused.', (_what, script, problem) => {
    expect(script).not.toBe(CI);
    expect(certificationProblems(script).join('; ')).toMatch(problem);
  });

  it("run.sh certifies with the suite's full profile, the daily quota and a short world, and stops the server whatever happens.", () => {
    const run = readFileSync(join(ROOT, 'examples/servers/run.sh'), 'utf8');
    expect(run).toMatch(/npm start --silent -- --base-url "\$url" --plan free --profile full\s*\\\s*\n\s*--allow-daily --window-ms/);
    expect(run).toMatch(/^trap 'stop_suite; stop_server' EXIT$/m);
    for (const stack of ['python-fastapi', 'node', 'go', 'java-jackson']) expect(run).toContain(stack);
  });
});
