/** The types of bin/build.mjs, for the TypeScript that imports it (the tests and benchmarks that start commands). */
export declare const ROOT: string;
/** The commands run from the build, as their source paths (`src/cli/main.ts`…). */
export declare const ENTRIES: readonly string[];
export declare function sourceFiles(root?: string): string[];
export declare function sourceKey(root?: string): string;
export declare function ensureBuilt(root?: string): Promise<string>;
export declare function builtPath(dir: string, source: string): string;
/** The arguments of `node` that run a command of the suite: from its build (bin/run.mjs), else under tsx. */
export declare function nodeArgs(entry: string, root?: string): string[];
