/**
 * Pure parts of the response checks: the Remaining-decrement verdict and the
 * deprecation headers (Sunset on 5 December 2030 in any time zone, RFC 9745 dates, Link rels).
 */
import { describe, expect, test } from 'vitest';
import { judgeDecrements } from '../../src/core/sections/rate-limit-headers/decrements.ts';
import { deprecationCheck, linksWithRel } from '../../src/checks/deprecation.ts';
import { RESPONSE_CHECKS } from '../../src/checks/registry.ts';
import type { ApiExchange } from '../../src/http/client.ts';
import type { Outcome } from '../../src/results/types.ts';

describe('Remaining decrements', () => {
  test.each([
    [
      'falls by one each time',
      [
        [10, 9],
        [9, 8],
        [8, 7],
      ],
      true,
    ],
    [
      'rolls over then falls',
      [
        [1, 0],
        [0, 59],
        [59, 58],
      ],
      true,
    ],
    [
      'a sliding window releases one request',
      [
        [10, 9],
        [9, 9],
        [9, 8],
      ],
      true,
    ],
    [
      'never falls',
      [
        [60, 60],
        [60, 60],
        [60, 60],
      ],
      false,
    ],
    [
      'falls by two',
      [
        [10, 8],
        [8, 6],
      ],
      false,
    ],
    [
      'falls by one but sometimes more (another client on the key)',
      [
        [10, 9],
        [9, 6],
        [6, 5],
      ],
      true,
    ],
  ])('A sequence that %s is judged ok=%s.', (_what, pairs, ok) => {
    expect(judgeDecrements(pairs.map(([from, to]) => ({ from, to }))).ok).toBe(ok);
  });
});

function judge(headers: Record<string, string>, status = 200): Record<string, Outcome> {
  const out: Record<string, Outcome> = {};
  const ex = {
    api: { operation: 'getPet' },
    request: { method: 'GET', url: 'http://x/v1/pets/1' },
    response: { status, headers, bodyText: '{}', bodyBytes: 2, truncated: false },
    startedAt: 0,
    durationMs: 1,
  } as unknown as ApiExchange;
  deprecationCheck.run({
    ex,
    session: { limits: { plan: 'free' }, dayMs: 86_400_000 },
    report: (j) => void (out[j.requirement] = j.outcome),
  });
  return out;
}

