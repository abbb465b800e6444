/**
 * README's GitLab CI job, as far as this machine can check it (no GitLab runner here): it parses as YAML, its
 * script is README's shell recipe (run for real by package.test.ts), its image is a Node the suite runs on, it keeps
 * the reports and the JUnit results even when the certification fails, and it holds no key (a masked CI/CD variable).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from '../support/cli.ts';
import { readmeBlock } from '../support/readme-blocks.ts';

interface GitlabJob {
  image: string;
  variables?: Record<string, string>;
  script: string[];
  artifacts: { when: string; paths: string[]; reports: { junit: string } };
}

describe("README's GitLab CI job", () => {
  const jobs = parse(readmeBlock('GitLab CI', 'yaml'), { strict: true, uniqueKeys: true }) as Record<string, GitlabJob>;
  const job = jobs.certify;

  it("Its script is README's shell recipe, line for line.", () => {
    const recipe = readmeBlock('Any runner with Node (a shell recipe)', 'sh').trim().split('\n');
    expect(job.script).toEqual(recipe);
  });

  it('Its image is a Node release the suite runs on.', () => {
    const engines = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
    const major = Number(/^node:(\d+)/.exec(job.image)?.[1]);
    expect(major).toBeGreaterThanOrEqual(Number(/(\d+)/.exec(engines)?.[1]));
  });

  it('It keeps the reports and publishes the JUnit results even when the certification fails.', () => {
    expect(job.artifacts).toEqual({ when: 'always', paths: ['reports/'], reports: { junit: 'reports/junit.xml' } });
  });

  it('It gives the address and the plan, and no key: that one is a masked variable of the project.', () => {
    expect(Object.keys(job.variables ?? {}).sort()).toEqual(['ANIMAL_STORE_BASE_URL', 'ANIMAL_STORE_PLAN']);
    expect(JSON.stringify(jobs)).not.toMatch(/API_KEY|sk_|as_demo/);
  });
});
