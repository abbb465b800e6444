/**
 * One finding per cause (src/results/causes.ts), on findings written by hand: what one exchange's findings become,
 * which of them names the bug and which follow from it, what requests failing the same way become, what a producer's
 * cause key and a load scenario's request group, that ids do not depend on what differs from run to run, and that the
 * causes stay in step with the requirements (waivers, statuses set by hand) and with the run-to-run comparison.
 */
import { describe, expect, it } from 'vitest';
import type { RequirementId } from '../../src/core/catalogue.ts';
import type { Evidence } from '../../src/core/sections/define.ts';
import { buildReport, finalize } from '../../src/results/aggregate.ts';
import { groupCauses } from '../../src/results/causes.ts';
import { causeId } from '../../src/results/cause-keys.ts';
import { compare } from '../../src/results/compare.ts';
import type { CauseResult, Finding, RunReport } from '../../src/results/types.ts';
import { applyWaivers } from '../../src/results/waivers.ts';
import { causesVerdict } from '../../src/results/writers/causes.ts';
import { scopeSentence } from '../../src/results/writers/scope.ts';
import { withStatus } from '../support/report-fixtures.ts';

const BASE = 'http://127.0.0.1:4010/v1';

interface Ex {
  method?: string;
  path: string;
  status: number;
  body?: string;
  base?: string;
  date?: string;
}

/** The evidence of one exchange, as Session.record writes it (the same request and response for every finding). */
const exchange = (x: Ex, extra: Partial<Evidence> = {}): Evidence => ({
  request: {
    method: x.method ?? 'GET',
    url: `${x.base ?? BASE}${x.path}`,
    headers: { authorization: 'Bearer [REDACTED]' },
    credential: 'key',
  },
  response: { status: x.status, headers: { date: x.date ?? 'Mon, 01 Jan 2030 12:00:00 GMT' }, ...(x.body ? { body: x.body } : {}) },
  ...extra,
});

const finding = (requirement: string, title: string, o: { ex?: Ex; outcome?: Finding['outcome']; source?: string } = {}): Finding => ({
  requirement: requirement as RequirementId,
  outcome: o.outcome ?? 'fail',
  title,
  message: `${requirement}: ${title}`,
  source: o.source ?? 'spec: a test',
  ...(o.ex ? { evidence: exchange(o.ex) } : {}),
});

/** The findings a bare 500 to one list request gets: the status, the error page's consequences, the spec test's view. */
const bare500 = (path: string, o: Partial<Ex> = {}): Finding[] => {
  const ex = { path, status: 500, body: 'Internal Server Error', ...o };
  return [
    finding('RESP-STATUS-DOCUMENTED', 'Undocumented status code', { ex, source: 'status-code-conformance' }),
    finding('RESP-CONTENT-TYPE-JSON', 'Content-Type is not application/json', { ex, source: 'content-type-conformance' }),
    finding('RESP-BODY-JSON', 'Body is not JSON', { ex, source: 'json-body' }),
    finding('RL-HEADERS-PRESENT', 'Rate-limit header missing', { ex, source: 'rate-limit-headers' }),
    finding('LIST-200-PETS', 'Valid listPets query not answered 200', { ex }),
  ];
};

const only = (causes: CauseResult[]) => {
  expect(causes).toHaveLength(1);
  return causes[0];
};
const ids = (c: CauseResult) => c.requirements.map((q) => q.id);
const consequences = (c: CauseResult) => c.requirements.filter((q) => q.consequence).map((q) => q.id);

