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

/** Where a plan's requests go and how: `GET /pets?limit=1` with its key, a timeout, no redirects; tagged by name (and plan). */
export interface Requests {
  url: string;
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

/** One request now, if the run asks for one (an arrival-rate slot); what the run asked for. */
export function sendOne(run: ScenarioRun, r: Requests): ReturnType<ScenarioRun['next']> {
  const a = run.next(Date.now());
  if (a.kind === 'send') {
    const seq = run.sent(Date.now());
    observe(run, seq, http.get(r.url, r.params), Date.now());
  }
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

/** The requests the run asks for now: one with http.get, several as one http.batch. */
function sendBatch(run: ScenarioRun, r: Requests): void {
  const started = Date.now();
  const seqs = [run.sent(started)];
  for (let b = run.next(Date.now()); b.kind === 'send' && seqs.length < r.maxInFlight; b = run.next(Date.now()))
    seqs.push(run.sent(Date.now()));
  if (seqs.length === 1) {
    observe(run, seqs[0], http.get(r.url, r.params), Date.now());
    return;
  }
  const responses = http.batch(seqs.map(() => ['GET', r.url, null, r.params] as ['GET', string, null, typeof r.params]));
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
