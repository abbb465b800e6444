/**
 * One finding per cause, end to end: real runs of the conformance suite (simulated time) against the reference
 * server, reported by every writer. A list answering a framework's bare 500 (fault list-500-bare) breaks several
 * requirements and is one cause in the console, summary.md, index.html, junit.xml and certification.json; two
 * independent faults are two causes; the correct server has none; the verdict line counts causes and requirements;
 * a cause has the same id in another run (another seed). Hostile text in a cause is escaped and the key redacted.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import schema from '../../schemas/certification.schema.json' with { type: 'json' };
import type { FaultName } from '../../reference/faults.ts';
import { makeRedactor } from '../../src/core/redact.ts';
import { ajv } from '../../src/schemas/project-ajv.ts';
import { buildReport } from '../../src/results/aggregate.ts';
import type { Finding, RunReport } from '../../src/results/types.ts';
import { renderConsole } from '../../src/results/writers/console.ts';
import { renderHtml, renderJson, renderJunit, renderSummary, writeReports } from '../../src/results/writers/index.ts';
import { SMALL_EXPLORE_BUDGET } from '../support/explore-budget.ts';
import { HOSTILE, SECRET_KEY } from '../support/report-fixtures.ts';
import { runSuiteAgainst } from '../support/suite.ts';
import { tempDir } from '../support/temp.ts';

const validate = (ajv.getSchema(schema.$id) ?? ajv.compile(schema)) as ValidateFunction;
const BASE = 'http://127.0.0.1:4010/v1';

function reportOf(findings: readonly Finding[], requestsSent = 100): RunReport {
  return buildReport({
    kind: 'conformance',
    suiteVersion: '0.0.0',
    specSha256: '0'.repeat(64),
    target: { env: 'local', baseUrl: BASE, plan: 'business', embedded: true },
    startedAt: new Date(0),
    endedAt: new Date(1000),
    requestsSent,
    findings,
  });
}

async function runAgainst(faults: FaultName[], seed = '1'): Promise<RunReport> {
  const run = await runSuiteAgainst({ faults }, { exploreBudget: SMALL_EXPLORE_BUDGET, env: { ANIMAL_STORE_SEED: seed } });
  return reportOf(run.findings, run.requests);
}

const runs: Record<'bare' | 'two' | 'twoAgain' | 'clean', RunReport> = {} as never;
beforeAll(async () => {
  runs.bare = await runAgainst(['list-500-bare']);
  runs.two = await runAgainst(['list-500-bare', 'create-returns-200']);
  runs.twoAgain = await runAgainst(['list-500-bare', 'create-returns-200'], '2');
  runs.clean = await runAgainst([]);
}, 180_000);

const failing = (r: RunReport) => (r.causes ?? []).filter((c) => c.status === 'fail');
const count = (text: string, re: RegExp) => text.match(re)?.length ?? 0;
/** The console's cause lines: "  ✗ <title> [C-…]" (a failing cause) or "  ! …" (a cause of warnings). */
const consoleCauses = (r: RunReport) => renderConsole(r).match(/^ {2}[✗!] .* \[C-[0-9A-F]{8}\]/gm) ?? [];

