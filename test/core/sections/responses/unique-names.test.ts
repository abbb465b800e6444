/** RESP-JSON-UNIQUE-NAMES (RFC 8259 §4): a body whose object holds a member name twice warns (a SHOULD), by name and place. */
import { describe, expect, test } from 'vitest';
import { parseJson } from '../../../../src/core/json.ts';
import { judgeUniqueNames } from '../../../../src/core/sections/responses/rules.ts';

describe('judgeUniqueNames', () => {
  test.each([
    ['no object', '[1,"a",null]', 'pass', undefined],
    ['unique names', '[{"id":1,"status":"sold"},{"id":2,"status":"sold"}]', 'pass', undefined],
    ['a name twice at the root', '{"code":"x","code":"y","status":400}', 'warn', '"code" at the root'],
    ['in an array item', '[{"id":1},{"id":2,"status":"a","status":"b"}]', 'warn', '"status" at /1'],
    ['two names', '{"a":{"b":1,"b":2},"c":1,"c":2}', 'warn', '"b" at /a; "c" at the root'],
    ['three times in one object: one place', '{"a":1,"a":2,"a":3}', 'warn', '"a" at the root'],
    [
      'in every item of a page: three places shown',
      `[${Array.from({ length: 5 }, (_, i) => `{"status":"available","id":${i},"status":"sold"}`).join(',')}]`,
      'warn',
      '"status" at /0, /1, /2 and 2 more objects',
    ],
  ])('%s: %s', (_, text, outcome, actual) => {
    const j = judgeUniqueNames(200, parseJson(text).duplicates);
    expect(j.requirement).toBe('RESP-JSON-UNIQUE-NAMES');
    expect(j.outcome).toBe(outcome);
    expect(j.title).toBe(outcome === 'pass' ? 'Member names unique in every object' : 'Member name repeated in a JSON object');
    expect(j.evidence?.actual).toBe(actual);
  });
});
