/**
 * A requirement's judgement is built by its section's rules (CONTRIBUTING.md, "Add a rule"), never inline where the
 * facts are gathered: the linter's rule (test/support/judgements.mjs, run by eslint.config.js) refuses a section's
 * `judge` outside src/core/sections and a generic constructor in a spec file; here, that it does, that it lets the
 * rules and the facts' gathering pass, and that each file it excepts still needs to be.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, test } from 'vitest';
import { EXCEPTIONS, RULE_ID, judgementBlocks } from './support/judgements.mjs';
import { ROOT } from './support/layers.mjs';

describe("the linter's rule: a judgement is built by its section's rules", () => {
  const eslint = new ESLint({
    cwd: ROOT,
    overrideConfigFile: true,
    // Every file matched (a file no block matches is "ignored", a message of its own), then the rule's blocks alone.
    overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser } }, ...judgementBlocks()],
  });
  const complaints = async (file: string, code: string) =>
    (await eslint.lintText(code, { filePath: join(ROOT, file) }))[0].messages.map((m) => `${m.ruleId}: ${m.message}`);

  const inline = "CREATE_PET.judge('CREATE-DEFAULT-STATUS', { outcome: 'observe', title: 'observed', message: 'm' });";
  test.each([
    ['conformance/create-pet/creates-pet.spec.ts', inline, 'CREATE_PET.judge()'],
    ['conformance/x/y.spec.ts', "t.judge(ex, [RATE_LIMIT_HEADERS.judge('RL-SCOPE', init)]);", 'RATE_LIMIT_HEADERS.judge()'],
    ['conformance/x/y.spec.ts', "t.judge(ex, [judgeAny('RL-SCOPE', init)]);", 'judgeAny()'],
    ['conformance/x/y.spec.ts', "judgementOf(LIST_PETS, 'LIST-200-PETS', init);", 'judgementOf()'],
    ['src/explore/checks.ts', "const j = RESPONSES.judge('INPUT-SILENT-HANDLING', init);", 'RESPONSES.judge()'],
    ['src/checks/registry.ts', "AUTH.judge('AUTH-401', init);", 'AUTH.judge()'],
    ['load/node/engine.ts', "RATE_LIMIT_LOAD.judge('RL-429-AT-LIMIT', init);", 'RATE_LIMIT_LOAD.judge()'],
    ['reference/app.ts', "GET_PET.judge('GET-ROUND-TRIP', init);", 'GET_PET.judge()'],
  ])('%s: `%s` is refused.', async (file, code, what) => {
    const found = await complaints(file, code);
    expect(found.join('\n')).toContain(`${RULE_ID}: ${what}`);
  });

  test.each([
    ['src/core/sections/create-pet/rules.ts', inline],
    ['src/core/sections/rate-limit-headers/decrements.ts', "RATE_LIMIT_HEADERS.judge('RL-REMAINING-DECREMENTS', init);"],
    ['conformance/x/y.spec.ts', 't.judge(ex, [judgeDefaultStatus(p.ex.json)]); scenario.judge(samples);'],
    ['src/harness/context.ts', "session.record(judgeAny(requirement, { outcome: 'skip', title: 'not-judged', message: why }));"],
    ...Object.keys(EXCEPTIONS).map((file) => [file, "RATE_LIMIT_LOAD.judge(id, { outcome: 'error', title: 'unfinished', message });"]),
    ['test/harness/context.test.ts', inline],
  ])('%s: `%s` passes.', async (file, code) => {
    expect(await complaints(file, code)).toEqual([]);
  });

  test.each(Object.entries(EXCEPTIONS))('%s is excepted (%s), and still builds a judgement itself.', (file) => {
    expect(readFileSync(join(ROOT, file), 'utf8')).toMatch(/\b[A-Z][A-Z0-9_]*\.judge\(/);
  });
});
