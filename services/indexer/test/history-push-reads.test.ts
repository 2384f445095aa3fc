/**
 * What recording history reads and when it stores blames, on a real SQLite history store: a
 * push's blames read one stored blame per changed path however far below the path last changed;
 * the commits a ref holds are read from the store once per process; the blames are stored after
 * the flip, and a store failing there leaves the ref's history settled and counts the versions as
 * left to the reader.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cachedCommits, decodeVersionBlame, heldKey } from '@gitdex/diff';
import { type CommitRecord, type HistoryStore, PortError } from '@gitdex/ports';
import { SqliteHistory } from '@gitdex/sqlite';
import { settleHistory } from '../src/history/record-history';
import { storeVersionBlames } from '../src/history/version-blames';

const REPO = 11;
const LINE = 60;
const sha = (n: number): string => `d${n.toString(16).padStart(39, '0')}`;
const blob = (name: string, n: number): string => `${name === 'f' ? 'e' : 'a'}${n.toString(16).padStart(39, '0')}`;
const text = (name: string, n: number): string => Array.from({ length: n + 1 }, (_, k) => `${name} ${k}\n`).join('');

/** Commit 0 adds f and g; 1..LINE change g only; LINE + 1 changes f. */
function commit(n: number): CommitRecord {
  const date = new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString();
  const change = (name: string) =>
    n === 0
      ? { path: name, previousPath: null, status: 'added' as const, additions: 1, deletions: 0, blobBefore: null, blobAfter: blob(name, 0) }
      : { path: name, previousPath: null, status: 'modified' as const, additions: 1, deletions: 0, blobBefore: blob(name, name === 'f' ? 0 : n - 1), blobAfter: blob(name, name === 'f' ? 1 : n) };
  return {
    sha: sha(n),
    parents: n === 0 ? [] : [sha(n - 1)],
    author: { name: 'A', email: 'a@example.com', date },
    committer: { name: 'A', email: 'a@example.com', date },
    message: `commit ${n}`,
    files: n === 0 ? [change('f'), change('g')] : n <= LINE ? [change('g')] : [change('f')],
    filesComplete: true,
  };
}

/** The store, counting what is asked of it. */
function counted(store: SqliteHistory, counts: { blamesAsked: number; commitsAsked: number }, failBlameWrites = false): HistoryStore {
  return new Proxy(store, {
    get(target, name, receiver) {
      if (name === 'getVersionBlames')
        return (repositoryId: number, wanted: { key: string; path: string }[]) => {
          counts.blamesAsked += wanted.length;
          return target.getVersionBlames(repositoryId, wanted);
        };
      if (name === 'getCommits')
        return (repositoryId: number, shas: string[]) => {
          counts.commitsAsked += shas.length;
          return target.getCommits(repositoryId, shas);
        };
      if (name === 'putVersionBlames' && failBlameWrites) return () => Promise.reject(new PortError('UNAVAILABLE', 'the history store is down'));
      const value: unknown = Reflect.get(target, name, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

describe('recording a push', () => {
  let dir: string;
  let sqlite: SqliteHistory;
  const chain = Array.from({ length: LINE + 2 }, (_, n) => commit(n));
  const held = (last: number): Map<string, CommitRecord> => new Map(chain.slice(0, last + 1).map((c) => [c.sha, c]));

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gitdex-history-push-reads-'));
    sqlite = new SqliteHistory({ file: join(dir, 'history.sqlite') });
    await sqlite.putCommits(REPO, chain);
    await sqlite.putHistoryBlobs(REPO, [
      { sha: blob('f', 0), content: Buffer.from(text('f', 0)) },
      { sha: blob('f', 1), content: Buffer.from(text('f', 1)) },
      ...chain.map((_, n) => ({ sha: blob('g', n), content: Buffer.from(text('g', n)) })),
    ]);
    await storeVersionBlames(sqlite, REPO, held(LINE), chain.slice(0, LINE + 1));
  });
  afterAll(() => {
    sqlite.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('blames a changed path from the one stored blame of the commit that last changed it, however far below', async () => {
    const counts = { blamesAsked: 0, commitsAsked: 0 };
    const all = held(LINE + 1);
    expect(await storeVersionBlames(counted(sqlite, counts), REPO, all, [chain[LINE + 1]!])).toMatchObject({ stored: 1, skipped: 0 });
    expect(counts.blamesAsked).toBe(1);
    const [found] = await sqlite.getVersionBlames(REPO, [{ key: heldKey(sha(LINE + 1), (c) => all.get(c)?.parents, new Map()), path: 'f' }]);
    const version = decodeVersionBlame(found!.blame);
    expect(Array.from(version.owner!, (o) => version.owners[o]!.commit)).toEqual([sha(0), sha(LINE + 1)]);
  });

  it('reads the commits a ref holds from the store once', async () => {
    const counts = { blamesAsked: 0, commitsAsked: 0 };
    const store = counted(sqlite, counts);
    const shas = chain.slice(0, LINE).map((c) => c.sha);
    expect((await cachedCommits(store, REPO, shas, (missing) => store.getCommits(REPO, missing))).map((c) => c.sha).sort()).toEqual([...shas].sort());
    expect(counts.commitsAsked).toBe(LINE);
    const more = [...shas, sha(LINE)];
    expect((await cachedCommits(store, REPO, more, (missing) => store.getCommits(REPO, missing))).map((c) => c.sha).sort()).toEqual([...more].sort());
    expect(counts.commitsAsked).toBe(LINE + 1);
  });

  it('stores blames after the flip, and a store failing there settles the ref and leaves the versions to the reader', async () => {
    const counts = { blamesAsked: 0, commitsAsked: 0 };
    const all = held(LINE + 1);
    const recorded = { repositoryId: REPO, ref: 'refs/heads/main', head: sha(LINE + 1), held: [...all.keys()], dropped: 0, added: 1, blame: { held: all, records: [chain[LINE + 1]!] } };
    await sqlite.putRefHistory({ repositoryId: REPO, ref: 'refs/heads/main', head: sha(LINE + 1), commits: [...all.keys(), sha(999)] });
    const options = { depth: 500, maxBlobBytes: 1 << 20, concurrency: 4 };
    expect(await settleHistory({ store: counted(sqlite, counts, true), options }, recorded)).toEqual({ stored: 0, skipped: 1, bytes: 0, failed: 1 });
    expect((await sqlite.getRefHistory(REPO, 'refs/heads/main'))?.commits.sort()).toEqual([...all.keys()].sort());
    expect(await settleHistory({ store: sqlite, options }, recorded)).toMatchObject({ stored: 1, failed: 0 });
  });
});
