// One engines command at a time per lock file: a file holding the owner's pid (a lock whose owner is
// gone is taken over), plus an in-process queue so that concurrent calls of one process wait too.
import fs from 'node:fs';
import path from 'node:path';
import { errorCode, sleep, type Log } from './util.ts';

export function pidAlive(pid: number): boolean {
  if (!pid || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) === 'EPERM';
  }
}

/** In-process queues, one per lock file (the lock file itself serialises processes). */
const inProcess = new Map<string, Promise<void>>();

/** Runs `fn` holding `lock`: after every earlier holder in this process and in others. */
export async function withLock<T>(lock: string, log: Log, fn: () => Promise<T>): Promise<T> {
  const previous = inProcess.get(lock) ?? Promise.resolve();
  let release: () => void = () => undefined;
  const mine = new Promise<void>((resolve) => (release = resolve));
  const chained = previous.then(() => mine);
  inProcess.set(lock, chained);
  await previous;
  try {
    return await withFileLock(lock, log, fn);
  } finally {
    release();
    if (inProcess.get(lock) === chained) inProcess.delete(lock);
  }
}

async function withFileLock<T>(lock: string, log: Log, fn: () => Promise<T>): Promise<T> {
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  const deadline = Date.now() + 15 * 60_000;
  let told = false;
  for (;;) {
    try {
      fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
      break;
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
      let owner: number;
      let age: number;
      try {
        owner = Number(fs.readFileSync(lock, 'utf8').trim() || 0);
        age = Date.now() - fs.statSync(lock).mtimeMs;
      } catch {
        continue; // released meanwhile
      }
      const stale = owner ? !pidAlive(owner) || owner === process.pid : age > 5_000;
      if (stale) {
        fs.rmSync(lock, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`engines lock ${lock} held by pid ${owner} for too long`, { cause: error });
      if (!told) log(`waiting for another engines command (pid ${owner}) to finish`);
      told = true;
      await sleep(300);
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lock, { force: true });
  }
}
