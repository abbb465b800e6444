/**
 * CPU time (user + system) of a process tree, read from Linux's /proc: every live process whose ancestry reaches the
 * root counts its own time and the time of its children it has already waited for (`cutime`, `cstime`: a child
 * reaped by its parent is counted there, once). Read while the tree runs — the moment a server sees a request — or,
 * after it ended, from the shell that waited for it (`treeCpuOfShell`). Wall time is useless on a shared machine:
 * CPU time is what a start-up costs whatever else runs beside it.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

interface Stat {
  pid: number;
  ppid: number;
  /** utime + stime + cutime + cstime, in clock ticks. */
  ticks: number;
}

let ticksPerSecond: number | undefined;

/** The kernel's clock ticks per second (USER_HZ), the unit of /proc/<pid>/stat's times. */
function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    let n = NaN;
    try {
      n = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    } catch {
      // getconf missing: Linux's USER_HZ is 100 on every common architecture.
    }
    ticksPerSecond = Number.isFinite(n) && n > 0 ? n : 100;
  }
  return ticksPerSecond;
}

/** One line of /proc/<pid>/stat; the command name (field 2) may hold spaces and parentheses, so read after its last ')'. */
export function parseStat(line: string): Stat | undefined {
  const pid = Number.parseInt(line, 10);
  const rest = line.slice(line.lastIndexOf(')') + 2).split(' ');
  // rest[0] is field 3 (state): field n is rest[n - 3].
  const f = (n: number) => Number(rest[n - 3]);
  if (!Number.isFinite(pid) || rest.length < 15) return undefined;
  return { pid, ppid: f(4), ticks: f(14) + f(15) + f(16) + f(17) };
}

function allStats(): Stat[] {
  const out: Stat[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const s = parseStat(readFileSync(`/proc/${name}/stat`, 'utf8'));
      if (s) out.push(s);
    } catch {
      // The process ended between the listing and the read: its time is in its parent's cutime once reaped.
    }
  }
  return out;
}

/** CPU milliseconds of the tree rooted at `root`, now. */
export function treeCpuMs(root: number): number {
  const stats = allStats();
  const children = new Map<number, Stat[]>();
  for (const s of stats) children.set(s.ppid, [...(children.get(s.ppid) ?? []), s]);
  let ticks = 0;
  const todo = stats.filter((s) => s.pid === root);
  while (todo.length) {
    const s = todo.pop()!;
    ticks += s.ticks;
    todo.push(...(children.get(s.pid) ?? []));
  }
  return (ticks * 1000) / clockTicks();
}

/**
 * A command run by `sh` (its output discarded), which then prints its own /proc stat: the CPU milliseconds of the
 * command's whole tree (the shell's children it waited for), read from that line by treeCpuOfShell.
 */
export const SHELL_REPORTING_CPU = '"$@" >/dev/null 2>&1; c=$?; cat /proc/$$/stat; exit $c';

export function treeCpuOfShell(stdout: string): number {
  const line = stdout.trimEnd().split('\n').pop() ?? '';
  const rest = line.slice(line.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(rest[16 - 3]) + Number(rest[17 - 3]);
  if (!Number.isFinite(ticks)) throw new Error(`no /proc stat line at the end of the output: ${JSON.stringify(line.slice(0, 200))}`);
  return (ticks * 1000) / clockTicks();
}
