/**
 * Test support for the distributed path's manifests: every Kubernetes manifest the project ships (YAML code blocks
 * of its Markdown, YAML files), the suite's own transcription of the k6-operator's TestRun schema
 * (load/k6-operator/testrun.schema.json), the real CRD's openAPIV3Schema read from a git directory of
 * grafana/k6-operator when one is on the machine (K6_OPERATOR_GIT), that schema as a JSON Schema, and the drift
 * between the transcription and it.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import Ajv2020Module from 'ajv/dist/2020.js';
import { parse, parseAllDocuments } from 'yaml';
import { ROOT } from './cli.ts';

const Ajv2020 = Ajv2020Module as unknown as typeof Ajv2020Module.default;

export type Node = Record<string, any>;

export interface Manifest {
  /** Where it is: the file and, for a Markdown code block, its first line. */
  where: string;
  doc: Node;
}

export const TRANSCRIBED_FILE = join(ROOT, 'load', 'k6-operator', 'testrun.schema.json');
export const transcribed = (): Node => JSON.parse(readFileSync(TRANSCRIBED_FILE, 'utf8'));

/** Folders no shipped manifest lives in: dependencies, outputs, and the workflows (checked by their own test). */
const SKIP = new Set(['node_modules', '.git', 'reports', 'dist', 'workflows']);

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.isDirectory()) return SKIP.has(e.name) ? [] : files(join(dir, e.name));
    return /\.(md|ya?ml)$/.test(e.name) ? [join(dir, e.name)] : [];
  });
}

/** The YAML of a file: the whole file, or each ```yaml block of a Markdown file, with the line it starts on. */
function yamlOf(file: string): { line: number; text: string }[] {
  const text = readFileSync(file, 'utf8');
  if (!file.endsWith('.md')) return [{ line: 1, text }];
  const out: { line: number; text: string }[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!/^\s*```ya?ml\s*$/.test(lines[i])) continue;
    const end = lines.findIndex((l, j) => j > i && /^\s*```\s*$/.test(l));
    out.push({ line: i + 2, text: lines.slice(i + 1, end).join('\n') });
    i = end;
  }
  return out;
}

/** Every Kubernetes manifest (a YAML document with apiVersion and kind) the repository ships. */
export function shippedManifests(root = ROOT): Manifest[] {
  return files(root).flatMap((file) =>
    yamlOf(file).flatMap(({ line, text }) =>
      parseAllDocuments(text)
        .map((d) => d.toJS() as unknown)
        .filter((d): d is Node => !!d && typeof d === 'object' && 'apiVersion' in d && 'kind' in d)
        .map((doc) => ({ where: `${relative(root, file)}:${line}`, doc })),
    ),
  );
}

/** A validator of the schema, with Ajv's messages (JSON Pointer and message) for the test's failure text; not strict for a CRD, whose schema was not written for Ajv's strict mode. */
export function validatorOf(schema: Node, strict = true): (doc: unknown) => string[] {
  const ajv = new Ajv2020({ allErrors: true, strict, validateFormats: false });
  ajv.addVocabulary(['x-k6-operator']);
  const validate = ajv.compile(schema);
  return (doc) =>
    validate(doc) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
}

/** The variable naming a git directory of grafana/k6-operator (the search tool's fetch gives one). */
export const OPERATOR_GIT = 'K6_OPERATOR_GIT';
/** The release to read (a tag or commit); the transcription's own by default. */
export const OPERATOR_REF = 'K6_OPERATOR_REF';

/** The CRD of TestRun at a release of a git directory of grafana/k6-operator. */
export function crdAt(gitDir: string, ref: string, file: string): Node {
  const text = execFileSync('git', ['--git-dir', gitDir, 'show', `${ref}:${file}`], { encoding: 'utf8', maxBuffer: 64 << 20 });
  return parse(text) as Node;
}

/** The served version's openAPIV3Schema, and the apiVersion and kind a manifest of it carries. */
export function servedSchema(crd: Node): { apiVersion: string; kind: string; schema: Node } {
  const served = (crd.spec.versions as Node[]).filter((v) => v.served && v.storage);
  if (served.length !== 1) throw new Error(`expected one served storage version, found ${served.length}`);
  return { apiVersion: `${crd.spec.group}/${served[0].name}`, kind: crd.spec.names.kind, schema: served[0].schema.openAPIV3Schema };
}

