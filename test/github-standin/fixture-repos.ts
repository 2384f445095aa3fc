// Test helper: throw-away git repositories laid out as <root>/<owner>/<repo> for the stand-in.
// Commits are made with plumbing on a temporary index, so any branch can be committed to;
// when the branch is checked out, the working tree is then reset to it (uncommitted edits are lost).
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git, gitText, runGit, ZERO_SHA } from './git';

/** File content: text/bytes, an executable file, a symlink, or a submodule (gitlink) commit. */
export type FileContent = string | Buffer | { content: string | Buffer; executable?: boolean | undefined } | { symlink: string } | { submodule: string; url?: string | undefined };

/** Path -> new content, or null to delete the path. */
export type FileChanges = Record<string, FileContent | null>;

export interface CommitOptions {
  /** Branch to commit to (default: the checked-out branch). */
  branch?: string;
  author?: { name: string; email: string };
  /** Commit date (default: now, strictly increasing between commits of this process). */
  date?: Date;
}

export interface FixtureRepo {
  owner: string;
  name: string;
  dir: string;
  /** The first commit, or null for an empty repository. */
  sha: string | null;
}

let lastEpoch = 0;
function commitEpoch(date?: Date): number {
  if (date) return Math.floor(date.getTime() / 1000);
  lastEpoch = Math.max(Math.floor(Date.now() / 1000), lastEpoch + 1);
  return lastEpoch;
}

/** Keeps the user's git configuration (signing, hooks, default branch) out of fixtures. */
const ISOLATED_ENV = { GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };

/** Runs git in a fixture repository with an isolated configuration. */
export function fixtureGit(dir: string, args: string[], input?: string | Buffer, env: Record<string, string> = {}): Promise<Buffer> {
  return git(dir, args, { input, env: { ...ISOLATED_ENV, ...env } });
}