describe('deprecation headers', () => {
  test.each([
    ['Thu, 05 Dec 2030 00:00:00 GMT', 'pass'],
    ['Wed, 04 Dec 2030 23:00:00 GMT', 'pass'],
    ['Fri, 05 Dec 2031 00:00:00 GMT', 'fail'],
    ['2030-12-05', 'fail'],
  ])('Sunset %j is judged %s.', (sunset, outcome) => {
    expect(judge({ sunset })['DEPRECATION-SUNSET-DATE']).toBe(outcome);
  });

  test('A Deprecation in RFC 9745 form passes; the withdrawn boolean form warns; no signal at all warns (both SHOULDs).', () => {
    expect(judge({ deprecation: '@1735689600' })['DEPRECATION-HEADER-VALID']).toBe('pass');
    expect(judge({ deprecation: 'true' })['DEPRECATION-HEADER-VALID']).toBe('warn');
    expect(judge({})['DEPRECATION-SIGNALLED']).toBe('warn');
    expect(judge({ link: '<https://d.example>; rel="deprecation"' })['DEPRECATION-SIGNALLED']).toBe('pass');
    // RFC 8594 also defines the sunset link relation.
    expect(judge({ link: '<https://d.example/sunset>; rel="sunset"' })['DEPRECATION-SIGNALLED']).toBe('pass');
  });

  test('A Deprecation date after the Sunset warns (a SHOULD).', () => {
    expect(judge({ deprecation: '@1955000000', sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' })['DEPRECATION-BEFORE-SUNSET']).toBe('warn');
  });

  test('Link rels are found among several links and several rel tokens.', () => {
    const link =
      '<https://a/v1/pets?status=available>; rel="successor-version", <https://d>; rel="alternate deprecation"; type="text/html"';
    expect(linksWithRel(link, 'deprecation')).toEqual(['https://d']);
    expect(linksWithRel(link, 'successor-version')).toEqual(['https://a/v1/pets?status=available']);
  });

  const quoted: [string, string, string[], string[]][] = [
    [
      'a comma and a semicolon inside a quoted title',
      '<https://d/doc>; title="old, gone; see v2"; rel="deprecation", <https://a/v2>; rel="successor-version"',
      ['https://d/doc'],
      ['https://a/v2'],
    ],
    [
      'a quoted parameter that looks like another link',
      '<https://a/v2>; rel="successor-version"; title="x, <https://evil>; rel=deprecation"',
      [],
      ['https://a/v2'],
    ],
    ['a comma in the target', '<https://d/doc?a=1,2>;rel=deprecation', ['https://d/doc?a=1,2'], []],
    ['a rel in capitals', '<https://d/doc>; REL="Deprecation"', ['https://d/doc'], []],
    ['a header that does not parse', 'not a link header', [], []],
  ];
  test.each(quoted)('Link is parsed by RFC 8288 with %s.', (_name, link, deprecation, successor) => {
    expect(linksWithRel(link, 'deprecation')).toEqual(deprecation);
    expect(linksWithRel(link, 'successor-version')).toEqual(successor);
  });
});

describe('Error.status', () => {
  function statusFindings(status: number, body: unknown): Record<string, Outcome> {
    const out: Record<string, Outcome> = {};
    const bodyText = JSON.stringify(body);
    const ex = {
      api: { operation: 'listPets' },
      request: { method: 'GET', url: 'http://x/v1/pets' },
      response: { status, headers: { 'content-type': 'application/json' }, bodyText, bodyBytes: bodyText.length, truncated: false },
      json: body,
      startedAt: 0,
      durationMs: 1,
    } as unknown as ApiExchange;
    const check = RESPONSE_CHECKS.find((c) => c.name === 'error-status-field')!;
    check.run({
      ex,
      session: { limits: { plan: 'free' } } as never,
      report: (j) => void (out[j.requirement] = j.outcome),
    });
    return out;
  }

  test.each([
    [401, { code: 'u', message: 'm', status: 401 }, 'ERROR-STATUS-FIELD', 'pass'],
    [401, { code: 'u', message: 'm', status: 400 }, 'ERROR-STATUS-FIELD', 'fail'],
    [429, { error: 'rate_limited', status: 'Too Many Requests' }, 'RL-429-ERROR-BODY', undefined],
    [500, { code: 'x', message: 'm', status: 200 }, 'ERROR-STATUS-FIELD', undefined],
  ])(
    'A %s body %j is judged on %s as %s (the 429 body is not shown: the core 429 rule judges it, not this check).',
    (status, body, req, outcome) => {
      const out = statusFindings(status, body);
      expect(out[req]).toBe(outcome);
      if (status === 429) expect(out['ERROR-STATUS-FIELD']).toBeUndefined();
    },
  );
});

describe('Content-Type', () => {
  function contentTypeOutcome(ct: string | undefined, status = 200): Outcome | undefined {
    let out: Outcome | undefined;
    const ex = {
      api: { operation: 'listPets' },
      request: { method: 'GET', url: 'http://x/v1/pets' },
      response: { status, headers: ct === undefined ? {} : { 'content-type': ct }, bodyText: '[]', bodyBytes: 2, truncated: false },
      json: [],
      startedAt: 0,
      durationMs: 1,
    } as unknown as ApiExchange;
    RESPONSE_CHECKS.find((c) => c.name === 'content-type-conformance')!.run({
      ex,
      session: { limits: { plan: 'free' } } as never,
      report: (j) => void (out = j.outcome),
    });
    return out;
  }

  test.each([
    ['application/json', 'pass'],
    ['application/json; charset=utf-8', 'pass'],
    ['Application/JSON;charset=UTF-8', 'pass'],
    ['application/problem+json', 'warn'],
    ['application/vnd.animal-store.v1+json; charset=utf-8', 'warn'],
    ['text/plain; charset=utf-8', 'fail'],
    ['application/jsonp', 'fail'],
    ['application/+json', 'fail'],
    ['text/json', 'fail'],
    [undefined, 'fail'],
  ])('%j is judged %s (a +json type is JSON, RFC 6839, but not the application/json the spec names).', (ct, outcome) => {
    expect(contentTypeOutcome(ct, 404)).toBe(outcome);
  });
});

describe('A request retried after its whole Retry-After', () => {
  function retried(auth: unknown, status: number, remaining = '0'): Outcome | undefined {
    let out: Outcome | undefined;
    const ex = {
      api: { operation: 'createPet', ...(auth === undefined ? {} : { auth }) },
      request: { method: 'POST', url: 'http://x/v1/pets' },
      response: { status, headers: { 'x-ratelimit-remaining': remaining }, bodyText: '{}', bodyBytes: 2, truncated: false },
      afterRetryAfter: { retryAfter: '1', waitedMs: 1300 },
      startedAt: 0,
      durationMs: 1,
    } as unknown as ApiExchange;
    RESPONSE_CHECKS.find((c) => c.name === 'retry-after-honoured')!.run({
      ex,
      session: { limits: { plan: 'free' } } as never,
      report: (j) => void (out = j.outcome),
    });
    return out;
  }

  test.each([
    ['the run’s key', undefined, 429, 'fail'],
    ['the run’s key spelled bearer', { spelled: 'bearer {key}' }, 429, 'fail'],
    ['no key (a limit per client address, shared)', 'none', 429, 'skip'],
    ['a made-up credential', { authorization: 'Basic eA==' }, 429, 'skip'],
    ['no key, served', 'none', 401, 'pass'],
  ])('with %s, answered %s again, is judged %s (RL-RECOVERY).', (_what, auth, status, outcome) => {
    expect(retried(auth, status)).toBe(outcome);
  });

  test('Without a key, a 429 that says requests remain (X-RateLimit-Remaining 59) is no spent limit: still failed.', () => {
    expect(retried('none', 429, '59')).toBe('fail');
  });
});