/**
 * A structural schema of Kubernetes as a JSON Schema, strict as the API server is: a typed object takes no field
 * it does not list (unless x-kubernetes-preserve-unknown-fields), int-or-string takes either, int32 its range.
 */
export function asJsonSchema(node: Node): Node {
  const out: Node = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'properties') out.properties = Object.fromEntries(Object.entries(v as Node).map(([p, s]) => [p, asJsonSchema(s as Node)]));
    else if (k === 'items' || k === 'additionalProperties') out[k] = typeof v === 'object' ? asJsonSchema(v as Node) : v;
    else if (!k.startsWith('x-kubernetes-') && k !== 'format' && k !== 'nullable') out[k] = v;
  }
  if (node['x-kubernetes-int-or-string']) {
    delete out.type;
    out.anyOf = [{ type: 'integer' }, { type: 'string' }];
  }
  if (node.nullable && typeof out.type === 'string') out.type = [out.type, 'null'];
  if (node.format === 'int32') Object.assign(out, { minimum: -(2 ** 31), maximum: 2 ** 31 - 1 });
  if (node.properties && !node['x-kubernetes-preserve-unknown-fields'] && node.additionalProperties === undefined)
    out.additionalProperties = false;
  return out;
}

/** Where the transcription says something the CRD does not, for the fields it transcribes. */
export function drift(mine: Node, crd: Node, at = ''): string[] {
  const here = at || '/';
  const out: string[] = [];
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  if (crd.type !== undefined && mine.type !== crd.type) out.push(`${here}: type ${mine.type}, the CRD's ${crd.type}`);
  if (mine.format !== undefined && mine.format !== crd.format) out.push(`${here}: format ${mine.format}, the CRD's ${crd.format}`);
  if ((mine.enum || crd.enum) && !same(mine.enum, crd.enum))
    out.push(`${here}: enum ${mine.enum ?? 'none'}, the CRD's ${crd.enum ?? 'none'}`);
  if (mine.items) out.push(...(crd.items ? drift(mine.items, crd.items, `${at}/items`) : [`${at}/items: the CRD has no items`]));
  if (!crd.properties) return out; // free-form in the CRD (metadata): what the transcription asks more is Kubernetes'
  const required = (n: Node) => [...((n.required as string[]) ?? [])].sort();
  if (!same(required(mine), required(crd))) out.push(`${here}: required ${required(mine).join(',')}, the CRD's ${required(crd).join(',')}`);
  const open = !!crd['x-kubernetes-preserve-unknown-fields'];
  if ((mine.additionalProperties === false) === open)
    out.push(`${here}: additionalProperties ${mine.additionalProperties}, the CRD ${open ? 'keeps' : 'prunes'} unknown fields`);
  for (const [name, s] of Object.entries((mine.properties as Node) ?? {})) {
    const theirs = (crd.properties as Node)[name];
    if (!theirs) out.push(`${at}/${name}: not a field of the CRD`);
    else out.push(...drift(s as Node, theirs as Node, `${at}/${name}`));
  }
  return out;
}

/** The drift of the whole transcription: apiVersion and kind against the CRD's, then spec and metadata field by field. */
export function transcriptionDrift(mine: Node, crd: Node): string[] {
  const served = servedSchema(crd);
  const out: string[] = [];
  if (mine.properties.apiVersion.const !== served.apiVersion)
    out.push(`/apiVersion: ${mine.properties.apiVersion.const}, the CRD's ${served.apiVersion}`);
  if (mine.properties.kind.const !== served.kind) out.push(`/kind: ${mine.properties.kind.const}, the CRD's ${served.kind}`);
  for (const k of ['metadata', 'spec'])
    out.push(
      ...(served.schema.properties[k] ? drift(mine.properties[k], served.schema.properties[k], `/${k}`) : [`/${k}: not in the CRD`]),
    );
  return out;
}
