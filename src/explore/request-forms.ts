/**
 * What no schema lists, as forms of the same tagged union (surface.ts, issue 39): the **method** — every RFC 9110
 * method and an extension token on every path — and the **credential** — near-misses derived from the configured key
 * (an edit of it: the case of a letter or all, a prefix, a cut, a suffix, more words after the token, another key of
 * its shape) and the key placed where the spec does not put it (query parameters, headers and a cookie frameworks
 * read keys from, the Basic scheme), each from src/core/credentials.ts, whose edits the spec file sends too. A form
 * keeps the edit, never the key: the client makes the wire from the key as the request leaves.
 *
 * Classes: a method the path does not take is invalid (405 with Allow, METHOD-405-ALLOW); HEAD and OPTIONS are
 * refusable (served as GET and with Allow, or refused); a near-miss or another place of the key is invalid (401);
 * the key in access_token is latitude (RFC 6750 §2.3: accepted warns). checks.ts judges them (judgeRequestForms).
 *
 * Safety, as the spec file: a method that could write goes only to an id no server issued (probe.ts: applyMethod),
 * never to the collection, and with the key only when writes are allowed; a method is combined with no credential or
 * another key of the key's shape only — a near-miss is judged with the operation's own method, where its requirement
 * is the one a 2xx breaks.
 */
import fc from 'fast-check';
import {
  ACCESS_TOKEN,
  CHANNELS,
  isAccessToken,
  KEY_HEADERS,
  KEY_QUERY_PARAMS,
  nearMissEdits,
  placementLabel,
  type KeyEdit,
  type KeyPlacement,
} from '../core/credentials.ts';
import { documentedAt, isSafeMethod, otherMethodsAt, pathOf } from '../core/methods.ts';
import { UNKNOWN_ID } from '../harness/ops.ts';
import { plainArb, requestArb } from './drafts.ts';
import { NO_CREDENTIALS } from './header-forms.ts';
import { operation } from './model.ts';
import type { Draft, Probe } from './probe.ts';
import { queryFormArb } from './query-forms.ts';
import type { Form } from './surface.ts';
import { affordable, coverageReserve } from './coverage.ts';
import type { Explorer } from './explorer.ts';

/** The operations whose paths the method forms go to: the collection (listPets) and one animal (getPet). */
const METHOD_OPS = ['listPets', 'getPet'] as const;
type MethodOp = (typeof METHOD_OPS)[number];

/** A method on an operation's path, classed by RFC 9110. */
export function methodForm(method: string): Form {
  const base = { kind: 'method' as const, id: 'method', method, label: `method ${method}` };
  if (method === 'HEAD') return { ...base, cls: 'refusable', source: 'RFC 9110 §9.3.2 (HEAD: GET without content; or 405 with Allow)' };
  if (method === 'OPTIONS') return { ...base, cls: 'refusable', source: 'RFC 9110 §9.3.7 (OPTIONS: the methods it allows)' };
  return {
    ...base,
    cls: 'invalid',
    source: 'RFC 9110 §15.5.6 (405: the origin server MUST generate Allow)',
    requirement: 'METHOD-405-ALLOW',
  };
}

/** The key edited or placed elsewhere, classed by the spec (401) and RFC 6750 (access_token: latitude). */
export function credentialForm(credential: KeyPlacement): Form {
  const base = { kind: 'credential' as const, id: 'credential', credential, label: placementLabel(credential) };
  if (isAccessToken(credential))
    return { ...base, cls: 'latitude', source: 'RFC 6750 §2.3 (the access_token query parameter)', requirement: 'AUTH-KEY-IN-URL' };
  if ('near' in credential)
    return {
      ...base,
      cls: 'invalid',
      source: 'the spec (Authentication: an invalid key is answered 401)',
      requirement: 'AUTH-UNKNOWN-KEY-401',
    };
  if ('basic' in credential)
    return { ...base, cls: 'invalid', source: 'the spec (the Bearer scheme), RFC 7617', requirement: 'AUTH-WRONG-SCHEME-401' };
  return { ...base, cls: 'invalid', source: 'the spec (the key in the Authorization header)', requirement: 'AUTH-KEY-CHANNEL' };
}

/** Another key of the key's shape: the wrong key a method is sent with. */
export const OTHER_KEY: Form = credentialForm({ near: { edit: 'shape', seed: 1 } });

