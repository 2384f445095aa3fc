// The git log walk over held commits against git itself, where order is hard: committer times out
// of order (a child older than its parent), equal times, merges whose sides change the same path,
// and a merge that takes one side's version whole. Records are built from git's own diff of each
// commit against its first parent, as the indexer stores them.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommitRecord } from '@gitdex/ports';
import { gitLog } from '../../src/history/git-log';

const dir = mkdtempSync(join(tmpdir(), 'gitdex-git-log-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
const git = (args: string[], input?: string, extra: Record<string, string> = {}) => execFileSync('git', ['-C', dir, ...args], { env: { ...env, ...extra }, input, encoding: 'utf8' }).trim();

/** A commit of `files` (path → content, null removes) on `parents`, at `time`. */
function commit(parents: string[], files: Record<string, string | null>, time: number, message: string): string {
  const index = join(dir, `.index-${message.replace(/\W/g, '')}`);
  const extra = { GIT_INDEX_FILE: index };
  git(parents[0] ? ['read-tree', parents[0]] : ['read-tree', '--empty'], undefined, extra);
  for (const [path, content] of Object.entries(files)) {
    if (content === null) git(['update-index', '--force-remove', path], undefined, extra);
    else git(['update-index', '--add', '--cacheinfo', `100644,${git(['hash-object', '-w', '--stdin'], content)},${path}`], undefined, extra);
  }
  const tree = git(['write-tree'], undefined, extra);
  const date = `${1_700_000_000 + time} +0000`;
  return git(['commit-tree', tree, ...parents.flatMap((p) => ['-p', p]), '-m', message], undefined, {
    GIT_AUTHOR_NAME: 'A',
    GIT_AUTHOR_EMAIL: 'a@x',
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_NAME: 'A',
    GIT_COMMITTER_EMAIL: 'a@x',
    GIT_COMMITTER_DATE: date,
  });
}

/** The record the indexer would store: files against the first parent (the empty tree for a root). */
function record(sha: string): CommitRecord {
  const parents = git(['rev-list', '--parents', '-n', '1', sha]).split(' ').slice(1);
  const time = Number(git(['log', '-1', '--format=%ct', sha]));
  const base = parents[0] ?? '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
  const raw = git(['diff-tree', '-r', '--no-renames', '--no-abbrev', base, sha]);
  const files =
    raw === ''
      ? []
      : raw.split('\n').map((line) => {
          const [meta = '', path = ''] = line.split('\t');
          const [, , before = '', after = '', letter = 'M'] = meta.split(' ');
          const status = letter === 'A' ? 'added' : letter === 'D' ? 'removed' : 'modified';
          const none = /^0+$/;
          return { path, previousPath: null, status, additions: 0, deletions: 0, blobBefore: none.test(before) ? null : before, blobAfter: none.test(after) ? null : after } as const;
        });
  const person = { name: 'A', email: 'a@x', date: new Date(time * 1000).toISOString() };
  return { sha, parents, author: person, committer: person, message: sha, files, filesComplete: true };
}

test('equal to git log, with and without paths, through skewed and equal times and merges', () => {
  git(['init', '-q']);
  const root = commit([], { 'a.txt': 'a1\n', 'b/x.txt': 'x1\n', 'c.txt': 'c1\n' }, 1000, 'root');
  const left1 = commit([root], { 'a.txt': 'a2\n' }, 2000, 'left1');
  // Older than its parent: git still shows it after its child.
  const left2 = commit([left1], { 'b/x.txt': 'x2\n' }, 1500, 'left2');
  const right1 = commit([root], { 'c.txt': 'c2\n', 'b/y.txt': 'y1\n' }, 2000, 'right1');
  const right2 = commit([right1], { 'a.txt': 'a2\n' }, 2500, 'right2');
  // Same content of a.txt on both sides; b/ differs: TREESAME to one parent for a.txt only.
  const merge = commit([left2, right2], { 'c.txt': 'c2\n', 'b/y.txt': 'y1\n' }, 3000, 'merge');
  const after = commit([merge], { 'c.txt': null }, 3000, 'after');
  // A merge that keeps the first parent's tree whole (git merge -s ours).
  const side = commit([after], { 'd.txt': 'd1\n' }, 3100, 'side');
  const ours = commit([after, side], {}, 3200, 'ours');
  const records = new Map([root, left1, left2, right1, right2, merge, after, side, ours].map((sha) => [sha, record(sha)]));

  for (const path of [undefined, 'a.txt', 'b', 'b/x.txt', 'b/y.txt', 'c.txt', 'd.txt', 'nothing']) {
    const truth = git(['log', '--format=%H', ours, '--', ...(path ? [path] : [])]);
    expect({ path, shas: gitLog(records, ours, path).shas }).toEqual({ path, shas: truth === '' ? [] : truth.split('\n') });
  }
  // Held from `merge` down only: the walk stops at the parents it lacks, and says so.
  const held = new Map([merge, after, ours].map((sha) => [sha, records.get(sha) as CommitRecord]));
  expect(gitLog(held, ours)).toEqual({ shas: [ours, after, merge], reachedBoundary: true });
});
