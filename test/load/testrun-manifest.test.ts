/**
 * The distributed path's manifests are checked, not described: every Kubernetes manifest the project ships (the
 * TestRun of load/README.md) validates against the suite's transcription of the k6-operator's TestRun schema
 * (load/k6-operator/testrun.schema.json), and a field renamed, mistyped or left out fails it. With a git directory
 * of grafana/k6-operator on the machine (K6_OPERATOR_GIT; K6_OPERATOR_REF picks another release than the
 * transcription's), the manifests are validated against the real CRD's openAPIV3Schema as well, and the
 * transcription is compared with it field by field.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/cli.ts';
import {
  asJsonSchema,
  crdAt,
  drift,
  type Node,
  OPERATOR_GIT,
  OPERATOR_REF,
  servedSchema,
  shippedManifests,
  transcribed,
  transcriptionDrift,
  validatorOf,
} from '../support/k6-operator.ts';

const schema = transcribed();
const source = schema['x-k6-operator'] as { repository: string; release: string; commit: string; file: string; checked: string };
const validate = validatorOf(schema);
const manifests = shippedManifests();
const testRun = () => structuredClone(manifests.find((m) => m.doc.kind === 'TestRun')!.doc);

/** Rename the last key of a dotted path (array items by index), keeping its value. */
function renamed(doc: Node, path: string, to: string): Node {
  const keys = path.split('.');
  const last = keys.pop()!;
  const parent = keys.reduce<Node>((n, k) => n[k], doc);
  parent[to] = parent[last];
  delete parent[last];
  return doc;
}

function set(doc: Node, path: string, value: unknown): Node {
  const keys = path.split('.');
  const last = keys.pop()!;
  const parent = keys.reduce<Node>((n, k) => n[k], doc);
  if (value === undefined) delete parent[last];
  else parent[last] = value;
  return doc;
}

describe('the manifests the project ships', () => {
  it('The TestRun of load/README.md is found among them, and every one is a TestRun of k6.io/v1alpha1 (another kind has no schema here yet).', () => {
    expect(manifests.map((m) => m.where)).toContainEqual(expect.stringMatching(/^load\/README\.md:\d+$/));
    for (const m of manifests) expect([m.where, m.doc.apiVersion, m.doc.kind]).toEqual([m.where, 'k6.io/v1alpha1', 'TestRun']);
  });

  it('Each validates against the transcription of the TestRun schema.', () => {
    for (const m of manifests) expect(validate(m.doc), m.where).toEqual([]);
  });

  const broken: [string, (d: Node) => Node, RegExp][] = [
    [
      'spec.parallelism renamed',
      (d) => renamed(d, 'spec.parallelism', 'instances'),
      /additional properties.*instances|required.*parallelism/,
    ],
    ['spec.script.configMap.file renamed', (d) => renamed(d, 'spec.script.configMap.file', 'filename'), /additional properties.*filename/],
    ['a runner volume mount path renamed', (d) => renamed(d, 'spec.runner.volumeMounts.0.mountPath', 'path'), /required.*mountPath/],
    [
      'a key reference renamed',
      (d) => renamed(d, 'spec.runner.env.4.valueFrom.secretKeyRef', 'secretRef'),
      /additional properties.*secretRef/,
    ],
    ['spec.runner renamed to runners', (d) => renamed(d, 'spec.runner', 'runners'), /additional properties.*runners/],
    ['parallelism written as a string', (d) => set(d, 'spec.parallelism', '4'), /\/spec\/parallelism must be integer/],
    ['an env value that is a number', (d) => set(d, 'spec.runner.env.1.value', 1), /\/spec\/runner\/env\/1\/value must be string/],
    ['the script left out', (d) => set(d, 'spec.script', undefined), /required.*script/],
    ['another apiVersion', (d) => set(d, 'apiVersion', 'k6.io/v1'), /\/apiVersion must be equal to constant/],
  ];
  it.each(broken)('A TestRun with %s fails the transcription.', (_name, breakIt, message) => {
    expect(validate(testRun())).toEqual([]);
    const problems = validate(breakIt(testRun()));
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.join('\n')).toMatch(message);
  });

  it('The transcription names the operator release, commit, file and date it was checked against, and load/README.md names the same release.', () => {
    expect(source).toEqual({
      repository: 'grafana/k6-operator',
      release: expect.stringMatching(/^v\d+\.\d+\.\d+$/),
      commit: expect.stringMatching(/^[0-9a-f]{40}$/),
      file: 'config/crd/bases/k6.io_testruns.yaml',
      path: 'spec.versions[name=v1alpha1].schema.openAPIV3Schema',
      checked: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    const readme = readFileSync(join(ROOT, 'load', 'README.md'), 'utf8');
    expect(readme).toContain(`k6-operator ${source.release}`);
    expect(readme).toContain('load/k6-operator/testrun.schema.json');
  });
});

describe('the drift check between the transcription and a CRD schema', () => {
  // the transcription's spec stands in for the CRD's here: the check must see every kind of difference
  const crd = schema.properties.spec as Node;
  const cases: [string, (s: Node) => void, RegExp][] = [
    ['a field the CRD lacks', (s) => renamed(s, 'properties.parallelism', 'instances'), /\/instances: not a field of the CRD/],
    ['another type', (s) => set(s, 'properties.arguments.type', 'array'), /\/arguments: type array, the CRD's string/],
    ['a required field left out', (s) => set(s, 'required', ['script']), /required script, the CRD's parallelism,script/],
    [
      'unknown fields let through',
      (s) => set(s, 'properties.runner.additionalProperties', undefined),
      /\/runner: additionalProperties undefined/,
    ],
    ['an enum the CRD does not have', (s) => set(s, 'properties.arguments.enum', ['--quiet']), /\/arguments: enum --quiet, the CRD's none/],
    [
      'a required field deep down',
      (s) => set(s, 'properties.runner.properties.volumeMounts.items.required', ['name']),
      /volumeMounts\/items: required name/,
    ],
  ];
  it('The transcription has no drift from itself.', () => {
    expect(drift(crd, crd)).toEqual([]);
  });
  it.each(cases)('It reports %s.', (_name, change, message) => {
    const mine = structuredClone(crd);
    change(mine);
    expect(drift(mine, crd).join('\n')).toMatch(message);
  });
});

const gitDir = process.env[OPERATOR_GIT];
const ref = process.env[OPERATOR_REF] || source.release;
const reason = `(skipped unless ${OPERATOR_GIT} names a git directory of grafana/k6-operator, e.g. the search tool's fetch of it)`;

describe.skipIf(!gitDir)(`the real CRD of the k6-operator ${reason}`, () => {
  const crd = () => {
    expect(existsSync(gitDir!), `${OPERATOR_GIT}=${gitDir} does not exist`).toBe(true);
    return crdAt(gitDir!, ref, source.file);
  };

  it(`Every shipped manifest validates against the openAPIV3Schema of ${source.file} at the release (${OPERATOR_REF}, else the transcription's).`, () => {
    const served = servedSchema(crd());
    const real = validatorOf(asJsonSchema(served.schema), false);
    for (const m of manifests) {
      expect([m.doc.apiVersion, m.doc.kind], m.where).toEqual([served.apiVersion, served.kind]);
      expect(real(m.doc), m.where).toEqual([]);
    }
    expect(real(renamed(testRun(), 'spec.parallelism', 'instances')).join('\n')).toMatch(/additional properties|required/);
  });

  it('The transcription has not drifted from the real CRD for the fields it transcribes.', () => {
    expect(transcriptionDrift(schema, crd())).toEqual([]);
  });
});
