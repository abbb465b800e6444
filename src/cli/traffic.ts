/**
 * Where the conformance worker records a run's traffic until the CLI writes the HAR from it: a file in a folder of
 * its own under the system's temporary folder (never in reports/, where a stopped run would leave it), removed
 * when the run ends.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TrafficLine } from '../results/har.ts';
import { trafficFileLines } from '../results/writers/har.ts';

export interface TrafficLog {
  /** The file the worker appends to. */
  path: string;
  /** Its lines, read afresh at each call (the HAR writer reads them twice). */
  lines: () => Iterable<TrafficLine>;
  close(): void;
}

export function openTrafficLog(): TrafficLog {
  const dir = mkdtempSync(join(tmpdir(), 'animal-store-traffic-'));
  const path = join(dir, 'traffic.jsonl');
  return { path, lines: () => trafficFileLines(path), close: () => rmSync(dir, { recursive: true, force: true }) };
}