describe('a list answering a bare 500 is one cause on every report format', () => {
  const BROKEN = ['RESP-STATUS-DOCUMENTED', 'RESP-CONTENT-TYPE-JSON', 'RESP-BODY-JSON', 'RL-HEADERS-PRESENT', 'LIST-200-PETS'];

  it('The report has one cause: the 500 to GET /pets, named by its status, the error page’s failures its consequences.', () => {
    const r = runs.bare;
    expect(r.causes).toHaveLength(1);
    const c = r.causes![0];
    expect(c).toMatchObject({ title: 'HTTP 500 to GET /pets', status: 'fail', signature: 'http 500 GET /pets' });
    expect(c.requirements.map((q) => q.id)).toEqual(expect.arrayContaining(BROKEN));
    expect(c.requirements[0]).toEqual({ id: 'RESP-STATUS-DOCUMENTED', level: 'MUST', status: 'fail', consequence: false });
    for (const id of BROKEN.slice(1)) expect(c.requirements.find((q) => q.id === id)?.consequence, id).toBe(true);
    expect(c.requests).toBeGreaterThan(1);
    for (const q of r.requirements.filter((x) => x.status === 'fail')) expect(q.causes, q.id).toEqual([c.id]);
  });

  it('The console shows the cause once, with every requirement it breaks, under a verdict that counts it.', () => {
    const r = runs.bare;
    const text = renderConsole(r);
    expect(consoleCauses(r)).toEqual([`  ✗ HTTP 500 to GET /pets [${r.causes![0].id}]`]);
    expect(text.split('\n')[1]).toBe(
      `  1 cause breaks ${r.counts.fail} MUST requirements and raises ${r.counts.warn} warning${r.counts.warn === 1 ? '' : 's'}.`,
    );
    const breaks = text.split('\n').find((l) => l.startsWith('      breaks '))!;
    for (const id of BROKEN) expect(breaks).toContain(id);
    expect(count(text, /^ {2}✗ /gm)).toBe(1);
  });

  it('summary.md shows it once with one reproduction; each failed MUST points to it without its own curl line.', () => {
    const r = runs.bare;
    const md = renderSummary(r);
    const id = r.causes![0].id;
    expect(md).toContain('### ❌ Causes (1)');
    expect(count(md, /^- ❌ \*\*/gm)).toBe(1);
    expect(count(md, /^ {2}```sh$/gm)).toBe(1);
    const failed = md.slice(md.indexOf('### ❌ Failed MUST requirements'));
    expect(count(failed.slice(0, failed.indexOf('\n### ', 5)), new RegExp(`— cause ${id}$`, 'gm'))).toBe(r.counts.fail);
  });

  it('index.html has one cause card listing the requirements, and each failed requirement links to it.', () => {
    const r = runs.bare;
    const page = renderHtml(r);
    const id = r.causes![0].id;
    expect(count(page, /data-testid="cause" /g)).toBe(1);
    for (const q of BROKEN) expect(page).toContain(`data-testid="cause-requirement" data-requirement="${q}"`);
    expect(count(page, new RegExp(`<a href="#cause-${id}" data-testid="cause-link">`, 'g'))).toBe(r.counts.fail + r.counts.warn);
    expect(page).toContain(`id="cause-${id}"`);
  });

  it('junit.xml keeps a testcase per requirement, each failure naming the cause, its evidence written once.', () => {
    const r = runs.bare;
    const xml = renderJunit(r);
    const id = r.causes![0].id;
    expect(count(xml, /<failure /g)).toBe(r.counts.fail);
    expect(count(xml, new RegExp(`<failure message="\\[cause ${id}\\] `, 'g'))).toBe(r.counts.fail);
    expect(xml).toContain(
      `<property name="cause.${id}" value="fail: HTTP 500 to GET /pets — breaks RESP-STATUS-DOCUMENTED (MUST); consequences: `,
    );
    expect(count(xml, /^ {2}replay: curl /gm)).toBe(1);
    expect(
      count(xml, new RegExp(`consequence of cause ${id} \\(HTTP 500 to GET /pets\\): its evidence is under RESP-STATUS-DOCUMENTED`, 'g')),
    ).toBe(r.counts.fail + r.counts.warn - 1);
  });

  it('certification.json carries the cause with a stable id and validates against its schema.', () => {
    const json = JSON.parse(renderJson(runs.bare)) as RunReport;
    expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
    expect(json.causes).toHaveLength(1);
    expect(json.causes![0].id).toMatch(/^C-[0-9A-F]{8}$/);
    expect(json.requirements.find((q) => q.id === 'LIST-200-PETS')?.findings[0].cause).toMatchObject({
      id: json.causes![0].id,
      consequence: true,
    });
  });
});

describe('two faults, no fault, another run', () => {
  it('Two independent faults are two causes on every format, and the verdict line counts both.', () => {
    const r = runs.two;
    expect(
      failing(r)
        .map((c) => c.title)
        .sort(),
    ).toEqual(['HTTP 200 to POST /pets', 'HTTP 500 to GET /pets']);
    expect(r.causes).toHaveLength(2);
    const scope = `2 causes break ${r.counts.fail} MUST requirements and raise ${r.counts.warn} warning${r.counts.warn === 1 ? '' : 's'}.`;
    expect(renderConsole(r).split('\n')[1]).toBe(`  ${scope}`);
    expect(consoleCauses(r)).toHaveLength(2);
    expect(renderSummary(r)).toContain('### ❌ Causes (2)');
    expect(renderSummary(r)).toContain(`> ${scope}`);
    expect(count(renderHtml(r), /data-testid="cause" /g)).toBe(2);
    expect(renderHtml(r)).toContain(`data-testid="scope">${scope}</p>`);
    expect(count(renderJunit(r), /<property name="cause\.C-/g)).toBe(2);
    expect(renderJunit(r)).toContain(`<property name="scope" value="${scope}"/>`);
    const json = JSON.parse(renderJson(r)) as RunReport;
    expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
    expect(json.causes).toHaveLength(2);
  });

  it('The correct server yields no cause on any format.', () => {
    const r = runs.clean;
    expect(r.outcome).not.toBe('not-conformant');
    expect(r.causes).toEqual([]);
    expect(consoleCauses(r)).toEqual([]);
    expect(renderSummary(r)).not.toContain('Causes');
    expect(renderHtml(r)).not.toContain('data-testid="causes"');
    expect(renderJunit(r)).toContain('<property name="causes" value="none"/>');
    const json = JSON.parse(renderJson(r)) as RunReport;
    expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
    expect(json.causes).toEqual([]);
  });

  it('A cause keeps its id in another run: another seed, other pets and names, the same causes.', () => {
    const key = (r: RunReport) => (r.causes ?? []).map((c) => `${c.id} ${c.title} ${c.requirements[0].id}`).sort();
    expect(key(runs.twoAgain)).toEqual(key(runs.two));
  });
});

describe('a cause’s text from a hostile server', () => {
  const dir = tempDir('causes-hostile');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const ex = {
    request: { method: 'GET', url: `${BASE}/pets?status=${HOSTILE.script}&k=${SECRET_KEY}`, headers: {}, credential: 'key' as const },
    response: { status: 500, headers: { 'x-echo': SECRET_KEY }, body: `${HOSTILE.img} ${SECRET_KEY}` },
  };
  const hostile: Finding[] = [
    {
      requirement: 'RESP-STATUS-DOCUMENTED',
      outcome: 'fail',
      title: 'Undocumented status code',
      message: `500 ${HOSTILE.cdata}`,
      source: 'status',
      evidence: ex,
    },
    {
      requirement: 'LIST-200-PETS',
      outcome: 'fail',
      title: 'Valid listPets query not answered 200',
      message: `key ${SECRET_KEY} ${HOSTILE.markdown}`,
      source: 'spec',
      evidence: ex,
      cause: { key: 'k', title: `${HOSTILE.script} ${SECRET_KEY}` },
    },
  ];

  it('Every report escapes it and no file holds the key, in any field the causes added.', () => {
    const r = reportOf(hostile);
    expect(r.causes).toHaveLength(1);
    const files = writeReports(r, dir, ['index.html', 'certification.json', 'junit.xml', 'summary.md'], makeRedactor([SECRET_KEY]));
    for (const f of files) expect(readFileSync(f, 'utf8'), f).not.toContain(SECRET_KEY);
    const page = readFileSync(join(dir, 'index.html'), 'utf8');
    expect(page).not.toContain('<script>window.__pwned');
    expect(page).not.toContain('<img src=x');
    // outside its fenced curl lines (a code block shows its text as it is, and a shell reads it quoted)
    const md = readFileSync(join(dir, 'summary.md'), 'utf8').replace(/^ {2}(`{3,})sh\n[\s\S]*?^ {2}\1$/gm, '');
    expect(md).not.toMatch(/<script|<img|@everyone/);
    const json = JSON.parse(readFileSync(join(dir, 'certification.json'), 'utf8')) as RunReport;
    expect(json.causes![0].title).toContain('[REDACTED]');
  });
});