describe('grouping one run’s findings by cause', () => {
  it('The findings of one exchange answered 500 are one cause, named by the status, the rest its consequences.', () => {
    const c = only(groupCauses(bare500('/pets?limit=5')).causes);
    expect(c.title).toBe('HTTP 500 to GET /pets?limit=5');
    expect(c.signature).toBe('http 500 GET /pets');
    expect(c.primary.requirement).toBe('RESP-STATUS-DOCUMENTED');
    expect(ids(c)[0]).toBe('RESP-STATUS-DOCUMENTED');
    expect(consequences(c).sort()).toEqual(['LIST-200-PETS', 'RESP-BODY-JSON', 'RESP-CONTENT-TYPE-JSON', 'RL-HEADERS-PRESENT']);
    expect(c).toMatchObject({ status: 'fail', requests: 1, findings: 5 });
  });

  it('Requests to the same operation answered the same status are one cause that counts them and names the others.', () => {
    const c = only(groupCauses([...bare500('/pets?limit=5'), ...bare500('/pets'), ...bare500('/pets?status=sold')]).causes);
    expect(c.title).toBe('HTTP 500 to GET /pets');
    expect(c.requests).toBe(3);
    expect(c.seenOn).toEqual(['GET /pets?limit=5', 'GET /pets?status=sold']);
  });

  it('Two independent faults are two causes: a 500 to listPets, and a 200 where createPet must answer 201.', () => {
    const created = { method: 'POST', path: '/pets', status: 200, body: '{"id":1}' };
    const { causes } = groupCauses([
      ...bare500('/pets'),
      finding('RESP-STATUS-DOCUMENTED', 'Undocumented status code', { ex: created, source: 'status-code-conformance' }),
      finding('CREATE-201-PET', 'Valid NewPet not answered 201', { ex: created }),
    ]);
    expect(causes.map((c) => c.title)).toEqual(['HTTP 500 to GET /pets', 'HTTP 200 to POST /pets']);
    expect(ids(causes[1])).toEqual(['RESP-STATUS-DOCUMENTED', 'CREATE-201-PET']);
  });

  it('A property of every response found on a request a spec test failed is a cause of its own (one cause, one bug).', () => {
    const ex = { path: '/pets?limit=1', status: 200, body: '[{},{}]' };
    const { causes } = groupCauses([
      finding('LIST-LIMIT-HONOURED', 'Page larger than the limit', { ex }),
      finding('RESP-CONTENT-TYPE-JSON', 'Content-Type is not application/json', { ex, source: 'content-type-conformance' }),
      finding('DEPRECATION-SIGNALLED', 'No deprecation signal', { ex, outcome: 'warn', source: 'deprecation' }),
    ]);
    expect(causes.map((c) => `${c.status} ${ids(c).join(' ')}`).sort()).toEqual([
      'fail LIST-LIMIT-HONOURED',
      'fail RESP-CONTENT-TYPE-JSON',
      'warn DEPRECATION-SIGNALLED',
    ]);
  });

  it('A schema violation names its cause; what a spec test found on the same response follows from it.', () => {
    const ex = { method: 'POST', path: '/pets', status: 201, body: '{"id":"12"}' };
    const c = only(
      groupCauses([finding('GET-ROUND-TRIP', 'Pet read back differs', { ex }), finding('SCHEMA-PET', 'Body does not match', { ex })])
        .causes,
    );
    expect(ids(c)).toEqual(['SCHEMA-PET', 'GET-ROUND-TRIP']);
    expect(consequences(c)).toEqual(['GET-ROUND-TRIP']);
  });

  it('A producer’s cause key groups a stored-state sequence, its title names it, and what it marks a consequence is one.', () => {
    const cause = { key: 'POST /pets name:1.5', title: 'POST /pets with a numeric name' };
    const { causes, findings } = groupCauses([
      { ...finding('CREATE-400-WRONG-TYPE', 'Invalid body accepted', { ex: { method: 'POST', path: '/pets', status: 201 } }), cause },
      {
        ...finding('LIST-ROUND-TRIP', 'Name read back differs', { ex: { path: '/pets', status: 200 } }),
        cause: { ...cause, consequence: true },
      },
      {
        ...finding('GET-ROUND-TRIP', 'Name read back differs', { ex: { path: '/pets/7', status: 200 } }),
        cause: { ...cause, consequence: true },
      },
    ]);
    const c = only(causes);
    expect(c.title).toBe('POST /pets with a numeric name');
    expect(ids(c)).toEqual(['CREATE-400-WRONG-TYPE', 'GET-ROUND-TRIP', 'LIST-ROUND-TRIP']);
    expect(consequences(c)).toEqual(['GET-ROUND-TRIP', 'LIST-ROUND-TRIP']);
    expect(findings.map((f) => f.cause)).toEqual([
      { ...cause, id: c.id, title: c.title, consequence: false },
      { ...cause, id: c.id, title: c.title, consequence: true },
      { ...cause, id: c.id, title: c.title, consequence: true },
    ]);
  });

  it('A load scenario’s findings about one request are one cause; apart, each requirement is its own; plans alike are one.', () => {
    const at =
      (request: number, source = 'load: ceiling (free, node engine)') =>
      (requirement: string, title: string) => ({
        ...finding(requirement, title, { ex: { path: '/pets?limit=1', status: 429 }, source }),
        evidence: exchange({ path: '/pets?limit=1', status: 429 }, { at: { request, ms: 5000 } }),
      });
    const { causes } = groupCauses([
      at(51)('RL-NOT-EARLY', 'Throttled before the limit'),
      at(51)('RL-CEILING-429', '429 not when predicted'),
      at(51, 'load: ceiling (pro, node engine)')('RL-NOT-EARLY', 'Throttled before the limit'),
      at(80)('RL-429-RETRY-AFTER', 'No Retry-After'),
    ]);
    expect(causes.map(ids)).toEqual([['RL-NOT-EARLY', 'RL-CEILING-429'], ['RL-429-RETRY-AFTER']]);
    expect(causes[0]).toMatchObject({ title: 'Throttled before the limit (the ceiling scenario)', requests: 2 });
    expect(consequences(causes[0])).toEqual([]);
  });

  it('Passes, skips, observations and suite errors are no cause; every failure and warning carries its cause’s id.', () => {
    const all = [...bare500('/pets'), { ...finding('LIST-DEFAULT-LIMIT', 'Default page within 20'), outcome: 'pass' as const }];
    const { causes, findings } = groupCauses(all);
    expect(findings[5].cause).toBeUndefined();
    expect(findings.slice(0, 5).every((f) => f.cause?.id === causes[0].id)).toBe(true);
    expect(groupCauses(all.map((f) => ({ ...f, outcome: 'pass' }))).causes).toEqual([]);
  });
});

