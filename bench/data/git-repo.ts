import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SourceFile } from './files';

/** Git with the user's configuration kept out, as the stand-in's fixtures do. */
const GIT_ENV = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'gitdex bench',
  GIT_AUTHOR_EMAIL: 'bench@example.com',
  GIT_COMMITTER_NAME: 'gitdex bench',
  GIT_COMMITTER_EMAIL: 'bench@example.com',
};

export function git(gitDir: string | null, args: string[], options: { input?: string | Buffer; env?: Record<string, string> } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', gitDir ? [`--git-dir=${gitDir}`, ...args] : args, {
      env: { ...process.env, ...GIT_ENV, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.once('error', reject);
    child.once('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else reject(new Error(`git ${args.slice(0, 3).join(' ')} failed (${code}): ${Buffer.concat(err).toString('utf8').slice(0, 2000)}`));
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
  });
}

/** An empty bare repository on branch main (the stand-in serves <root>/<owner>/<name>). */
export async function initBare(dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  await git(null, ['init', '-q', '--bare', '-b', 'main', dir]);
}

/**
 * Commits exactly `files` as the next commit of main, with plumbing and one batched
 * `hash-object --stdin-paths` (fast for 50,000 files). Answers the commit sha.
 */
export async function commitSnapshot(gitDir: string, files: readonly SourceFile[], message: string): Promise<string> {
  const shas: string[] = [];
  for (let i = 0; i < files.length; i += 5000) {
    const chunk = files.slice(i, i + 5000);
    const out = await git(gitDir, ['hash-object', '-w', '--no-filters', '--stdin-paths'], { input: chunk.map((f) => f.abs).join('\n') + '\n' });
    const lines = out.trim().split('\n');
    if (lines.length !== chunk.length) throw new Error(`hash-object answered ${lines.length} shas for ${chunk.length} files`);
    for (const sha of lines) shas.push(sha);
  }
  const index = join(tmpdir(), `bench-index-${randomBytes(6).toString('hex')}`);
  try {
    const records = files.map((f, i) => `${f.executable ? '100755' : '100644'} ${shas[i]}\t${f.path}\0`).join('');
    await git(gitDir, ['update-index', '-z', '--add', '--index-info'], { input: records, env: { GIT_INDEX_FILE: index } });
    const tree = (await git(gitDir, ['write-tree'], { env: { GIT_INDEX_FILE: index } })).trim();
    const parent = (await git(gitDir, ['rev-parse', '--verify', '--quiet', 'refs/heads/main']).catch(() => '')).trim();
    const commit = (await git(gitDir, ['commit-tree', tree, ...(parent ? ['-p', parent] : []), '-F', '-'], { input: message })).trim();
    await git(gitDir, ['update-ref', 'refs/heads/main', commit]);
    return commit;
  } finally {
    rmSync(index, { force: true });
  }
}

/** A copy sharing the objects (instant): a new repository name with the same content. */
export async function cloneShared(from: string, to: string): Promise<void> {
  await git(null, ['clone', '-q', '--bare', '--shared', from, to]);
}

/** A plain checkout of main into `dest` (what the filesystem MCP server reads). */
export async function exportTree(gitDir: string, dest: string): Promise<void> {
  mkdirSync(dest, { recursive: true });
  await new Promise<void>((resolve, reject) => {
    const archive = spawn('git', [`--git-dir=${gitDir}`, 'archive', '--format=tar', 'main'], { env: { ...process.env, ...GIT_ENV }, stdio: ['ignore', 'pipe', 'inherit'] });
    const untar = spawn('tar', ['-x', '-C', dest], { stdio: ['pipe', 'ignore', 'inherit'] });
    archive.stdout.pipe(untar.stdin);
    archive.once('error', reject);
    untar.once('error', reject);
    untar.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`tar -x exited with ${code}`))));
  });
}

export async function headOf(gitDir: string): Promise<string> {
  return (await git(gitDir, ['rev-parse', 'refs/heads/main'])).trim();
}
