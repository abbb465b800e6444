/**
 * Where a judgement of a requirement is built (CONTRIBUTING.md, "Add a rule"): by its section's rules, in
 * src/core/sections/<section>/, never inline where the facts are gathered (a spec file, a check, the exploration, a
 * load engine). eslint.config.js runs the rule below on the suite's code; test/judgements.test.ts proves what it
 * refuses and what it lets pass. Plain JavaScript, as the ESLint configuration that imports it (types: judgements.d.mts).
 * - `SECTION.judge(…)` (a section's constant, `CREATE_PET`, `RATE_LIMIT_HEADERS`…) anywhere but src/core/sections and
 *   the files of EXCEPTIONS, each named with its reason;
 * - in a spec file (conformance/), also the generic constructors (`judgeAny`, `judgementOf`,
 *   `judgeScenarioRequirement`): a spec file gathers facts and calls a rule, nothing else builds a judgement there.
 */

/** The files outside src/core/sections that build a judgement themselves, and why (none of them judges the server). */
export const EXCEPTIONS = {
  'src/core/scenarios.ts':
    'judgeScenarioRequirement: the one constructor of a requirement named only at run time (what k6 metrics carry), as catalogue.ts judgeAny',
  'load/k6/runtime.ts': "a scenario k6 stopped before it finished: a suite error of its own ('unfinished'), no verdict on the server",
  'load/lib/merge.ts': "shares that carry no request: a suite error ('no-request'), no verdict on the server",
  'load/node/k6.ts': "k6 exited without a report: a suite error ('no-report'), no verdict on the server",
};

const SECTION_CONSTANT = /^[A-Z][A-Z0-9_]*$/;
const GENERIC = new Set(['judgeAny', 'judgementOf', 'judgeScenarioRequirement']);

/** The rule: `SECTION.judge(…)` refused; with `{ generic: true }`, the generic constructors too. */
const rule = {
  meta: {
    type: 'problem',
    docs: { description: "a requirement's judgement is built by its section's rules (src/core/sections/<section>/rules.ts)" },
    schema: [{ type: 'object', properties: { generic: { type: 'boolean' } }, additionalProperties: false }],
    messages: {
      section:
        "{{name}}.judge() builds a judgement inline: call a rule of the section's rules.ts (src/core/sections/<section>/), one that gathers nothing and decides (CONTRIBUTING.md, 'Add a rule').",
      generic:
        "{{name}}() builds a judgement inline in a spec file: call a rule of the section's rules.ts (src/core/sections/<section>/) instead.",
    },
  },
  create(context) {
    const generic = context.options[0]?.generic === true;
    return {
      CallExpression(node) {
        const c = node.callee;
        if (c.type === 'MemberExpression' && !c.computed && c.property.name === 'judge' && c.object.type === 'Identifier') {
          if (SECTION_CONSTANT.test(c.object.name)) context.report({ node, messageId: 'section', data: { name: c.object.name } });
        } else if (generic && c.type === 'Identifier' && GENERIC.has(c.name))
          context.report({ node, messageId: 'generic', data: { name: c.name } });
      },
    };
  },
};

export const RULE_ID = 'animal-store/judgements-in-sections';

/** The ESLint configuration blocks: the rule on the suite's code (not its self-tests, which build judgements as fixtures). */
export function judgementBlocks() {
  const plugins = { 'animal-store': { rules: { 'judgements-in-sections': rule } } };
  return [
    {
      name: 'animal-store/judgements-in-sections',
      files: ['**/*.{ts,mts}'],
      ignores: ['src/core/sections/**', 'test/**', ...Object.keys(EXCEPTIONS)],
      plugins,
      rules: { [RULE_ID]: 'error' },
    },
    {
      name: 'animal-store/judgements-in-spec-files',
      files: ['conformance/**/*.ts'],
      plugins,
      rules: { [RULE_ID]: ['error', { generic: true }] },
    },
  ];
}
