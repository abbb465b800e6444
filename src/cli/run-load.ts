/**
 * The rate-limit half of a certification run (stub until the Node engine lands).
 */
import type { Finding } from '../results/types.ts';
import type { LoadScenario } from './profiles.ts';
import type { Target } from './run-conformance.ts';

export interface LoadOutcome {
  findings: Finding[];
  reports: unknown[];
  requests: number;
  notes: string[];
  interrupted: boolean;
  abort?: string;
}

export async function runLoad(_target: Target, scenarios: readonly LoadScenario[], _budget: number): Promise<LoadOutcome> {
  return { findings: [], reports: [], requests: 0, notes: [`load scenarios not run yet: ${scenarios.join(', ')}`], interrupted: false };
}
