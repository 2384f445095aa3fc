// Reads committed objects (commits, trees, blobs) and resolves refs with git plumbing.
import { git, gitText, isHexSha, isSafeRefName, runGit, splitNul } from './git';

export type ObjectType = 'blob' | 'tree' | 'commit' | 'tag';

export interface Person {
  name: string;
  email: string;
  /** Seconds since the epoch. */
  epoch: number;
  /** Timezone offset as written by git, e.g. "+0100". */
  tz: string;
}

export interface CommitInfo {
  sha: string;
  tree: string;
  parents: string[];
  author: Person;
  committer: Person;
  message: string;
}

export interface TreeEntry {
  path: string;
  mode: string;
  type: 'blob' | 'tree' | 'commit';
  sha: string;
  /** Blob size in bytes; undefined for trees and submodules (gitlinks). */
  size?: number;
}

export async function objectType(dir: string, sha: string): Promise<ObjectType | null> {
  if (!isHexSha(sha)) return null;
  const result = await runGit(dir, ['cat-file', '-t', sha]);
  if (result.code !== 0) return null;
  return result.stdout.toString('utf8').trim() as ObjectType;
}

/** `git rev-parse --verify` that answers null instead of failing. */
export async function revParse(dir: string, spec: string): Promise<string | null> {
  const result = await runGit(dir, ['rev-parse', '--verify', '--quiet', spec]);
  return result.code === 0 ? result.stdout.toString('utf8').trim() : null;
}

/** Candidate revision names for a GitHub-style ref: branch, tag, full ref, HEAD or (short) SHA. */
function candidates(ref: string): string[] {
  if (!isSafeRefName(ref)) return [];
  if (ref.startsWith('refs/')) return [ref];
  // GitHub reads "heads/x" and "tags/x" as those refs, so a tag and a branch of one name stay apart.
  if (/^(heads|tags)\//.test(ref)) return [`refs/${ref}`];
  const names = ref === 'HEAD' ? ['HEAD'] : [`refs/heads/${ref}`, `refs/tags/${ref}`];
  const sha = ref.toLowerCase();
  if (!isHexSha(sha)) return names;
  // A full SHA is almost never a branch name: try it first.
  return sha.length === 40 ? [sha, ...names] : [...names, sha];
}

async function resolvePeeled(dir: string, ref: string, kind: 'commit' | 'tree'): Promise<string | null> {
  for (const name of candidates(ref)) {
    const sha = await revParse(dir, `${name}^{${kind}}`);
    if (sha) return sha;
  }
  return null;
}

/** Resolves a branch, tag, full ref or SHA to a commit SHA. */
export function resolveCommit(dir: string, ref: string): Promise<string | null> {
  return resolvePeeled(dir, ref, 'commit');
}

/** Resolves a tree SHA, commit SHA, branch or tag to a tree SHA (like GitHub's git/trees). */
export function resolveTree(dir: string, ref: string): Promise<string | null> {
  return resolvePeeled(dir, ref, 'tree');
}

function parsePerson(value: string): Person {
  const match = /^(.*) <(.*)> (-?\d+) ([+-]\d{4})$/.exec(value);
  if (!match) return { name: value, email: '', epoch: 0, tz: '+0000' };
  return { name: match[1] ?? '', email: match[2] ?? '', epoch: Number(match[3]), tz: match[4] ?? '+0000' };
}

/** Parses `git cat-file commit` output (headers, blank line, message). */
export function parseCommit(sha: string, raw: string): CommitInfo {
  const split = raw.indexOf('\n\n');
  const headerText = split === -1 ? raw : raw.slice(0, split);
  const message = split === -1 ? '' : raw.slice(split + 2);
  const info: CommitInfo = { sha, tree: '', parents: [], author: parsePerson(''), committer: parsePerson(''), message };
  for (const line of headerText.split('\n')) {
    if (line.startsWith(' ')) continue; // continuation of a multi-line header (gpgsig)
    const space = line.indexOf(' ');
    const key = line.slice(0, space);
    const value = line.slice(space + 1);
    if (key === 'tree') info.tree = value;
    else if (key === 'parent') info.parents.push(value);
    else if (key === 'author') info.author = parsePerson(value);
    else if (key === 'committer') info.committer = parsePerson(value);
  }
  return info;
}

export async function readCommit(dir: string, sha: string): Promise<CommitInfo | null> {
  if (!isHexSha(sha)) return null;
  const result = await runGit(dir, ['cat-file', 'commit', sha]);
  if (result.code !== 0) return null;
  const full = sha.length === 40 ? sha : await gitText(dir, ['rev-parse', '--verify', `${sha}^{commit}`]);
  return parseCommit(full, result.stdout.toString('utf8'));
}

/** Lists a tree (pre-order when recursive, trees included like GitHub's API). */
export async function listTree(dir: string, treeSha: string, recursive: boolean): Promise<TreeEntry[]> {
  const args = ['ls-tree', '-z', '-l', '--full-tree'];
  if (recursive) args.push('-r', '-t');
  args.push(treeSha);
  return splitNul(await git(dir, args)).map((record) => {
    const tab = record.indexOf('\t');
    const [mode = '', type = 'blob', sha = '', size = '-'] = record.slice(0, tab).split(/ +/);
    const entry: TreeEntry = { path: record.slice(tab + 1), mode, type: type as TreeEntry['type'], sha };
    if (entry.type === 'blob') entry.size = Number(size);
    return entry;
  });
}

export async function readBlob(dir: string, sha: string): Promise<Buffer | null> {
  if ((await objectType(dir, sha)) !== 'blob') return null;
  return git(dir, ['cat-file', 'blob', sha]);
}

/** True when `ancestor` is reachable from `descendant` (both must exist). */
export async function isAncestor(dir: string, ancestor: string, descendant: string): Promise<boolean> {
  const result = await runGit(dir, ['merge-base', '--is-ancestor', ancestor, descendant]);
  return result.code === 0;
}

/** Commits reachable from `head` but not from any of `exclude`, oldest first. */
export async function revList(dir: string, head: string, exclude: readonly string[]): Promise<string[]> {
  const out = await gitText(dir, ['rev-list', '--reverse', '--topo-order', head, '--not', ...exclude, '--']);
  return out === '' ? [] : out.split('\n');
}

export async function mergeBase(dir: string, a: string, b: string): Promise<string | null> {
  const result = await runGit(dir, ['merge-base', a, b]);
  return result.code === 0 ? result.stdout.toString('utf8').trim() : null;
}

export function isoUtc(person: Person): string {
  return new Date(person.epoch * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** ISO 8601 in the committer's own offset, like push payload timestamps ("...T10:00:00+01:00"). */
export function isoWithOffset(person: Person): string {
  const sign = person.tz.startsWith('-') ? -1 : 1;
  const minutes = sign * (Number(person.tz.slice(1, 3)) * 60 + Number(person.tz.slice(3, 5)));
  if (minutes === 0) return isoUtc(person);
  const local = new Date((person.epoch + minutes * 60) * 1000).toISOString().slice(0, 19);
  return `${local}${person.tz.slice(0, 3)}:${person.tz.slice(3, 5)}`;
}
