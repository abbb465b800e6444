/**
 * RL-429-NOTHING-STORED: a createPet refused with 429 stores nothing. Where writes are allowed, the ceiling's request
 * beyond the limit is a POST of a unique name (load/lib/operations.ts), and a POST refused with 429 is read back on the
 * page of its status once its Retry-After has passed — the recovery's probe, or the ceiling's one request after it.
 * The page's facts were taken as it came (`Sample.page`: how many animals, the refused names it listed) by the one
 * read-back of refused creates every phase uses (refusedListed, ../create-pet/rules.ts). Pure (bundled for k6).
 */
import type { Judgement } from '../define.ts';
import type { JudgeOptions, Sample } from '../../sample.ts';
import { RATE_LIMIT_LOAD } from './requirements.ts';
import { about, label } from './samples.ts';
import { unorderable } from './signals.ts';

const skip = (title: 'no-refused-create' | 'unpredictable' | 'not-read-back' | 'full-page', message: string): Judgement[] => [
  RATE_LIMIT_LOAD.judge('RL-429-NOTHING-STORED', { outcome: 'skip', title, message }),
];

/** Sends a POST at the limit: writes are allowed, and the scenario does not leave it to the recovery after it. */
export const postsAtLimit = (o: JudgeOptions): boolean => !!o.writes && o.postAtLimit !== false;

/**
 * The judgement, when the scenario sent a POST at the limit: none where writes are off (production, unless allowed:
 * nothing may be created, and the question is not the scenario's) or a ceiling leaves it to the recovery after it.
 */
export function judgeRefusedNotStored(samples: readonly Sample[], o: JudgeOptions, startedAt?: number): Judgement[] {
  if (!postsAtLimit(o)) return [];
  const posts = samples.filter((s) => s.op === 'createPet' && s.phase === 'ceiling');
  const refused = posts.filter((s) => s.status === 429);
  const blind = posts.length ? unorderable(posts[0], o) : '';
  if (!refused.length && blind)
    // No Remaining to predict by, or Remaining counting the day: the POST went after the limit's successes by count, and a
    // window that turned unseen during the ceiling let it through (likely when the ceiling takes much of a window).
    return skip(
      'unpredictable',
      `the headers cannot say which request is beyond the limit (${blind}): the createPet sent after ${o.limit} successes by count was answered ${posts.map((s) => s.status || s.error || 'nothing').join(', ')} — a window turned during the ceiling`,
    );
  if (!refused.length)
    return skip(
      'no-refused-create',
      posts.length
        ? `no createPet of the ceiling was answered 429 (${posts.map((s) => `${label(s)}: ${s.status || s.error || 'no response'}`).join(', ')})`
        : 'the ceiling sent no createPet at the limit (the limit was not reached, or Remaining never said it was)',
    );
  const back = samples.filter((s) => s.phase === 'probe').pop();
  const page = back && back.page;
  if (!back || !page)
    return skip(
      'not-read-back',
      back
        ? `${label(back)}, the read-back of ${label(refused[0])}, was answered ${back.status || back.error || 'nothing'}, not a page`
        : `${label(refused[0])} was refused with 429 but not read back (the scenario stopped before its Retry-After had passed)`,
    );
  const what = `${refused.length} createPet request(s) refused with 429 (${refused.map(label).join(', ')}), read back by ${label(back)} on the page of status ${page.status}`;
  if (page.listed.length)
    return [
      about(
        RATE_LIMIT_LOAD.judge('RL-429-NOTHING-STORED', {
          ok: false,
          message: `${what}: listed ${JSON.stringify(page.listed[0])} — a request refused with 429 was stored, and a client that retries after Retry-After as told creates it twice`,
        }),
        back,
        o,
        startedAt,
      ),
    ];
  if (page.size >= page.limit)
    return skip(
      'full-page',
      `${what}: not listed, but the page held ${page.size} animals, its limit: it cannot show every animal of that status`,
    );
  return [
    RATE_LIMIT_LOAD.judge('RL-429-NOTHING-STORED', {
      ok: true,
      message: `${what}: not listed among its ${page.size} animals (fewer than the limit ${page.limit}: every animal of that status)`,
    }),
  ];
}
