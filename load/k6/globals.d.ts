/** Globals the shared core may feature-test for under k6 (declared only for the k6 type-check). */
declare function btoa(data: string): string;
/** k6 provides a console (its log output). */
declare const console: { log(...args: unknown[]): void; warn(...args: unknown[]): void };
