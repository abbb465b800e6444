/**
 * The key is the Bearer token of the Authorization header and nothing else (issue 39): near-misses derived from the
 * configured key (the case of one letter or all, a prefix, a suffix, a truncation, more words after the token,
 * another key of its shape) are answered 401, and so is the key sent where the spec does not put it — query
 * parameters, headers and a cookie frameworks read keys from, the key as a Basic password — with no Authorization
 * header. The choices come from the run's seed. Sent to listPets alone: a read stores nothing if wrongly accepted.
 * Reports never show these tokens: the key is redacted wherever it occurs, and so is any run of half of it.
 */
import { defineSpec } from '../../src/harness/define-spec.ts';
import type { TestContext } from '../../src/harness/context.ts';
import { answered, listPets } from '../../src/harness/ops.ts';
import { judgeBadCredential, judgeKeyChannel } from '../../src/core/sections/auth/rules.ts';
import { CHANNELS, nearMissEdits, editLabel } from '../../src/http/credentials.ts';

const keyOf = (t: TestContext) => t.config.apiKey ?? 'no-key-configured';

async function nearMisses(t: TestContext) {
  // The edits, not the tokens: the client makes each from the key as it sends it (the exploration sends the same).
  await t.together(nearMissEdits(keyOf(t), t.config.explore.seed), async (edit) => {
    const ex = await t.request(listPets({}, { auth: { placed: { near: edit } } }));
    t.judge(ex, [judgeBadCredential(answered(ex), { requirement: 'AUTH-UNKNOWN-KEY-401', what: editLabel(edit) })]);
  });
}

async function channels(t: TestContext) {
  await t.together(CHANNELS, async (c) => {
    // A 400 for a query parameter listPets does not know is a refusal too (a strict server's answer).
    const ex = await t.request(listPets({}, { auth: { placed: c.placement }, alsoAcceptable: [400] }));
    t.judge(ex, [judgeKeyChannel(answered(ex), c.what, c.latitude ? 'AUTH-KEY-IN-URL' : 'AUTH-KEY-CHANNEL')]);
  });
  const ex = await t.request(listPets({}, { auth: { placed: { basic: 'password' } } }));
  t.judge(ex, [
    judgeBadCredential(answered(ex), { requirement: 'AUTH-WRONG-SCHEME-401', what: 'the key as the password of a Basic credential' }),
  ]);
}

export default defineSpec({
  operation: 'auth',
  behaviour: 'key-channels',
  tests: [
    {
      title: 'Near-misses of the configured key, derived from it by the run seed, are answered 401.',
      requirements: ['AUTH-UNKNOWN-KEY-401'],
      run: nearMisses,
    },
    {
      title: 'The key sent anywhere but the Authorization header is answered 401.',
      requirements: ['AUTH-KEY-CHANNEL', 'AUTH-KEY-IN-URL', 'AUTH-WRONG-SCHEME-401'],
      run: channels,
    },
  ],
});