/**
 * An edit of the key, from its grammar: each shrinks towards the smallest of its kind (one letter, one character), and
 * across kinds towards the case of the first letter (a failure that the smallest edit shows too ends on it).
 */
export const keyEditArb: fc.Arbitrary<KeyEdit> = fc.oneof(
  { withCrossShrink: true },
  fc.nat({ max: 63 }).map((at): KeyEdit => ({ edit: 'case', at })),
  fc.integer({ min: 1, max: 8 }).map((n): KeyEdit => ({ edit: 'cut', n })),
  fc.stringMatching(/^[a-z0-9]{1,4}$/).map((text): KeyEdit => ({ edit: 'suffix', text })),
  fc.array(fc.stringMatching(/^[A-Za-z0-9]{1,8}$/), { minLength: 1, maxLength: 3 }).map((words): KeyEdit => ({ edit: 'words', words })),
  fc.integer({ min: 8, max: 64 }).map((n): KeyEdit => ({ edit: 'prefix', n })),
  fc.constant<KeyEdit>({ edit: 'case-all' }),
  fc.nat().map((seed): KeyEdit => ({ edit: 'shape', seed })),
);

/** A wrong credential: an edit of the key, or the key in other query parameters, headers, access_token, a Basic credential. */
export const placementArb: fc.Arbitrary<KeyPlacement> = fc.oneof(
  { weight: 4, arbitrary: keyEditArb.map((near): KeyPlacement => ({ near })) },
  { weight: 1, arbitrary: fc.subarray([...KEY_QUERY_PARAMS], { minLength: 1 }).map((query): KeyPlacement => ({ query })) },
  { weight: 1, arbitrary: fc.subarray([...KEY_HEADERS], { minLength: 1 }).map((headers): KeyPlacement => ({ headers })) },
  { weight: 1, arbitrary: fc.constant<KeyPlacement>({ query: [ACCESS_TOKEN] }) },
  { weight: 1, arbitrary: fc.constantFrom<'user' | 'password'>('user', 'password').map((basic): KeyPlacement => ({ basic })) },
);

/** Limits a page refuses (400: out of 1..100, not an integer): what HEAD with the key may be sent with, beside GET. */
const REFUSED_LIMITS = ['0', '101', '-1', 'abc'] as const;

/**
 * The plain request of an operation a method goes with: its path (an id no server issued for one that could write);
 * HEAD keeps the page's query, a plain one or a limit GET refuses (HEAD is judged beside GET of the same request).
 */
const methodPlain = (op: MethodOp, method: string): fc.Arbitrary<Draft> => {
  if (op === 'getPet' && !isSafeMethod(method)) return fc.constant<Draft>({ op, petId: UNKNOWN_ID, label: 'an id no server issued' });
  if (method !== 'HEAD' || op !== 'listPets') return plainArb(operation(op)).map(({ query: _q, ...d }) => d);
  const refused = fc.constantFrom(...REFUSED_LIMITS).map((limit): Draft => ({ op, query: { limit }, label: `a page of limit ${limit}` }));
  return fc.oneof(plainArb(operation(op)), refused);
};

/** The credential a method goes with: none, another key of the key's shape, or the key (a method that writes: only with writes on). */
const CREDENTIALS = ['none', 'another key', 'the key'] as const;
const credentialForms = (c: (typeof CREDENTIALS)[number]): Form[] =>
  c === 'none' ? [NO_CREDENTIALS] : c === 'another key' ? [OTHER_KEY] : [];

/** A request with another method than its operation's, on its path, with no credential, another key, or the key. */
export function methodDraftArb(writes: boolean): fc.Arbitrary<Draft> {
  const pairs = METHOD_OPS.flatMap((op) => otherMethodsAt(pathOf(op)).map((method) => ({ op, method })));
  return fc.tuple(fc.constantFrom(...pairs), fc.constantFrom(...CREDENTIALS)).chain(([{ op, method }, c]) => {
    const credential = c === 'the key' && !isSafeMethod(method) && !writes ? 'none' : c;
    return methodPlain(op, method).map((d) => ({
      ...d,
      forms: [methodForm(method), ...credentialForms(credential)],
      label: `${method} ${pathOf(op)} with ${credential === 'none' ? 'no credentials' : credential}`,
    }));
  });
}

