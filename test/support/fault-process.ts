// A role of the built product (`services/gitdex/dist/main.js`, GITDEX_ROLE=webhook|indexer|reader)
// as a child process that fault tests can kill, stop and start again on the SAME port, so that
// GitHub's webhook URL and the reader's URL survive a restart (deliveries made while it is down
// get "connection refused", as from GitHub). Extends test/support/gitdex-process.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { appendFileSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';

const MAIN = join(__dirname, '../../services/gitdex/dist/main.js');

/** Every child started by this module, killed if the test worker exits without closing them. */
const live = new Set<ChildProcess>();
let exitHookInstalled = false;
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const child of live) {
      try {
        child.kill('SIGKILL');
      } catch {
        // already gone
      }
    }
  });
}

/** A free TCP port on 127.0.0.1 (bound and released at once). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export type GitdexRole = 'webhook' | 'indexer' | 'reader' | 'all';

export interface RoleProcessOptions {
  /** Label in logs and file names, e.g. "indexer-1". */
  name: string;
  role: GitdexRole;
  env: Record<string, string>;
  /** Where the output of every incarnation is appended (one file per process name). */
  logFile?: string;
  /** How long start() waits for "gitdex listening" (an indexer first joins its consumer group). */
  startTimeoutMs?: number;
}

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Milliseconds from the signal to the exit. */
  ms: number;
}

/** Keeps at most this much output in memory per process (the log file has everything). */
const MAX_OUTPUT = 4 * 1024 * 1024;

export class RoleProcess {
  readonly name: string;
  readonly role: GitdexRole;
  port = 0;
  child: ChildProcess | undefined;
  /** How many times the process was started. */
  starts = 0;
  private out = '';
  /** Characters dropped from the front of `out` (marks stay valid). */
  private dropped = 0;
  private readonly env: Record<string, string>;
  private readonly logFile: string | undefined;
  private readonly startTimeoutMs: number;

  constructor(options: RoleProcessOptions) {
    this.name = options.name;
    this.role = options.role;
    this.env = options.env;
    this.logFile = options.logFile;
    this.startTimeoutMs = options.startTimeoutMs ?? 90_000;
    if (this.logFile) mkdirSync(dirname(this.logFile), { recursive: true });
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Output of every incarnation so far (the newest ~4 MB). */
  output(): string {
    return this.out;
  }

  /** A mark for outputSince(). */
  mark(): number {
    return this.dropped + this.out.length;
  }

  outputSince(mark: number): string {
    return this.out.slice(Math.max(0, mark - this.dropped));
  }

  /** Spawns the role (on the port of the previous incarnation, if any) and waits until it listens. */
  async start(): Promise<void> {
    if (this.running) throw new Error(`${this.name} is already running`);
    if (!this.port) this.port = await freePort();
    installExitHook();
    this.starts += 1;
    const child = spawn(process.execPath, [MAIN], {
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', ...this.env, GITDEX_ROLE: this.role, PORT: String(this.port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    live.add(child);
    const startedAt = Date.now();
    this.append(`\n===== ${this.name} start #${this.starts} pid=${child.pid} at ${new Date().toISOString()} =====\n`);
    let mine = '';
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      mine += text;
      this.append(text);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code, signal) => {
      live.delete(child);
      this.append(`===== ${this.name} pid=${child.pid} exited code=${code} signal=${signal} at ${new Date().toISOString()} =====\n`);
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`${this.name} did not listen within ${this.startTimeoutMs / 1000}s:\n${mine.slice(-4000)}`));
      }, this.startTimeoutMs);
      const check = () => {
        if (/gitdex listening/.test(mine)) {
          cleanup();
          resolve();
        }
      };
      const onExit = (code: number | null, signal: string | null) => {
        cleanup();
        reject(new Error(`${this.name} exited (code ${code}, signal ${signal}) before listening:\n${mine.slice(-4000)}`));
      };
      const cleanup = () => {
        clearTimeout(timer);
        child.stdout?.off('data', check);
        child.off('exit', onExit);
      };
      child.stdout?.on('data', check);
      child.once('exit', onExit);
      check();
    });
    this.append(`===== ${this.name} listening on ${this.url} after ${Date.now() - startedAt} ms =====\n`);
  }

  /** Sends `signal` and waits for the exit (SIGKILL after `graceMs` if it is still running). */
  async kill(signal: NodeJS.Signals = 'SIGKILL', graceMs = 30_000): Promise<ExitInfo> {
    const child = this.child;
    if (!child || !this.running) return { code: child?.exitCode ?? null, signal: child?.signalCode ?? null, ms: 0 };
    const began = Date.now();
    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    child.kill(signal);
    let timer: NodeJS.Timeout | undefined;
    const forced = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), graceMs);
    });
    const first = await Promise.race([exited, forced]);
    clearTimeout(timer);
    if (first === 'timeout') {
      this.append(`===== ${this.name} did not exit ${graceMs} ms after ${signal}: SIGKILL =====\n`);
      child.kill('SIGKILL');
      const [code, sig] = await exited;
      return { code, signal: sig, ms: Date.now() - began };
    }
    const [code, sig] = first;
    return { code, signal: sig, ms: Date.now() - began };
  }

  /** A clean stop: SIGTERM, then waits for the exit. */
  stop(graceMs = 30_000): Promise<ExitInfo> {
    return this.kill('SIGTERM', graceMs);
  }

  private append(text: string): void {
    this.out += text;
    if (this.out.length > MAX_OUTPUT) {
      const cut = this.out.length - MAX_OUTPUT / 2;
      this.out = this.out.slice(cut);
      this.dropped += cut;
    }
    if (this.logFile) {
      try {
        appendFileSync(this.logFile, text);
      } catch {
        // logging is best effort
      }
    }
  }
}
