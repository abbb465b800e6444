/**
 * How a plan's run sends on k6 (no timers: a wait is k6's sleep): the
 * sequential driver of setup() and of the single-VU scenarios — the requests
 * the run asks for at once go out as one http.batch, each response observed
 * when it came — and the one request of an arrival-rate slot. Bundled for k6:
 * no Node built-ins, ES2017.
 */
import { sleep } from 'k6';
import http from 'k6/http';
import type { ScenarioRun } from '../lib/runner.ts';
import type { LoadRequest } from '../lib/operations.ts';
import type { LoadOp } from '../../src/core/sample.ts';

/** Where a plan's requests go and how: each request's path after the base address, its key, a timeout, no redirects; tagged by name (and plan). */
export interface Requests {
  /** The base address ending in /v1. */
  baseUrl: string;
  params: ReturnType<typeof requestParams>;
  /** Most requests in one batch (the run's cap on requests in flight). */
  maxInFlight: number;
  /** Most steps of a sequential drive (a bound far above what the run's caps allow). */
  maxSteps: number;
}

export function requestParams(apiKey: string, timeoutMs: number, tag: string | undefined) {
  return {
    headers: { Authorization: `Bearer ${apiKey}`, Accept: 'application/json' },
    timeout: `${timeoutMs}ms`,
    redirects: 0,
    tags: { name: 'GET /pets', ...(tag ? { plan: tag } : {}) } as Record<string, string>,
    responseCallback: http.expectedStatuses({ min: 200, max: 299 }, 429),
  };
}

type Response = { status: number; headers: Record<string, string>; body: unknown; error: string };

function observe(run: ScenarioRun, seq: number, res: Response, t: number): void {
  const body = typeof res.body === 'string' ? res.body : '';
  run.observe({ seq, t, status: res.status, headers: res.headers || {}, body, ...(res.error ? { error: res.error } : {}) });
}

/** The name k6 tags each operation's requests with (fixed: a metrics store keeps one series per name). */
const NAMES: Record<LoadOp, string> = { listPets: 'GET /pets', getPet: 'GET /pets/{petId}', createPet: 'POST /pets' };

type Params = Requests['params'];

/** The params of one request: a createPet's JSON body announced, its operation's name. */
function paramsOf(r: Requests, req: LoadRequest): Params {
  const headers = req.body === undefined ? r.params.headers : Object.assign({}, r.params.headers, { 'Content-Type': 'application/json' });
  return Object.assign({}, r.params, { headers, tags: Object.assign({}, r.params.tags, { name: NAMES[req.op] }) });
}

/** The request `seq` of the run as k6's batch takes it: method, URL, body, params. */
function batchItem(run: ScenarioRun, r: Requests, seq: number): [string, string, string | null, Params] {
  const req = run.requestOf(seq);
  return [req.method, `${r.baseUrl}${req.path}`, req.body === undefined ? null : req.body, paramsOf(r, req)];
}

/** Send the request `seq` of the run alone and observe its response. */
function sendSeq(run: ScenarioRun, r: Requests, seq: number): void {
  const [method, url, body, params] = batchItem(run, r, seq);
  observe(run, seq, http.request(method, url, body, params), Date.now());
}

/** One request now, if the run asks for one (an arrival-rate slot); what the run asked for. */
export function sendOne(run: ScenarioRun, r: Requests): ReturnType<ScenarioRun['next']> {
  const a = run.next(Date.now());
  if (a.kind === 'send') sendSeq(run, r, run.sent(Date.now()));
  return a;
}

/** Drive the run to its end: sleep through its waits, send what it asks for (several at once as one http.batch). */
export function drive(run: ScenarioRun, r: Requests): void {
  for (let i = 0; i < r.maxSteps; i++) {
    const a = run.next(Date.now());
    if (a.kind === 'done') return;
    if (a.kind === 'wait') sleep(a.ms / 1000);
    else sendBatch(run, r);
  }
  run.stop('iteration cap reached');
}

/** The requests the run asks for now: one with http.request, several as one http.batch. */
function sendBatch(run: ScenarioRun, r: Requests): void {
  const started = Date.now();
  const seqs = [run.sent(started)];
  for (let b = run.next(Date.now()); b.kind === 'send' && seqs.length < r.maxInFlight; b = run.next(Date.now()))
    seqs.push(run.sent(Date.now()));
  if (seqs.length === 1) {
    sendSeq(run, r, seqs[0]);
    return;
  }
  const responses = http.batch(seqs.map((seq) => batchItem(run, r, seq)));
  // Each response when it came (k6's timings from the batch's start), observed in that order: the latency is the server's, not the slowest's.
  const ended = Date.now();
  const arrived = seqs.map((seq, j) => ({ seq, res: responses[j], t: Math.min(ended, started + elapsedMs(responses[j])) }));
  arrived.sort((x, y) => x.t - y.t || x.seq - y.seq);
  for (const x of arrived) observe(run, x.seq, x.res, x.t);
}

/** How long a response of a batch took from the batch's start (k6's timings; Infinity without them: the batch's end is used). */
function elapsedMs(res: { timings?: Partial<Record<'blocked' | 'connecting' | 'tls_handshaking' | 'duration', number>> }): number {
  const t = res.timings;
  if (!t || typeof t.duration !== 'number') return Infinity;
  return (t.blocked || 0) + (t.connecting || 0) + (t.tls_handshaking || 0) + t.duration;
}
