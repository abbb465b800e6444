/**
 * Every method on every path of the API (issue 39): no method is served without a valid key — HEAD (served as GET
 * by most frameworks, and so by verb tampering), the other RFC 9110 methods and an extension token — and a method a
 * path does not take, sent with the key, is refused: a 405 with Allow (RFC 9110 §15.5.6), or a router's 404.
 *
 * Safety: the methods that could write (POST, PUT, PATCH, DELETE) go only to an id no server issued, and without a
 * valid key unless writes are allowed; the collection gets the safe methods and the extension alone, so a server that
 * wrongly serves them can lose nothing (no DELETE /pets, ever). CONNECT is not sent: it asks for a tunnel, not a
 * resource (RFC 9110 §9.3.6), and HTTP clients refuse to send it as a request.
 */
import { defineSpec } from '../../src/harness/define-spec.ts';
import type { TestContext } from '../../src/harness/context.ts';
import type { ApiRequest, Credential } from '../../src/http/client.ts';
import { headGetAnswer, methodAnswer, notTakenAnswer, UNKNOWN_ID } from '../../src/harness/ops.ts';
import { judgeMethodWithoutKey } from '../../src/core/sections/auth/rules.ts';
import { judgeMethodNotTaken } from '../../src/core/sections/responses/rules.ts';
import { judgeHeadAsGet } from '../../src/core/sections/responses/head.ts';
import { documentedAt, EXTENSION_METHOD, otherMethodsAt, pathOf } from '../../src/core/methods.ts';

export { EXTENSION_METHOD };

interface Target {
  path: string;
  operation: 'listPets' | 'getPet';
  /** What the spec documents for this path. */
  documented: readonly string[];
  /** The methods sent to it besides the documented ones. */
  methods: readonly string[];
}

const ITEM = `/pets/${UNKNOWN_ID}`;
const TARGETS: readonly Target[] = (['listPets', 'getPet'] as const).map((operation) => ({
  path: operation === 'getPet' ? ITEM : pathOf(operation),
  operation,
  documented: documentedAt(pathOf(operation)),
  methods: otherMethodsAt(pathOf(operation)),
}));

const request = (t: Target, method: string, auth: Credential, harmless: string): ApiRequest => ({
  operation: t.operation,
  method,
  path: t.path,
  auth,
  offSpec: true,
  harmless,
});

/** A wrong key of the configured key's shape (its last character changed). */
const wrongKey = (k: string): Credential => ({ authorization: `Bearer ${k.slice(0, -1)}${k.endsWith('x') ? 'y' : 'x'}` });

async function withoutKey(t: TestContext) {
  // Independent requests: in flight together (one after another, in this order, on a fast server).
  await t.together(
    TARGETS.flatMap((target) => target.methods.map((method) => ({ target, method }))),
    async ({ target, method }) => {
      const ex = await t.request(request(target, method, 'none', 'no credential: a server that serves it fails the run'));
      t.judge(ex, [judgeMethodWithoutKey(methodAnswer(ex), 'without a key')]);
    },
  );
  // A wrong key, on the method most often left out of the check (HEAD) and the one that would destroy (DELETE).
  const wrong = [
    [TARGETS[0], 'HEAD'],
    [TARGETS[1], 'DELETE'],
  ] as const;
  await t.together(wrong, async ([target, method]) => {
    const ex = await t.request(request(target, method, wrongKey(t.config.apiKey ?? 'no-key'), 'an invalid key'));
    t.judge(ex, [judgeMethodWithoutKey(methodAnswer(ex), 'with a wrong key')]);
  });
}

/**
 * With the key: the extension on both paths and DELETE of an id no server issued (nothing to delete) always; POST,
 * PUT and PATCH of that id only when writes are allowed (a server may create what it does not find).
 */
const withKeyMethods = (target: Target, writes: boolean) =>
  target.methods.filter(
    (m) => m === EXTENSION_METHOD || (target.path === ITEM && (m === 'DELETE' || (writes && !['HEAD', 'OPTIONS', 'TRACE'].includes(m)))),
  );

async function withKey(t: TestContext) {
  const sent = TARGETS.flatMap((target) => withKeyMethods(target, t.config.allowWrites).map((method) => ({ target, method })));
  await t.together(sent, async ({ target, method }) => {
    const ex = await t.request(request(target, method, 'valid', 'a safe extension method, an id no server issued, or writes are on'));
    t.judge(ex, judgeMethodNotTaken(notTakenAnswer(ex, target.documented)));
  });
}

/**
 * HEAD with the key, beside GET of the same target: a page, and an id no server issued (GET answers 404). HEAD may be
 * refused (the spec shows GET only); served, it answers as GET would (RFC 9110 §9.3.2).
 */
async function headAsGet(t: TestContext) {
  const targets = [
    { operation: 'listPets' as const, path: pathOf('listPets'), query: { limit: '1' } },
    { operation: 'getPet' as const, path: ITEM },
  ];
  await t.together(targets, async ({ operation, path, query }) => {
    const ask = (method: string) =>
      t.request({
        operation,
        method,
        path,
        ...(query ? { query } : {}),
        auth: 'valid',
        ...(method === 'HEAD' ? { offSpec: true, harmless: 'HEAD is safe' } : {}),
      });
    const head = await ask('HEAD');
    const get = await ask('GET');
    t.judge(head, judgeHeadAsGet(path, 'with the key', headGetAnswer(head), headGetAnswer(get)));
  });
}

export default defineSpec({
  operation: 'auth',
  behaviour: 'every-method',
  tests: [
    {
      title: 'No method on any path is served without a valid key: HEAD, OPTIONS, TRACE, POST, PUT, PATCH, DELETE and an extension.',
      requirements: ['AUTH-EVERY-METHOD'],
      run: withoutKey,
    },
    {
      title: 'A method a path does not take, sent with the key, is answered 405 with Allow (or 404), never served.',
      requirements: ['METHOD-405-ALLOW', 'METHOD-405-DETAILS'],
      run: withKey,
    },
    {
      title: 'HEAD, where served, answers as GET would: never served where GET of the same target is refused.',
      requirements: ['METHOD-HEAD-AS-GET'],
      run: headAsGet,
    },
  ],
});
