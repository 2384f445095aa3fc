import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { REPO_ROOT } from '../data/corpora';
import { memoryOf, type Memory } from '../measure/proc';

export const MAIN = join(REPO_ROOT, 'services', 'gitdex', 'dist', 'main.js');

export interface GitdexChild {
  url: string;
  pid: number;
  child: ChildProcess;
  output(): string;
  memory(): Memory | null;
  stop(): Promise<void>;
}

/** Keeps the last `max` characters of a stream's text (logs can be long). */
function tail(max: number) {
  let text = '';
  return {
    push(chunk: Buffer) {
      text += chunk.toString();
      if (text.length > max * 2) text = text.slice(-max);
    },
    get: () => text.slice(-max),
  };
}

/**
 * Settings of every gitdex process of the bench: a free port, and no per-caller rate limit
 * on the reader (the bench polls and loads it from one address on purpose).
 */
export const BENCH_ENV = { PORT: '0', LOG_LEVEL: 'info', GITDEX_READER_RATE_LIMIT: '0' };

/** Runs the built product (services/gitdex/dist/main.js) as a child process, with `nodeArgs` (e.g. --cpu-prof) for node; resolves once it logs "gitdex listening". */
export async function startGitdex(env: Record<string, string>, label: string, nodeArgs: string[] = []): Promise<GitdexChild> {
  const child = spawn(process.execPath, [...nodeArgs, MAIN], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...BENCH_ENV, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = tail(200_000);
  child.stdout?.on('data', (chunk: Buffer) => out.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => out.push(chunk));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${label}: gitdex did not start within 60 s:\n${out.get().slice(-4000)}`)), 60_000);
    const check = () => {
      const match = /"url":"(http:\/\/[^"]+)"[^\n]*gitdex listening/.exec(out.get());
      if (match) {
        clearTimeout(timer);
        child.stdout?.off('data', check);
        resolve(match[1]!);
      }
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${label}: gitdex exited with ${code}:\n${out.get().slice(-4000)}`));
    });
  });
  return {
    url,
    pid: child.pid!,
    child,
    output: out.get,
    memory: () => memoryOf(child.pid!),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
