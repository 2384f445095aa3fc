// Runs git plumbing commands in a repository directory. Output is kept as raw bytes
// so callers can split on NUL (-z) and decode paths as UTF-8 themselves.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

export const ZERO_SHA = '0000000000000000000000000000000000000000';
export const EMPTY_TREE_SHA = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

export interface GitRunOptions {
  input?: string | Buffer | undefined;
  env?: Record<string, string> | undefined;
}

export interface GitResult {
  code: number;
  stdout: Buffer;
  stderr: string;
}

export class GitError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly code: number,
    readonly stderr: string,
  ) {
    super(`git ${args.join(' ')} failed (${code}): ${stderr.trim()}`);
    this.name = 'GitError';
  }
}

const BASE_ARGS = ['-c', 'core.quotepath=false', '-c', 'core.precomposeunicode=true'];

/** Starts git with the stand-in's base configuration; the caller owns the process. */
export function spawnGit(cwd: string, args: readonly string[], env?: Record<string, string>): ChildProcessWithoutNullStreams {
  return spawn('git', [...BASE_ARGS, ...args], {
    cwd,
    env: { ...process.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/** Runs git and resolves with its exit code and output; never rejects on a non-zero exit. */
export function runGit(cwd: string, args: readonly string[], options: GitRunOptions = {}): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = spawnGit(cwd, args, options.env);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      resolve({ code: code ?? -1, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
  });
}

/** Runs git and returns stdout; rejects with GitError on a non-zero exit. */
export async function git(cwd: string, args: readonly string[], options: GitRunOptions = {}): Promise<Buffer> {
  const result = await runGit(cwd, args, options);
  if (result.code !== 0) throw new GitError(args, result.code, result.stderr);
  return result.stdout;
}

/** Runs git and returns stdout as UTF-8 without the trailing newline. */
export async function gitText(cwd: string, args: readonly string[], options: GitRunOptions = {}): Promise<string> {
  return (await git(cwd, args, options)).toString('utf8').replace(/\n$/, '');
}

/** Splits NUL-terminated output (-z) into UTF-8 strings, dropping the final empty field. */
export function splitNul(output: Buffer): string[] {
  const fields = output.toString('utf8').split('\0');
  if (fields.length > 0 && fields[fields.length - 1] === '') fields.pop();
  return fields;
}

const HEX = /^[0-9a-f]{4,40}$/;

export function isHexSha(value: string): boolean {
  return HEX.test(value);
}

/**
 * True when `ref` is a name git would accept as a branch/tag/ref (so it can be passed to
 * rev-parse without being mistaken for an option or a revision expression).
 */
export function isSafeRefName(ref: string): boolean {
  if (ref.length === 0 || ref.length > 1024 || ref.startsWith('-') || ref.startsWith('/')) return false;
  if (ref.endsWith('/') || ref.endsWith('.') || ref.endsWith('.lock')) return false;
  // eslint-disable-next-line no-control-regex -- git check-ref-format refuses control characters in a ref
  return !/[\x00-\x20\x7f~^:?*[\\]|\.\.|@\{|\/\/|\/\./.test(ref);
}
