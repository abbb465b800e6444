/**
 * The requests a client keeps in flight (src/http/flight.ts): never more than the cap, never more on a bucket than its
 * Remaining allows, one at a time when Remaining is unknown-but-zero, first come first served. No clock: a request
 * "comes back" when the test releases it.
 */
import { describe, expect, test } from 'vitest';
import { Flight, Latencies, MAX_IN_FLIGHT, widthFor } from '../../src/http/flight.ts';

/** A flight whose buckets' Remaining the test sets, and the requests it let go so far, by name. */
function setup(cap: number) {
  const remaining = new Map<string, number>();
  const flight = new Flight(
    (b) => remaining.get(b),
    () => cap,
  );
  const gone: string[] = [];
  const releases = new Map<string, () => void>();
  const ask = (name: string, bucket = 'key', atLeast = 0) =>
    void flight.acquire(bucket, atLeast).then((release) => {
      gone.push(name);
      releases.set(name, release);
    });
  const back = async (name: string) => {
    releases.get(name)!();
    await settle();
  };
  return { flight, remaining, gone, ask, back };
}

const settle = () => new Promise<void>((r) => setImmediate(r));

describe('widthFor', () => {
  test.each([
    { ms: 0, width: 1 },
    { ms: 2, width: 1 },
    { ms: 100, width: 2 },
    { ms: 365, width: 8 },
    { ms: 800, width: 16 },
    { ms: 1500, width: MAX_IN_FLIGHT },
    { ms: 60_000, width: MAX_IN_FLIGHT },
  ])('At a latency of $ms ms, $width requests are kept in flight (20 a second, at most the cap).', ({ ms, width }) => {
    expect(widthFor(ms)).toBe(width);
  });

  test('The latency is the median of the last 16 exchanges: one slow answer does not widen the flight.', () => {
    const l = new Latencies();
    expect(l.median()).toBe(0);
    for (let i = 0; i < 20; i++) l.took(i === 19 ? 5000 : 10);
    expect(l.median()).toBe(10);
  });
});

describe('Flight', () => {
  test.each([
    { cap: 1, asked: 5, first: 1 },
    { cap: 4, asked: 10, first: 4 },
    { cap: 16, asked: 10, first: 10 },
  ])('With a cap of $cap and no Remaining said, $first of $asked requests go at once.', async ({ cap, asked, first }) => {
    const s = setup(cap);
    for (let i = 0; i < asked; i++) s.ask(`r${i}`);
    await settle();
    expect(s.gone).toHaveLength(first);
    expect(s.flight.inFlight()).toBe(first);
  });

  test('A request that comes back lets the first one waiting go, in the order they asked.', async () => {
    const s = setup(2);
    for (const n of ['a', 'b', 'c', 'd']) s.ask(n);
    await settle();
    expect(s.gone).toEqual(['a', 'b']);
    await s.back('b');
    expect(s.gone).toEqual(['a', 'b', 'c']);
    await s.back('a');
    expect(s.gone).toEqual(['a', 'b', 'c', 'd']);
    expect(s.flight.widest).toBe(2);
  });

  test('Never more requests on a bucket than its Remaining allows, whatever the cap.', async () => {
    const s = setup(16);
    s.remaining.set('key', 3);
    for (let i = 0; i < 6; i++) s.ask(`r${i}`);
    await settle();
    expect(s.gone).toEqual(['r0', 'r1', 'r2']);
    s.remaining.set('key', 1); // the answer said one is left: the one in flight may not be replaced
    await s.back('r0');
    expect(s.gone).toHaveLength(3);
    await s.back('r1');
    expect(s.gone).toHaveLength(3);
    await s.back('r2'); // none in flight: one goes, its answer tells the new count (or the client waits for the window)
    expect(s.gone).toEqual(['r0', 'r1', 'r2', 'r3']);
  });

  test('With Remaining 0 one request still goes when none is in flight on its bucket (it waits for the window).', async () => {
    const s = setup(16);
    s.remaining.set('key', 0);
    s.ask('a');
    s.ask('b');
    await settle();
    expect(s.gone).toEqual(['a']);
  });

  test('A bucket held back by its Remaining does not hold back requests on another bucket.', async () => {
    const s = setup(16);
    s.remaining.set('key', 1);
    s.ask('k1');
    s.ask('k2');
    s.ask('anon', 'anonymous');
    await settle();
    expect(s.gone).toEqual(['k1', 'anon']);
    expect(s.flight.inFlight('key')).toBe(1);
    expect(s.flight.inFlight('anonymous')).toBe(1);
  });

  test('A cap that grows lets the waiting requests go at the next release.', async () => {
    let cap = 1;
    const flight = new Flight(
      () => undefined,
      () => cap,
    );
    const gone: number[] = [];
    const releases: (() => void)[] = [];
    for (let i = 0; i < 5; i++) void flight.acquire('key').then((r) => (gone.push(i), releases.push(r)));
    await settle();
    expect(gone).toEqual([0]);
    cap = 4;
    releases[0]();
    await settle();
    expect(gone).toEqual([0, 1, 2, 3, 4]);
  });

  test('Releasing a slot twice frees it once.', async () => {
    const s = setup(1);
    let release: (() => void) | undefined;
    void s.flight.acquire('key').then((r) => (release = r));
    s.ask('b');
    s.ask('c');
    await settle();
    release!();
    release!();
    await settle();
    expect(s.gone).toEqual(['b']);
    expect(s.flight.inFlight()).toBe(1);
  });
});

describe('Requests that must be in flight together', () => {
  test('Go together at the width they ask for, though the latency makes the cap one; others still wait for the cap.', async () => {
    const { gone, ask, back } = setup(1);
    for (const n of ['a', 'b', 'c']) ask(n, 'key', 3);
    ask('d');
    await settle();
    expect(gone).toEqual(['a', 'b', 'c']);
    for (const n of ['a', 'b', 'c']) await back(n);
    expect(gone).toEqual(['a', 'b', 'c', 'd']);
  });

  test('Never more on a bucket than its Remaining allows, whatever width they ask for.', async () => {
    const { gone, ask, remaining } = setup(1);
    remaining.set('key', 2);
    for (const n of ['a', 'b', 'c']) ask(n, 'key', 3);
    await settle();
    expect(gone).toEqual(['a', 'b']);
  });
});
