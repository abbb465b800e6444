import type { Linter } from 'eslint';

/** Types of layers.mjs (plain JavaScript, imported by eslint.config.js and by test/architecture.test.ts). */
export declare const ROOT: string;
export interface Layer {
  name: string;
  dir?: string;
  file?: string;
  top?: string;
}
export declare const LAYERS: Layer[];
export declare function layerOf(path: string): string | undefined;
export declare const MAY_IMPORT: Record<string, string[]>;
export declare const BUNDLED: Set<string>;
export declare function sourceFolders(tops?: string[]): Map<string, string[]>;
export declare function restrictedImports(dir: string, layer: string): { regex: string; message: string }[];
/** The ESLint configuration blocks of the layering (no-restricted-imports and no-restricted-syntax), one per folder. */
export declare function layeringBlocks(): (Linter.Config & { name: string; files: string[] })[];
