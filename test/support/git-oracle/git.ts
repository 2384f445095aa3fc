/** The real `git` CLI as the oracle: runs it with no user or system configuration. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Git {
  readonly dir: string;
  run(args: readonly string[], extraEnv?: Record<string, string>): string;
  runBytes(args: readonly string[], extraEnv?: Record<string, string>): Buffer;
  close(): void;
}

export function gitIn(dir: string): Omit<Git, 'close'> {
  const env = {
    PATH: process.env['PATH'] ?? '',
    HOME: dir,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_AUTHOR_NAME: 'Ada',
    GIT_AUTHOR_EMAIL: 'ada@example.com',
    GIT_COMMITTER_NAME: 'Ada',
    GIT_COMMITTER_EMAIL: 'ada@example.com',
    LC_ALL: 'C',
  };
  const runBytes = (args: readonly string[], extraEnv: Record<string, string> = {}): Buffer => {
    try {
      return execFileSync('git', args, { cwd: dir, env: { ...env, ...extraEnv }, maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (e) {
      // `git diff --no-index` exits 1 when the files differ: that is an answer, not a failure.
      const err = e as { status?: number; stdout?: Buffer };
      if (err.status === 1 && args.includes('--no-index') && err.stdout) return err.stdout;
      throw e;
    }
  };
  return { dir, runBytes, run: (args, extraEnv) => runBytes(args, extraEnv).toString('utf8') };
}

export function tempGit(prefix: string): Git {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { ...gitIn(dir), close: () => rmSync(dir, { recursive: true, force: true }) };
}