describe('the ids of causes', () => {
  it('Do not depend on what differs from run to run: the base URL, its port, the Date, the order of the findings.', () => {
    const one = groupCauses([...bare500('/pets?limit=5'), ...bare500('/pets?limit=1')]).causes.map((c) => c.id);
    const other = groupCauses([
      ...bare500('/pets?limit=1', { base: 'http://127.0.0.1:61234/v1', date: 'Tue, 02 Jan 2030 08:00:00 GMT' }),
      ...bare500('/pets?limit=20', { base: 'http://127.0.0.1:61234/v1' }),
    ]).causes.map((c) => c.id);
    expect(other).toEqual(one);
    expect(one).toEqual([causeId('http 500 GET /pets')]);
    expect(one[0]).toMatch(/^C-[0-9A-F]{8}$/);
  });

  it('Differ when the failure differs: another status, another operation, another requirement or title.', () => {
    const sigs = ['http 500 GET /pets', 'http 503 GET /pets', 'http 500 GET /pets/{petId}', 'LIST-200-PETS · a', 'LIST-200-PETS · b'];
    expect(new Set(sigs.map(causeId)).size).toBe(sigs.length);
  });
});

/** A report built by the real pipeline from these findings. */
const reportOf = (findings: Finding[]): RunReport =>
  buildReport({
    kind: 'certification',
    suiteVersion: '0.1.0',
    specSha256: 'x'.repeat(64),
    target: { env: 'local', baseUrl: BASE, embedded: true },
    startedAt: new Date('2030-01-01T12:00:00Z'),
    endedAt: new Date('2030-01-01T12:01:00Z'),
    requestsSent: 10,
    findings,
  });

