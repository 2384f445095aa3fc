// The engines' JVMs as process groups: found through /proc by marks on their command line
// (-Dgitdex.engine=<name> -Dgitdex.engines.id=<id>), started detached, stopped group by group.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { errorCode, sleep, type Log } from './util.ts';

export interface ProcessInfo {
  pid: number;
  state: string;
  ppid: number;
  pgid: number;
  cmdline: string;
}

function procStat(pid: number): Omit<ProcessInfo, 'pid' | 'cmdline'> | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: rest[0] ?? '?', ppid: Number(rest[1]), pgid: Number(rest[2]) };
  } catch {
    return undefined;
  }
}

export function listProcesses({ zombies = false } = {}): ProcessInfo[] {
  const out: ProcessInfo[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    const stat = procStat(pid);
    if (!stat || (stat.state === 'Z' && !zombies)) continue;
    let cmdline: string;
    try {
      cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
    } catch {
      continue;
    }
    out.push({ pid, ...stat, cmdline });
  }
  return out;
}

/** The JVM flags that mark an engine process as ours. */
export function processMarks(engine: string, id: string): string[] {
  return [`-Dgitdex.engine=${engine}`, `-Dgitdex.engines.id=${id}`];
}

/** Live processes whose command line carries every mark (` ` appended so `kafka-1` never matches `kafka-10`). */
export function markedProcesses(marks: string[]): ProcessInfo[] {
  return listProcesses().filter((p) => marks.every((m) => `${p.cmdline} `.includes(`${m} `)));
}

export function groupMembers(pgid: number, opts: { zombies?: boolean } = {}): ProcessInfo[] {
  return listProcesses(opts).filter((p) => p.pgid === pgid);
}

export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch (error) {
    if (errorCode(error) !== 'ESRCH') throw error;
  }
}

/** Exited JVMs linger as zombies until their parent (often init) reaps them; give it a moment. */
async function waitReaped(groups: number[], ms = 3000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline && groups.some((g) => groupMembers(g, { zombies: true }).length > 0)) await sleep(100);
}

/** SIGTERM (or SIGKILL with force) to each group; SIGKILL after `stopTimeoutMs`; resolves once no member is left. */
export async function killGroups(label: string, groups: number[], log: Log, { force = false, stopTimeoutMs = 30_000 } = {}): Promise<void> {
  const mine = groups.filter((g) => g > 1 && g !== process.pid);
  if (mine.length === 0) return;
  for (const g of mine) signalGroup(g, force ? 'SIGKILL' : 'SIGTERM');
  // A paused (SIGSTOP) engine cannot act on SIGTERM until it is continued.
  if (!force) for (const g of mine) signalGroup(g, 'SIGCONT');
  const gone = () => mine.every((g) => groupMembers(g).length === 0);
  const deadline = Date.now() + (force ? 10_000 : stopTimeoutMs);
  while (Date.now() < deadline) {
    if (gone()) return waitReaped(mine);
    await sleep(200);
  }
  log(`${label} did not stop within ${stopTimeoutMs / 1000}s; sending SIGKILL`);
  for (const g of mine) signalGroup(g, 'SIGKILL');
  const killDeadline = Date.now() + 10_000;
  while (Date.now() < killDeadline) {
    if (gone()) return waitReaped(mine);
    await sleep(100);
  }
  throw new Error(`${label}: processes of group(s) ${mine.join(', ')} survived SIGKILL`);
}

/**
 * Starts a command on its own (own process group, output appended to `outFile`, no pipes to us) and
 * resolves to its pid, which is its process group id.
 */
export function spawnDetached(argv: string[], options: { cwd: string; outFile: string; env?: NodeJS.ProcessEnv; outOwner?: { uid: number; gid: number } | undefined }, log: Log): number {
  const [cmd, ...args] = argv;
  if (!cmd) throw new Error('spawnDetached: empty command');
  const out = fs.openSync(options.outFile, 'a');
  if (options.outOwner) fs.fchownSync(out, options.outOwner.uid, options.outOwner.gid);
  const child = spawn(cmd, args, { cwd: options.cwd, detached: true, stdio: ['ignore', out, out], ...(options.env ? { env: options.env } : {}) });
  fs.closeSync(out);
  child.on('error', (error) => log(`${cmd}: ${error.message}`));
  if (!child.pid) throw new Error(`could not start ${cmd}`);
  child.unref();
  return child.pid;
}

/** Resident memory of a process and its group, in MB (for reports). */
export function groupRssMb(pgid: number): number {
  let kb = 0;
  for (const p of groupMembers(pgid)) {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${p.pid}/status`, 'utf8'));
      kb += Number(m?.[1] ?? 0);
    } catch {
      // gone meanwhile
    }
  }
  return Math.round(kb / 1024);
}
