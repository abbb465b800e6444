import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { applyWaivers, loadWaivers, parseWaivers, WaiverError, type Waiver } from '../../src/results/waivers.ts';
import type { RunReport, Status } from '../../src/results/types.ts';
import { certifiedReport, failingReport, NOW, withStatus } from '../support/report-fixtures.ts';
import { tempDir } from '../support/temp.ts';

const dir = tempDir('waivers');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('loadWaivers', () => {
  it('The checked-in waivers.json is valid.', () => {
    expect(Array.isArray(loadWaivers(join(import.meta.dirname, '../../waivers.json')))).toBe(true);
  });

  it('A valid file is parsed.', () => {
    const path = join(dir, 'ok.json');
    writeFileSync(path, JSON.stringify([{ id: 'LIST-LIMIT-FILLS-PAGE', reason: 'pagination rework', expires: '2025-12-31' }]));
    expect(loadWaivers(path)).toEqual([{ id: 'LIST-LIMIT-FILLS-PAGE', reason: 'pagination rework', expires: '2025-12-31' }]);
  });

  const invalid: [string, string, RegExp][] = [
    ['not JSON', '[{', /not valid JSON/],
    ['not an array', '{}', /expected a JSON array/],
    ['an entry that is not an object', '["x"]', /\[0\]: expected an object/],
    ['an unknown requirement id', '[{"id":"NOPE","reason":"r","expires":"2025-12-31"}]', /unknown requirement id "NOPE"/],
    [
      'a duplicate id',
      '[{"id":"VERSION-BASE-PATH","reason":"r","expires":"2025-12-31"},{"id":"VERSION-BASE-PATH","reason":"r","expires":"2025-12-31"}]',
      /\[1\]: duplicate waiver for VERSION-BASE-PATH/,
    ],
    ['an empty reason', '[{"id":"VERSION-BASE-PATH","reason":" ","expires":"2025-12-31"}]', /reason must be a non-empty string/],
    ['an impossible date', '[{"id":"VERSION-BASE-PATH","reason":"r","expires":"2025-02-30"}]', /expires must be a date YYYY-MM-DD/],
    ['a date in another format', '[{"id":"VERSION-BASE-PATH","reason":"r","expires":"31.12.2025"}]', /expires must be a date/],
    ['a misspelt field', '[{"id":"VERSION-BASE-PATH","reason":"r","expiry":"2025-12-31"}]', /unknown field\(s\) expiry/],
  ];
  it.each(invalid)('A file with %s is rejected.', (_name, text, message) => {
    expect(() => parseWaivers(text)).toThrow(WaiverError);
    expect(() => parseWaivers(text)).toThrow(message);
  });

  it('A missing file is an error naming the path.', () => {
    expect(() => loadWaivers(join(dir, 'missing.json'))).toThrow(/Cannot read waivers file .*missing.json: ENOENT/);
  });
});

const w = (id: string, expires = '2025-12-31', reason = 'known gap'): Waiver => ({ id, reason, expires });
const statusOf = (r: RunReport, id: string) => r.requirements.find((q) => q.id === id)!.status;

