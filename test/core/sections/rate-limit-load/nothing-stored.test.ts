/**
 * RL-429-NOTHING-STORED (src/core/sections/rate-limit-load/nothing-stored.ts): a createPet refused with 429 and listed on
 * the page read back fails; absent from a page that lists every animal of its status passes; what cannot show it is
 * not judged, saying why; with writes off, or a ceiling that leaves its POST to the recovery, there is no judgement.
 */
import { describe, expect, it } from 'vitest';
import type { PageFacts, Sample } from '../../../../src/core/sample.ts';
import { judgeRefusedNotStored } from '../../../../src/core/sections/rate-limit-load/nothing-stored.ts';
import { sampleEvidence } from '../../../../src/core/sections/rate-limit-load/samples.ts';
import { o as base, rl, s, T0 } from '../../../support/samples.ts';

const o = { ...base, writes: true };
const post = (status: number): Sample => ({ ...s(10, T0 + 100, status, rl(0)), op: 'createPet', name: 'p-load-x' });
const back = (page: PageFacts | undefined, status = 200): Sample => ({
  ...s(11, T0 + 61_000, status, rl(9)),
  phase: 'probe',
  ...(page ? { page } : {}),
});
const page = (size: number, listed: string[] = []): PageFacts => ({ status: 'sold', size, limit: 100, listed });

describe('judgeRefusedNotStored', () => {
  it.each([
    ['listed on the page read back', [post(429), back(page(12, ['p-load-x']))], 'fail', 'A createPet refused with 429 was stored anyway'],
    ['absent from a page of fewer than 100', [post(429), back(page(12))], 'pass', 'A createPet refused with 429 stored nothing'],
    ['absent from a full page', [post(429), back(page(100))], 'skip', 'Not judged: the page of its status is full'],
    ['the read-back refused', [post(429), back(undefined, 429)], 'skip', 'The refused createPet was not read back'],
    ['no read-back', [post(429)], 'skip', 'The refused createPet was not read back'],
    ['the POST at the limit created', [post(201)], 'skip', 'No createPet refused with 429'],
    ['no POST at the limit', [s(0, T0, 200, rl(9))], 'skip', 'No createPet refused with 429'],
  ])('%s → %s', (_name, samples, outcome, title) => {
    const [j] = judgeRefusedNotStored(samples, o);
    expect([j.outcome, j.title]).toEqual([outcome, title]);
  });

  it('The evidence of a sample shows its own request: the POST with its body, the read-back page.', () => {
    const url = 'https://api.example/v1/pets?limit=1';
    const body = '{"name":"p-load-x","categoryId":1,"status":"sold"}';
    const ev = (x: Sample) => sampleEvidence(x, { requestUrl: url }).request;
    expect(ev({ ...post(429), path: '/pets', requestBody: body })).toMatchObject({
      method: 'POST',
      url: 'https://api.example/v1/pets',
      body,
    });
    expect(ev({ ...back(page(12)), path: '/pets?status=sold&limit=100' })).toMatchObject({
      method: 'GET',
      url: 'https://api.example/v1/pets?status=sold&limit=100',
    });
    expect(ev(s(0, T0, 200, rl(9)))).toMatchObject({ method: 'GET', url });
  });

  it.each([
    ['writes off', { ...o, writes: false }],
    ['left to the recovery', { ...o, postAtLimit: false }],
  ])('%s: no judgement', (_name, opts) => {
    expect(judgeRefusedNotStored([post(429), back(page(12, ['p-load-x']))], opts)).toEqual([]);
  });
});
