/**
 * Vitest global setup of a conformance run started directly
 * (`npx vitest run --config conformance.config.ts`): read the configuration
 * from the environment, open the target (the embedded reference server when no
 * base URL is set) and provide it to the worker. Runs started by the CLI have
 * provided it already.
 */
import type { TestProject } from 'vitest/node';
import { configFrom } from '../config/command-config.ts';
import { openTarget, type Target } from '../target/target.ts';
import { CONTEXT_KEY } from './provided.ts';

let target: Target | undefined;

export async function setup(project: TestProject) {
  if (project.getProvidedContext()[CONTEXT_KEY]) return;
  target = await openTarget(configFrom([], 'conformance'));
  project.provide(CONTEXT_KEY, { config: target.config, dayMs: target.dayMs, windowMs: target.windowMs, embedded: target.info.embedded });
}

export async function teardown() {
  await target?.close();
}