/** A plain request of any operation (createPet with writes on) with a wrong credential, and the query shaped at times. */
export function credentialDraftArb(writes: boolean): fc.Arbitrary<Draft> {
  const ops: ('listPets' | 'getPet' | 'createPet')[] = writes ? ['listPets', 'getPet', 'createPet'] : ['listPets', 'getPet'];
  return fc.constantFrom(...ops).chain((op) => {
    const shape = op === 'listPets' ? fc.option(queryFormArb, { nil: undefined, freq: 3 }) : fc.constant(undefined);
    return fc.tuple(plainArb(operation(op)), placementArb, shape).map(([d, placement, q]) => ({
      ...d,
      forms: [credentialForm(placement), ...(q ? [q] : [])],
      label: `${d.label} with ${placementLabel(placement)}`,
    }));
  });
}

/**
 * The coverage cases of the method and the credential (what the spec files send, as forms): every other method on both
 * paths without a valid key (no credential and another key in turn); with the key, the extension on both paths and,
 * with writes on, the methods that write on an id no server issued, and HEAD of a page GET refuses; and each near-miss of the key the run's seed
 * derives from it, each channel, and the Basic scheme with the key as its user and as its password, on a page.
 */
export function requestFormCases(opts: { writes: boolean; key: string; seed: number }): Draft[] {
  const out: Draft[] = [];
  for (const op of METHOD_OPS)
    for (const method of otherMethodsAt(pathOf(op))) {
      const credential = out.length % 3 === 1 ? 'another key' : 'none';
      out.push(methodCase(op, method, credential));
    }
  for (const op of METHOD_OPS)
    for (const method of otherMethodsAt(pathOf(op)))
      if (method === 'QUERY' || (opts.writes && !isSafeMethod(method))) out.push(methodCase(op, method, 'the key'));
  // HEAD with the key on a page GET refuses (a limit the seed picks), judged beside that GET (METHOD-HEAD-AS-GET).
  const limit = REFUSED_LIMITS[Math.abs(Math.trunc(opts.seed)) % REFUSED_LIMITS.length];
  out.push({
    op: 'listPets',
    query: { limit },
    forms: [methodForm('HEAD')],
    label: `HEAD /pets?limit=${limit} with the key, beside GET`,
  });
  const placements: KeyPlacement[] = [
    ...nearMissEdits(opts.key, opts.seed).map((near) => ({ near })),
    ...CHANNELS.map((c) => c.placement),
    { basic: 'password' },
    { basic: 'user' },
  ];
  for (const placement of placements)
    out.push({
      op: 'listPets',
      query: { limit: '5' },
      forms: [credentialForm(placement)],
      label: `a page with ${placementLabel(placement)}`,
    });
  return out;
}

function methodCase(op: MethodOp, method: string, credential: (typeof CREDENTIALS)[number]): Draft {
  const documented = documentedAt(pathOf(op)).join(', ');
  return {
    op,
    ...(op === 'getPet' ? { petId: UNKNOWN_ID } : {}),
    forms: [methodForm(method), ...credentialForms(credential)],
    label: `${method} ${pathOf(op)} (documents ${documented}) with ${credential === 'none' ? 'no credentials' : credential}`,
  };
}

/**
 * Any generated request (drafts.ts: requestArb), and one in ten with another method or a wrong credential: what the
 * generated part samples (issue 39 §4: the new dimensions take a tenth of its requests, not a list of their own).
 */
export function wholeRequestArb(writes: boolean): fc.Arbitrary<Draft> {
  return fc.oneof(
    { weight: 18, arbitrary: requestArb(writes) },
    { weight: 1, arbitrary: methodDraftArb(writes) },
    { weight: 1, arbitrary: credentialDraftArb(writes) },
  );
}

/** What the method and credential cases may take of the phase's budget (issue 39 §4): a tenth. */
export const requestFormShare = (budget: number): number => Math.floor(budget * 0.1);

/**
 * The coverage cases of the method and the credential (request-forms.ts): all of them when a tenth of the budget affords
 * them (the default budgets with writes on do), else as many as it does, spread from an offset the seed picks.
 */
export function requestCases(x: Explorer): { draft: Draft; probe: Probe }[] {
  const { writes, seed, budget } = x.settings;
  const cases = requestFormCases({ writes, seed, key: x.session.config.apiKey ?? '' });
  const n = Math.min(requestFormShare(budget), Math.max(0, x.pace.left() - coverageReserve(budget)));
  return affordable(cases, n, seed).map((draft) => ({ draft, probe: x.materialize(draft) }));
}