export async function makeTempRoot(prefix = 'github-standin-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

export async function removeTempRoot(root: string): Promise<void> {
  await rm(root, { recursive: true, force: true });
}

export async function headSha(dir: string, ref = 'HEAD'): Promise<string> {
  return gitText(dir, ['rev-parse', '--verify', `${ref}^{commit}`]);
}

async function currentBranch(dir: string): Promise<string> {
  return gitText(dir, ['symbolic-ref', '--short', 'HEAD']);
}

async function isBare(dir: string): Promise<boolean> {
  return (await gitText(dir, ['rev-parse', '--is-bare-repository'])) === 'true';
}

/** The mode and bytes of a file entry; null for deletions and submodules, which store no blob. */
function blobOf(value: FileContent | null): { mode: string; data: string | Buffer } | null {
  if (value === null || (typeof value === 'object' && 'submodule' in value)) return null;
  if (typeof value === 'string' || Buffer.isBuffer(value)) return { mode: '100644', data: value };
  if ('symlink' in value) return { mode: '120000', data: value.symlink };
  return { mode: value.executable ? '100755' : '100644', data: value.content };
}

/**
 * `git update-index --index-info` records for the changes. Blobs are written by one
 * `git hash-object --stdin-paths` over files in a scratch folder: one process per commit
 * rather than one per file keeps a 50,000-file fixture to seconds.
 */
async function indexRecords(dir: string, changes: [string, FileContent | null][]): Promise<string[]> {
  const blobs = changes.flatMap(([path, value]) => {
    const blob = blobOf(value);
    return blob ? [{ path, ...blob }] : [];
  });
  const shas = new Map<string, string>();
  if (blobs.length > 0) {
    const scratch = await mkdtemp(join(tmpdir(), 'standin-blobs-'));
    try {
      const files = blobs.map((_, i) => join(scratch, String(i)));
      for (let i = 0; i < blobs.length; i += 256) await Promise.all(blobs.slice(i, i + 256).map((blob, j) => writeFile(files[i + j]!, blob.data)));
      const out = await gitText(dir, ['hash-object', '-w', '--no-filters', '--stdin-paths'], { input: files.join('\n') + '\n' });
      out.split('\n').forEach((sha, i) => shas.set(blobs[i]!.path, sha));
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }
  return changes.map(([path, value]) => {
    if (value === null) return `0 ${ZERO_SHA}\t${path}`;
    if (typeof value === 'object' && 'submodule' in value) return `160000 ${value.submodule}\t${path}`;
    return `${blobOf(value)!.mode} ${shas.get(path)!}\t${path}`;
  });
}

async function gitmodulesWith(dir: string, parent: string | null, changes: FileChanges): Promise<FileChanges> {
  const submodules = Object.entries(changes).filter((e): e is [string, { submodule: string; url?: string }] => typeof e[1] === 'object' && e[1] !== null && 'submodule' in e[1]);
  if (submodules.length === 0 || '.gitmodules' in changes) return changes;
  const existing = parent ? await runGit(dir, ['cat-file', 'blob', `${parent}:.gitmodules`]) : null;
  let text = existing?.code === 0 ? existing.stdout.toString('utf8') : '';
  for (const [path, { url }] of submodules) {
    if (!text.includes(`[submodule "${path}"]`)) text += `[submodule "${path}"]\n\tpath = ${path}\n\turl = ${url ?? `https://github.com/example/${path.split('/').pop()}.git`}\n`;
  }
  return { ...changes, '.gitmodules': text };
}

/**
 * Commits `changes` on top of the branch (or as a parentless commit with `orphan`, whose tree
 * holds only `changes`). Answers the new commit SHA.
 */
async function commitTree(dir: string, changes: FileChanges, message: string, options: CommitOptions & { orphan?: boolean } = {}): Promise<string> {
  const branch = options.branch ?? (await currentBranch(dir));
  const ref = `refs/heads/${branch}`;
  const previous = (await runGit(dir, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`])).stdout.toString('utf8').trim() || null;
  const parent = options.orphan ? null : previous;
  const index = join(tmpdir(), `standin-index-${randomBytes(8).toString('hex')}`);
  const env = { ...ISOLATED_ENV, GIT_INDEX_FILE: index };
  try {
    await git(dir, parent ? ['read-tree', parent] : ['read-tree', '--empty'], { env });
    const all = await gitmodulesWith(dir, parent, changes);
    const records = await indexRecords(dir, Object.entries(all));
    await git(dir, ['update-index', '-z', '--index-info'], { env, input: records.map((r) => `${r}\0`).join('') });
    const tree = await gitText(dir, ['write-tree'], { env });
    const who = options.author ?? { name: 'Stand-in Tester', email: 'tester@example.com' };
    const date = `${commitEpoch(options.date)} +0000`;
    const identity = { GIT_AUTHOR_NAME: who.name, GIT_AUTHOR_EMAIL: who.email, GIT_AUTHOR_DATE: date, GIT_COMMITTER_NAME: who.name, GIT_COMMITTER_EMAIL: who.email, GIT_COMMITTER_DATE: date };
    const sha = await gitText(dir, ['commit-tree', tree, ...(parent ? ['-p', parent] : []), '-F', '-'], { env: { ...env, ...identity }, input: message });
    await git(dir, ['update-ref', '-m', `fixture: ${message.split('\n')[0]}`, ref, sha, previous ?? ZERO_SHA], { env: ISOLATED_ENV });
    await syncWorktree(dir, branch);
    return sha;
  } finally {
    await rm(index, { force: true });
  }
}

/** Resets the working tree and index of a non-bare repo when `branch` is checked out. */
async function syncWorktree(dir: string, branch: string): Promise<void> {
  if ((await isBare(dir)) || (await currentBranch(dir)) !== branch) return;
  await fixtureGit(dir, ['reset', '--hard', '-q']);
}

export async function commitFiles(dir: string, changes: FileChanges, message: string, options: CommitOptions = {}): Promise<string> {
  return commitTree(dir, changes, message, options);
}

/** Creates <root>/<owner>/<repo> (empty when `files` is empty) on `branch` (default main). */
export async function createRepo(root: string, owner: string, name: string, files: FileChanges = {}, options: CommitOptions & { bare?: boolean; message?: string } = {}): Promise<FixtureRepo> {
  const dir = join(root, owner, name);
  await mkdir(dir, { recursive: true });
  const branch = options.branch ?? 'main';
  await fixtureGit(dir, ['init', '-q', ...(options.bare ? ['--bare'] : []), '-b', branch, dir]);
  const sha = Object.keys(files).length > 0 ? await commitFiles(dir, files, options.message ?? 'Initial commit', { ...options, branch }) : null;
  return { owner, name, dir, sha };
}

export async function createBranch(dir: string, name: string, from = 'HEAD'): Promise<string> {
  const sha = await headSha(dir, from);
  await fixtureGit(dir, ['update-ref', `refs/heads/${name}`, sha, ZERO_SHA]);
  return sha;
}

export async function deleteBranch(dir: string, name: string): Promise<void> {
  await fixtureGit(dir, ['update-ref', '-d', `refs/heads/${name}`]);
}

/** Lightweight tag, or annotated when a message is given. */
export async function createTag(dir: string, name: string, from = 'HEAD', options: { message?: string } = {}): Promise<void> {
  const args = options.message ? ['tag', '-a', '-m', options.message, name, from] : ['tag', name, from];
  await fixtureGit(dir, args, undefined, { GIT_COMMITTER_NAME: 'Stand-in Tester', GIT_COMMITTER_EMAIL: 'tester@example.com' });
}

/** Moves a branch to any commit (e.g. back in history), like a force push. */
export async function resetBranch(dir: string, branch: string, sha: string): Promise<void> {
  await fixtureGit(dir, ['update-ref', `refs/heads/${branch}`, sha]);
  await syncWorktree(dir, branch);
}

/** Force-push of unrelated history: the branch becomes a parentless commit holding exactly `files`. */
export async function forcePush(dir: string, branch: string, files: FileChanges, message = 'Rewrite history'): Promise<string> {
  return commitTree(dir, files, message, { branch, orphan: true });
}

/** Moves a path (file or submodule) in one commit; git sees a delete plus an add. */
export async function renamePath(dir: string, from: string, to: string, message = `Rename ${from} to ${to}`, options: CommitOptions = {}): Promise<string> {
  const branch = options.branch ?? (await currentBranch(dir));
  const out = await fixtureGit(dir, ['ls-tree', '-z', '-r', `refs/heads/${branch}`, '--', from]);
  const entries = out
    .toString('utf8')
    .split('\0')
    .filter((e) => e !== '');
  if (entries.length === 0) throw new Error(`${from} not found on ${branch}`);
  const changes: FileChanges = {};
  for (const entry of entries) {
    const [meta = '', path = ''] = entry.split('\t');
    const [mode, , sha = ''] = meta.split(' ');
    const target = to + path.slice(from.length);
    const blob = mode === '160000' ? null : await fixtureGit(dir, ['cat-file', 'blob', sha]);
    changes[path] = null;
    if (mode === '160000') changes[target] = { submodule: sha };
    else if (mode === '120000') changes[target] = { symlink: (blob ?? Buffer.alloc(0)).toString('utf8') };
    else changes[target] = { content: blob ?? Buffer.alloc(0), executable: mode === '100755' };
  }
  return commitTree(dir, changes, message, { ...options, branch });
}

export async function addSymlink(dir: string, path: string, target: string, message = `Add symlink ${path}`, options: CommitOptions = {}): Promise<string> {
  return commitTree(dir, { [path]: { symlink: target } }, message, options);
}

/** Adds a gitlink (mode 160000) at `path` pointing at `sha`, plus its .gitmodules entry. */
export async function addSubmodule(dir: string, path: string, sha: string, url?: string, message = `Add submodule ${path}`, options: CommitOptions = {}): Promise<string> {
  return commitTree(dir, { [path]: { submodule: sha, url } }, message, options);
}
