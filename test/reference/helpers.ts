/**
 * Test helpers for the reference server: a fake clock, a server on 127.0.0.1
 * port 0, and a `send` that never throws (transport failures come back as `error`).
 */
import { afterEach } from 'vitest';
import { Agent, request } from 'undici';
import { parseJson, type JsonValue } from '../../src/core/json.ts';
import type { PlanName } from '../../src/core/plans.ts';
import { buildApp, type App, type AppOptions } from '../../reference/app.ts';
import { listen } from '../../reference/server.ts';
import { parseVariants } from '../../reference/variants.ts';

/** 2026-01-01T12:00:00Z: the start of a minute window. */
export const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);

export class FakeClock {
  constructor(public t = T0) {}
  readonly now = (): number => this.t;
  advance(ms: number): void {
    this.t += ms;
  }
}

export interface Res {
  /** 0 when the exchange failed. */
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The body parsed with parseJson (raw int64 digits available through rawNumber), if it is JSON. */
  json?: JsonValue;
  truncated: boolean;
  error?: string;
}

export interface SendOptions {
  method?: string;
  /** The plan whose demo key is sent as Bearer (default enterprise), or null for no Authorization header. */
  plan?: PlanName | null;
  /** A raw Authorization header value (wins over `plan`). */
  authorization?: string;
  body?: string;
  timeoutMs?: number;
  /** Stop reading the body past this many bytes (default 2 MiB). */
  maxBytes?: number;
  /** Headers set after the defaults (a Content-Type of another spelling…). */
  headers?: Record<string, string>;
}

export interface Srv {
  app: App;
  clock: FakeClock;
  /** Base URL ending in /v1. */
  url: string;
  key(plan?: PlanName): string;
  /** `path` is relative to /v1 (e.g. "/pets?limit=1"). */
  send(path: string, o?: SendOptions): Promise<Res>;
  close(): Promise<void>;
}

const dispatcher = new Agent({ keepAliveTimeout: 1000 });

export async function start(options: AppOptions = {}, clock = new FakeClock()): Promise<Srv> {
  const app = buildApp({ now: clock.now, ...options });
  const server = await listen(app);
  const key = (plan: PlanName = 'enterprise') => app.keys[plan];
  const send = async (path: string, o: SendOptions = {}): Promise<Res> => {
    const headers: Record<string, string> = {};
    const plan = o.plan === undefined ? 'enterprise' : o.plan;
    if (o.authorization !== undefined) headers.authorization = o.authorization;
    else if (plan !== null) headers.authorization = `Bearer ${key(plan)}`;
    if (o.body !== undefined) headers['content-type'] = 'application/json';
    Object.assign(headers, o.headers ?? {});
    const signal = AbortSignal.timeout(o.timeoutMs ?? 5000);
    try {
      const r = await request(`${server.url}${path}`, {
        method: o.method ?? (o.body !== undefined ? 'POST' : 'GET'),
        headers,
        body: o.body,
        signal,
        dispatcher,
      });
      const chunks: Buffer[] = [];
      let bytes = 0;
      let truncated = false;
      for await (const chunk of r.body) {
        chunks.push(chunk as Buffer);
        bytes += (chunk as Buffer).length;
        if (bytes > (o.maxBytes ?? 2 * 1024 * 1024)) {
          truncated = true;
          r.body.destroy();
          break;
        }
      }
      const text = Buffer.concat(chunks).toString('utf8');
      const flat = Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]));
      let json: JsonValue | undefined;
      try {
        json = parseJson(text).value;
      } catch {
        json = undefined;
      }
      return { status: r.statusCode, headers: flat, text, json, truncated };
    } catch (e) {
      return { status: 0, headers: {}, text: '', truncated: false, error: `${(e as Error).name}: ${(e as Error).message}` };
    }
  };
  return { app, clock, url: server.url, key, send, close: () => server.close() };
}

/** A valid NewPet body. */
export function newPet(extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ name: 'Test animal', categoryId: 3, ...extra });
}

/** Send the same request `n` times in sequence. */
export async function repeat(s: Srv, n: number, path: string, o: SendOptions = {}): Promise<Res[]> {
  const out: Res[] = [];
  for (let i = 0; i < n; i++) out.push(await s.send(path, o));
  return out;
}

export const obj = (r: Res): Record<string, JsonValue> => (r.json ?? {}) as Record<string, JsonValue>;
export const arr = (r: Res): Record<string, JsonValue>[] => (Array.isArray(r.json) ? r.json : []) as Record<string, JsonValue>[];

/** A starter of servers with the given variants (`head=405,cors`…), each closed after its test. */
export function variantServers(): (variants: string) => Promise<Srv> {
  const open: Srv[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });
  return async (variants) => {
    const s = await start({ variants: parseVariants(variants) });
    open.push(s);
    return s;
  };
}