describe('the causes of a report', () => {
  const warning = finding('LIST-LIMIT-FILLS-PAGE', 'Short page', { outcome: 'warn', ex: { path: '/pets?limit=20', status: 200 } });
  const created = { method: 'POST', path: '/pets', status: 200 };
  const r = reportOf([
    ...bare500('/pets'),
    finding('RESP-STATUS-DOCUMENTED', 'Undocumented status code', { ex: created }),
    finding('CREATE-201-PET', 'Valid NewPet not answered 201', { ex: created }),
    warning,
  ]);

  it('Every failed or warned requirement names its causes, and the verdict counts causes and requirements.', () => {
    for (const q of r.requirements.filter((x) => x.status === 'fail' || x.status === 'warn'))
      expect(q.causes?.length, q.id).toBeGreaterThan(0);
    expect(r.requirements.find((q) => q.id === 'RESP-STATUS-DOCUMENTED')?.causes).toHaveLength(2);
    expect(r.counts.fail).toBe(6);
    expect(causesVerdict(r)).toBe('2 causes break 6 MUST requirements; 1 cause raises 1 warning');
    expect(scopeSentence(r)).toBe('2 causes break 6 MUST requirements; 1 cause raises 1 warning.');
  });

  it('A waiver works per requirement: the cause shows it waived, and a cause whose every requirement is waived is waived.', () => {
    const waived = applyWaivers(r, [{ id: 'LIST-LIMIT-FILLS-PAGE', reason: 'known', expires: '2099-01-01' }], {
      now: new Date('2030-01-01'),
    });
    const c = waived.causes!.find((x) => x.requirements.some((q) => q.id === 'LIST-LIMIT-FILLS-PAGE'))!;
    expect(c.status).toBe('waived');
    expect(c.requirements[0].status).toBe('waived');
    expect(causesVerdict(waived)).toBe('2 causes break 6 MUST requirements');
  });

  it('A requirement failed by hand (no finding) gets a cause of its own; one set to pass leaves its cause.', () => {
    const byHand = withStatus(r, ['AUTH-VALID-KEY-ACCEPTED'], 'fail');
    const c = byHand.causes!.find((x) => x.requirements.some((q) => q.id === 'AUTH-VALID-KEY-ACCEPTED'))!;
    expect(c.requirements).toEqual([{ id: 'AUTH-VALID-KEY-ACCEPTED', level: 'MUST', status: 'fail', consequence: false }]);
    const passed = withStatus(r, ['LIST-LIMIT-FILLS-PAGE'], 'pass');
    expect(passed.causes!.some((x) => x.requirements.some((q) => q.id === 'LIST-LIMIT-FILLS-PAGE'))).toBe(false);
    expect(finalize(finalize(r)).causes).toEqual(r.causes);
  });

  it('A correct run has no cause, and its verdict counts none.', () => {
    const clean = reportOf([{ ...finding('LIST-200-PETS', 'Valid query answered 200'), outcome: 'pass' }]);
    expect(clean.causes).toEqual([]);
    expect(causesVerdict(clean)).toBeUndefined();
  });

  it('The comparison with an earlier report says which causes are new and which are fixed, by their stable ids.', () => {
    const earlier = reportOf([
      ...bare500('/pets'),
      finding('GET-404-UNKNOWN', 'Unknown id not answered 404', { ex: { path: '/pets/9', status: 200 } }),
    ]);
    const statuses = Object.fromEntries(earlier.requirements.map((q) => [q.id, q.status]));
    const now = { ...r, requirements: r.requirements.map((q) => (q.id === 'GET-404-UNKNOWN' ? { ...q, status: 'pass' as const } : q)) };
    const past = { file: 'runs/1/certification.json', startedAt: earlier.startedAt, outcome: earlier.outcome, statuses };
    const k = compare(now, [
      { ...past, causes: earlier.causes!.map((c) => ({ id: c.id, title: c.title, requirements: c.requirements.map((q) => q.id) })) },
    ]);
    expect(k?.newCauses?.map((c) => c.title)).toEqual(['HTTP 200 to POST /pets', 'Short page (GET /pets?limit=20)']);
    expect(k?.fixedCauses?.map((c) => c.title)).toEqual(['Unknown id not answered 404 (GET /pets/9)']);
    expect(compare(now, [past])?.newCauses).toBeUndefined();
  });
});
