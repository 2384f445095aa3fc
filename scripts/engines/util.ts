// Small helpers shared by the engines modules: files, child commands, the log callback.
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** Where progress lines go (stderr in the CLI, a labelled prefix in tests). */
export type Log = (line: string) => void;

export const stderrLog: Log = (line) => process.stderr.write(`[engines] ${line}\n`);

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

export function writeJson(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** The last lines of a log file, for error messages. */
export function tail(file: string, lines = 40): string {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

export function tailText(text: string, lines = 30): string {
  return text.split('\n').slice(-lines).join('\n');
}

export interface RunResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function run(cmd: string, args: string[], options: SpawnSyncOptions = {}): RunResult {
  const res = spawnSync(cmd, args, { encoding: 'utf8', ...options });
  if (res.error) throw new Error(`${cmd} could not run: ${res.error.message}`);
  return { status: res.status, stdout: String(res.stdout ?? ''), stderr: String(res.stderr ?? '') };
}

export function runChecked(cmd: string, args: string[], options: SpawnSyncOptions = {}): RunResult {
  const res = run(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
  if (res.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${res.status}):\n${res.stdout}${res.stderr}`);
  return res;
}

export function hasCommand(name: string): boolean {
  return run('sh', ['-c', `command -v ${name}`], { stdio: ['ignore', 'pipe', 'ignore'] }).status === 0;
}

export function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

export function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
