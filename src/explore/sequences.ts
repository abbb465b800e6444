/**
 * The store is input too: sequences of creates and reads. A sequence creates its pets one after the other (status given
 * or left out, names of any script and length), then looks for each wherever the spec says a client can find it — by
 * its id, in the list of its status (the one its 201 showed, when none was sent) and in the unfiltered list — judged by
 * the core's rules on pages that can prove an animal absent. A failing sequence is shrunk as a sequence (fewer pets,
 * simpler ones) and reported with the requests before the read that failed.
 */
import type { Judgement } from '../core/sections/define.ts';
import { getPet } from '../harness/ops.ts';
import type { ApiExchange } from '../http/client.ts';
import { createdBy, Explorer, SOURCES } from './explorer.ts';
import { isProblem } from './reporter.ts';
import type { Attempt } from './hunt.ts';
import { judgeProbe } from './checks.ts';
import { probeOf, requestOf, type Probe } from './probe.ts';
import { listedBack, listingOf, readBack, takenReading, type Created } from './readback.ts';

/**
 * The status a created pet is listed under: the one sent (of the reading the server took, when a status was given
 * twice), else the one its 201 showed; undefined when it has none.
 */
export function listedStatus(c: Created): string | undefined {
  const shown = c.created.status !== undefined ? (JSON.parse(c.created.status) as unknown) : undefined;
  const sent = takenReading(c)?.fields.status;
  const given = sent !== undefined ? (JSON.parse(sent) as unknown) : undefined;
  return typeof given === 'string' ? given : typeof shown === 'string' ? shown : undefined;
}

/** The listPets probe of a page of `limit` animals (no status: the unfiltered list). */
export const listProbe = (x: Explorer, status: string | undefined, limit: number, label: string): Probe =>
  probeOf({ op: 'listPets', query: { ...(status ? { status } : {}), limit: String(limit) } }, label, x.naming.plainLength);

/** Read one page and judge every created pet it should show (those of its status; all of them unfiltered). */
export async function readPage(x: Explorer, pets: readonly Created[], page: { status?: string; limit: number; source: string }) {
  const { status, limit, source } = page;
  const list = listProbe(x, status, limit, 'read back');
  const what = new URLSearchParams(list.query).toString();
  const shown = pets.filter((c) => status === undefined || listedStatus(c) === status);
  const judge = (ex: ApiExchange): Judgement[] => {
    const listing = listingOf(ex, limit, x.session.largestPage(limit), what);
    return [...judgeProbe(list, ex), ...(listing ? shown.flatMap((c) => listedBack(c, listing)) : [])];
  };
  return { probe: list, shot: await x.exchange(requestOf(list), source, judge, list) };
}

/** Create each pet of a sequence, then read every one back: by id, in its status's list and in the unfiltered one. */
export async function runSequence(
  x: Explorer,
  creates: readonly Probe[],
  limit: number,
  source: string = SOURCES.stateful,
): Promise<Attempt> {
  const steps: Probe[] = [];
  const findings = [];
  const made: Created[] = [];
  for (const probe of creates) {
    if (x.pace.left() <= 0) break;
    const shot = await x.send(probe, source);
    steps.push(probe);
    findings.push(...shot.findings);
    const kept = createdBy(probe, shot);
    if (kept) made.push(kept);
  }
  for (const c of made) {
    if (x.pace.left() <= 0) break;
    const get = probeOf({ op: 'getPet', petId: c.id }, 'read back by id', x.naming.plainLength);
    findings.push(...(await x.exchange(getPet(c.id), source, (ex) => readBack(c, ex), get)).findings);
    steps.push(get);
  }
  const statuses = [...new Set(made.map(listedStatus))].filter((s) => s !== undefined);
  for (const status of made.length ? [...statuses, undefined] : []) {
    if (x.pace.left() <= 0) break;
    const page = await readPage(x, made, { ...(status !== undefined ? { status } : {}), limit, source });
    findings.push(...page.shot.findings);
    steps.push(page.probe);
  }
  return { probe: steps[0], findings, failures: findings.filter(isProblem), kind: 'stateful', limit, steps };
}
