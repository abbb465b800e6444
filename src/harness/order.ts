/**
 * The run order of spec files: by path, the exploration phase (generated
 * inputs) last — it spends what budget the specs left. Shared by the in-process
 * runner and the Vitest sequencer.
 */
export const EXPLORATION_DIR = 'exploration';

const late = (p: string) => (p.split(/[\\/]/).includes(EXPLORATION_DIR) ? 1 : 0);

export function specOrder(a: string, b: string): number {
  return late(a) - late(b) || (a < b ? -1 : a > b ? 1 : 0);
}
