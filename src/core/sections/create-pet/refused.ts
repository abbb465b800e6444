/**
 * The read-back of refused creates, one definition for every phase that looks for them: the exploration's stateful
 * part (src/explore/readback.ts: CREATE-400-NOTHING-STORED) and the rate-limit scenarios' POST at the limit
 * (load/lib/operations.ts: RL-429-NOTHING-STORED). Pure (bundled for k6: nothing else of the section's rules comes with it).
 */
import type { JsonValue } from '../../json.ts';

/** The names among `refused` (each refused create's unique name) that the animals of a page of the list carry, in the page's order. */
export function refusedListed(page: readonly JsonValue[], refused: readonly string[]): string[] {
  const names = new Set(refused);
  const out: string[] = [];
  for (const item of page) {
    const name = item !== null && typeof item === 'object' && !Array.isArray(item) ? item.name : undefined;
    if (typeof name === 'string' && names.has(name)) out.push(name);
  }
  return out;
}
