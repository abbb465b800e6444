import type { Linter } from 'eslint';

/** Types of judgements.mjs (plain JavaScript, imported by eslint.config.js and by test/judgements.test.ts). */
export declare const EXCEPTIONS: Record<string, string>;
export declare const RULE_ID: string;
/** The ESLint configuration blocks of the rule: a judgement is built by its section's rules. */
export declare function judgementBlocks(): (Linter.Config & { name: string; files: string[] })[];
