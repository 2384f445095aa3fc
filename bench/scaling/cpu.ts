// CPU time from Linux's /proc: of a process (utime + stime), of a process group (every JVM of an
// engine node), of this process and its waited-for children (the GitHub stand-in and the git
// commands of the push generator), and of the whole machine (busy vs idle jiffies).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

let ticks: number | undefined;
/** Clock ticks a second (USER_HZ), in which /proc reports CPU time. */
function clockTicks(): number {
  if (ticks === undefined) {
    try {
      ticks = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
    } catch {
      ticks = 100;
    }
  }
  return ticks;
}

interface ProcStat {
  pgrp: number;
  /** user + system CPU of the process itself, seconds. */
  cpuSeconds: number;
  /** user + system CPU of its children that it waited for, seconds. */
  childrenCpuSeconds: number;
}

/** Fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses). */
function procStat(pid: number): ProcStat | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state): pgrp is field 5, utime 14, stime 15, cutime 16, cstime 17.
  const at = (field: number) => Number(fields[field - 3]);
  const hz = clockTicks();
  return { pgrp: at(5), cpuSeconds: (at(14) + at(15)) / hz, childrenCpuSeconds: (at(16) + at(17)) / hz };
}

/** CPU seconds a process used so far (0 when it is gone). */
export function processCpuSeconds(pid: number | undefined): number {
  return pid === undefined ? 0 : (procStat(pid)?.cpuSeconds ?? 0);
}

/** CPU seconds of every process in the process group of `pid` (an engine node's JVM and its wrappers). */
export function groupCpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return 0;
  const group = procStat(pid)?.pgrp;
  if (group === undefined) return 0;
  let sum = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = procStat(Number(entry));
    if (stat && stat.pgrp === group) sum += stat.cpuSeconds;
  }
  return sum;
}

/** This process (the GitHub stand-in, the push generator, the fronts) plus the git commands it ran. */
export function selfCpuSeconds(): number {
  const stat = procStat(process.pid);
  return stat ? stat.cpuSeconds + stat.childrenCpuSeconds : 0;
}

export interface MachineCpu {
  busySeconds: number;
  totalSeconds: number;
}

/** Machine-wide CPU (every core) from /proc/stat: busy = everything but idle and iowait. */
export function machineCpu(): MachineCpu {
  const line = readFileSync('/proc/stat', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('cpu '))!;
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal (guest times are inside user/nice)
  const total = v.slice(0, 8).reduce((a, b) => a + b, 0);
  const idle = (v[3] ?? 0) + (v[4] ?? 0);
  const hz = clockTicks();
  return { busySeconds: (total - idle) / hz, totalSeconds: total / hz };
}

/** Share of the machine's CPU that was busy between two readings (0-1). */
export function busyShare(before: MachineCpu, after: MachineCpu): number {
  const total = after.totalSeconds - before.totalSeconds;
  return total > 0 ? (after.busySeconds - before.busySeconds) / total : 0;
}
