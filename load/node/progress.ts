/**
 * The live progress line on stderr: elapsed, sent, 2xx, 429, current rate, time
 * left. On a TTY it redraws one line every second; elsewhere (CI logs) it prints
 * a line every few seconds, and only once the run has lasted a few seconds.
 */
import type { ScenarioRun } from '../lib/runner.ts';

export interface ProgressOptions {
  stream?: NodeJS.WriteStream;
  /** true / false, or 'auto' (default): on when stderr is a TTY or the run is longer than a few seconds. */
  enabled?: boolean | 'auto';
  /** Non-TTY: first line after this many ms, then one every `everyMs`. */
  quietMs?: number;
  everyMs?: number;
}

const secs = (ms: number) => `${(ms / 1000).toFixed(1)}s`;

export function progressLine(label: string, run: ScenarioRun, now: number, startedAt: number): string {
  const samples = run.state.samples;
  let ok = 0;
  let throttled = 0;
  let recent = 0;
  for (const s of samples) {
    if (s.status >= 200 && s.status < 300) ok++;
    else if (s.status === 429) throttled++;
    if (s.sentAt > now - 5000) recent++;
  }
  const span = Math.min(5000, Math.max(1, now - startedAt));
  const rate = (recent * 60000) / span;
  const eta = run.etaMs(now);
  return `[${label}] ${secs(now - startedAt)} · sent ${run.state.sentCount} · 2xx ${ok} · 429 ${throttled} · ${rate.toFixed(0)}/min · ${eta === undefined ? '?' : `~${secs(eta)}`} left · ${run.phase}`;
}

export class Progress {
  private timer?: ReturnType<typeof setInterval>;
  private readonly stream: NodeJS.WriteStream;
  private readonly tty: boolean;
  private lastPrint = 0;
  private drawn = false;
  private startedAt = 0;

  constructor(
    private readonly label: string,
    private readonly run: ScenarioRun,
    private readonly o: ProgressOptions = {},
  ) {
    this.stream = o.stream || process.stderr;
    this.tty = !!this.stream.isTTY;
  }

  start(): void {
    if (this.o.enabled === false) return;
    this.startedAt = Date.now();
    this.timer = setInterval(() => this.tick(), this.tty ? 1000 : 500);
    this.timer.unref();
  }

  private tick(): void {
    const now = Date.now();
    const line = progressLine(this.label, this.run, now, this.startedAt);
    if (this.tty) {
      this.stream.write(`\r\x1b[2K${line}`);
      this.drawn = true;
      return;
    }
    // Not a terminal (a CI log): a heartbeat every half minute of a long run, not a line every few seconds.
    const quiet = this.o.enabled === true ? 0 : (this.o.quietMs ?? 10000);
    if (now - this.startedAt < quiet || now - this.lastPrint < (this.o.everyMs ?? 30000)) return;
    this.lastPrint = now;
    this.stream.write(`${line}\n`);
  }

  /** One line when the scenario starts a noticeable wait on the key: what for, and how long. */
  waiting(why: string, ms: number): void {
    if (this.o.enabled === false) return;
    const line = `  … ${this.label}: waiting ${secs(ms)} — ${why}`;
    if (this.tty && this.drawn) this.stream.write('\r\x1b[2K');
    this.stream.write(`${line}\n`);
    this.lastPrint = Date.now();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.drawn) this.stream.write('\r\x1b[2K');
    this.drawn = false;
  }
}
