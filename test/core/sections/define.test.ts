/**
 * The one judgement constructor: the title comes from the entry (or from the titles every requirement shares), the
 * level decides fail or warn, and a rule may say a violation is only a warning whatever the level.
 */
import { describe, expect, test } from 'vitest';
import { judgeAny, REQUIREMENTS, type RequirementId } from '../../../src/core/catalogue.ts';
import { COMMON_TITLES, section } from '../../../src/core/sections/define.ts';
import { RESPONSES } from '../../../src/core/sections/responses/requirements.ts';

const TOY = section('responses', {
  'TOY-MUST': { level: 'MUST', section: 'Toy', quote: 'q', title: 'A MUST.', titles: { fail: 'Broken {what}' } },
  'TOY-SHOULD': { level: 'SHOULD', section: 'Toy', quote: 'q', title: 'A SHOULD.' },
});

describe('a section’s judge', () => {
  test.each([
    ['TOY-MUST', true, 'pass'],
    ['TOY-MUST', false, 'fail'],
    ['TOY-SHOULD', false, 'warn'],
  ] as const)('%s judged ok=%s is %s.', (id, ok, outcome) => {
    expect(TOY.judge(id, { ok, message: 'm' }).outcome).toBe(outcome);
  });

  test('A title’s placeholders are filled from args.', () => {
    expect(TOY.judge('TOY-MUST', { ok: false, args: { what: 'thing' }, message: 'm' }).title).toBe('Broken thing');
  });

  test('A violation the rule says is only a warning warns, even of a MUST.', () => {
    const j = RESPONSES.judge('RESP-CONTENT-TYPE-JSON', { outcome: 'warn', title: 'plus-json', message: 'm' });
    expect(j).toEqual({
      requirement: 'RESP-CONTENT-TYPE-JSON',
      outcome: 'warn',
      title: 'A +json type instead of application/json',
      message: 'm',
    });
  });

  test('Every requirement takes the common titles.', () => {
    expect(TOY.judge('TOY-SHOULD', { outcome: 'skip', title: 'not-judged', message: 'm', remedy: 'r' })).toEqual({
      requirement: 'TOY-SHOULD',
      outcome: 'skip',
      title: 'Could not be judged',
      message: 'm',
      remedy: 'r',
    });
    expect(TOY.judge('TOY-SHOULD', { outcome: 'skip', title: 'not-run', args: { scenario: 'ceiling' }, message: 'm' }).title).toBe(
      'Not run: ceiling',
    );
  });
});

describe('judgeAny', () => {
  test('It judges a requirement of any section through that section, with a common title.', () => {
    for (const r of REQUIREMENTS)
      expect(judgeAny(r.id, { outcome: 'error', title: 'suite-error', message: 'm' })).toEqual({
        requirement: r.id,
        outcome: 'error',
        title: COMMON_TITLES['suite-error'],
        message: 'm',
      });
  });

  test('An id of no section is a suite bug, thrown at once.', () => {
    expect(() => judgeAny('NO-SUCH-ID' as RequirementId, { outcome: 'skip', title: 'skipped', message: 'm' })).toThrow(/NO-SUCH-ID/);
  });

  test('No entry gives a common key another meaning.', () => {
    const clashes = REQUIREMENTS.flatMap((r) =>
      Object.keys(COMMON_TITLES)
        .filter((k) => r.titles?.[k] !== undefined)
        .map((k) => `${r.id}: ${k}`),
    );
    expect(clashes).toEqual([]);
  });
});
