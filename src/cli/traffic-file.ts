/**
 * Where the conformance worker records a run's traffic until the CLI writes the HAR from it: a hidden file in the
 * reports folder (`.traffic-<pid>-<random>.jsonl`), removed when the run ends. A run killed before it could remove
 * its file leaves it behind; the next run into the folder removes every such file whose process is gone (concurrent
 * runs into one folder keep theirs).
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import type { TrafficLine } from '../results/har-lines.ts';
import { trafficFileLines } from '../results/writers/har.ts';

export interface TrafficLog {
  /** The file the worker appends to. */
  path: string;
  /** Its lines, read afresh at each call (the HAR writer reads them twice). */
  lines: () => Iterable<TrafficLine>;
  close(): void;
}

const FILE = /^\.traffic-(\d+)-[0-9a-f]+\.jsonl$/;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The traffic files of runs whose process is gone. */
export function staleTrafficFiles(reportsDir: string): string[] {
  return readdirSync(reportsDir)
    .filter((f) => {
      const m = FILE.exec(f);
      return m !== null && !alive(Number(m[1]));
    })
    .map((f) => join(reportsDir, f));
}

export function openTrafficLog(reportsDir: string): TrafficLog {
  const root = resolve(reportsDir);
  mkdirSync(root, { recursive: true });
  for (const f of staleTrafficFiles(root)) rmSync(f, { force: true });
  const path = join(root, `.traffic-${process.pid}-${randomBytes(4).toString('hex')}.jsonl`);
  return { path, lines: () => trafficFileLines(path), close: () => rmSync(path, { force: true }) };
}
