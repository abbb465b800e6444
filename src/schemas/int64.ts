/**
 * The exact int64 check of the suite's schemas, at run time: what the `x-int64` keyword of the compiled validators
 * (validators.generated.ts) calls. No Ajv here: a run imports only the validators and this.
 *
 * int64 is exact: ajv-formats' own `int64` converts to a JS number and rejects ids above 2^53, so `format: int64`
 * is an annotation that always passes (FORMATS), and every subschema carrying it also gets the `x-int64` keyword
 * (project-ajv.ts), which reads the literal text of the number kept by `parseJson` (`rawNumber`) and checks its
 * digits against the int64 range without going through a JS number.
 */
import { integerDigits, isInt64Digits, isInt64Number, rawNumber } from '../core/json.ts';

/**
 * Is the number `data`, found at JSON Pointer `pointer` inside `root`, an exact
 * int64? Judged on its literal text when `root` came from parseJson.
 */
export function isExactInt64(data: number, root: unknown, pointer: string): boolean {
  const raw = rawNumber(root, pointer);
  if (raw !== undefined) {
    const digits = integerDigits(raw);
    return digits !== undefined && isInt64Digits(digits);
  }
  return isInt64Number(data);
}

/**
 * The `x-int64` keyword on a number: undefined when it passes (an exact int64, or no integer at all — `type:
 * integer` reports those), else the number's literal text, which its error message quotes.
 */
export function int64Violation(data: number, root: unknown, pointer: string): string | undefined {
  if (!Number.isInteger(data) || isExactInt64(data, root, pointer)) return undefined;
  return rawNumber(root, pointer) ?? String(data);
}

/** The formats the schemas use: `int64` an annotation only (the range is `x-int64`'s). */
export const FORMATS = { int64: { type: 'number', validate: (): boolean => true } } as const;