describe('applyWaivers', () => {
  const cases: [string, string, Waiver, boolean, Status, RegExp | undefined][] = [
    [
      'a failing MUST with --allow-must-waivers is waived',
      'SCHEMA-PET',
      w('SCHEMA-PET'),
      true,
      'waived',
      /MUST waivers allowed \(--allow-must-waivers\): 1 MUST requirement waived/,
    ],
    [
      'a failing MUST without --allow-must-waivers stays failed',
      'SCHEMA-PET',
      w('SCHEMA-PET'),
      false,
      'fail',
      /Waiver for SCHEMA-PET ignored: MUST requirements can be waived only with --allow-must-waivers/,
    ],
    ['a SHOULD warning is waived without the flag', 'LIST-LIMIT-FILLS-PAGE', w('LIST-LIMIT-FILLS-PAGE'), false, 'waived', undefined],
    [
      'an expired waiver leaves the failure',
      'LIST-LIMIT-FILLS-PAGE',
      w('LIST-LIMIT-FILLS-PAGE', '2025-05-31'),
      false,
      'warn',
      /Waiver for LIST-LIMIT-FILLS-PAGE expired on 2025-05-31; the warning counts again/,
    ],
    [
      'a waiver is still valid on its expiry day',
      'LIST-LIMIT-FILLS-PAGE',
      w('LIST-LIMIT-FILLS-PAGE', '2025-06-01'),
      false,
      'waived',
      /expires on 2025-06-01 \(today\)/,
    ],
    [
      'a waiver close to expiry adds a reminder',
      'LIST-LIMIT-FILLS-PAGE',
      w('LIST-LIMIT-FILLS-PAGE', '2025-06-08'),
      false,
      'waived',
      /expires on 2025-06-08 \(in 7 days\)/,
    ],
    [
      'a waiver of a passing requirement is reported as unused',
      'VERSION-BASE-PATH',
      w('VERSION-BASE-PATH'),
      false,
      'pass',
      /Waiver for VERSION-BASE-PATH is unused/,
    ],
    ['a waiver of a skipped requirement changes nothing', 'CREATE-ID-UNIQUE', w('CREATE-ID-UNIQUE'), true, 'skip', undefined],
  ];
  it.for(cases)('With one waiver, %s.', ([, id, waiver, allowMustWaivers, status, note]) => {
    const out = applyWaivers(failingReport(), [waiver], { now: NOW, allowMustWaivers });
    expect(statusOf(out, id)).toBe(status);
    if (status === 'waived')
      expect(out.requirements.find((q) => q.id === id)!.waiver).toEqual({ reason: waiver.reason, expires: waiver.expires });
    if (note) expect(out.notes.join('\n')).toMatch(note);
  });

  it('Waiving every failed MUST (with the flag) leaves the run incomplete, never certified, and recomputes the counts.', () => {
    const r = failingReport();
    const ids = r.requirements.filter((q) => q.level === 'MUST' && q.status === 'fail').map((q) => q.id);
    const out = applyWaivers(
      r,
      ids.map((id) => w(id)),
      { now: NOW, allowMustWaivers: true },
    );
    expect(out.outcome).toBe('incomplete');
    expect(out.counts).toEqual({ ...r.counts, fail: 0, waived: r.counts.waived + ids.length });
  });

  it('An expired waiver of a failed MUST keeps the run not conformant.', () => {
    const r = withStatus(certifiedReport(), ['SCHEMA-PET'], 'fail');
    const out = applyWaivers(r, [w('SCHEMA-PET', '2025-01-01')], { now: NOW, allowMustWaivers: true });
    expect(out.outcome).toBe('not-conformant');
  });

  it('An aborted run is never certified, whatever is waived.', () => {
    const r = { ...certifiedReport(), abort: 'deadline exceeded' };
    expect(applyWaivers(r, [], { now: NOW }).outcome).toBe('incomplete');
  });

  it('The input report is not modified, and applying twice changes nothing more.', () => {
    const r = failingReport();
    const before = JSON.stringify(r);
    const once = applyWaivers(r, [w('LIST-LIMIT-FILLS-PAGE')], { now: NOW });
    expect(JSON.stringify(r)).toBe(before);
    const twice = applyWaivers(once, [w('LIST-LIMIT-FILLS-PAGE')], { now: NOW });
    expect(twice.requirements).toEqual(once.requirements);
    expect(twice.counts).toEqual(once.counts);
  });

  it('Without --allow-must-waivers the report carries no MUST-waivers note.', () => {
    expect(applyWaivers(failingReport(), [], { now: NOW }).notes.join('\n')).not.toMatch(/MUST waivers allowed/);
  });
});
