/**
 * The version blames the indexer stores, on a real SQLite history store: a backfill oldest first
 * stores every version a commit created, and what it stores is what blame answers; a push builds
 * on its parent's stored blame; a version needing more than MAX_VERSIONS versions below it, or
 * whose bytes history does not hold, is left to the reader.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeVersionBlame, heldKey } from '@gitdex/diff';
import type { CommitRecord } from '@gitdex/ports';
import { SqliteHistory } from '@gitdex/sqlite';
import { MAX_VERSIONS, storeVersionBlames } from '../src/history/version-blames';

const REPO = 7;
const sha = (n: number): string => `c${n.toString(16).padStart(39, '0')}`;
const blob = (n: number): string => `b${n.toString(16).padStart(39, '0')}`;
/** Version n of f: lines 0..n, line k written by commit k. */
const text = (n: number): string => Array.from({ length: n + 1 }, (_, k) => `line ${k}\n`).join('');

function commit(n: number): CommitRecord {
  const date = new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString();
  return {
    sha: sha(n),
    parents: n === 0 ? [] : [sha(n - 1)],
    author: { name: 'A', email: 'a@example.com', date },
    committer: { name: 'A', email: 'a@example.com', date },
    message: `commit ${n}`,
    files: [{ path: 'f', previousPath: null, status: n === 0 ? 'added' : 'modified', additions: 1, deletions: 0, blobBefore: n === 0 ? null : blob(n - 1), blobAfter: blob(n) }],
    filesComplete: true,
  };
}

describe('storeVersionBlames', () => {
  let dir: string;
  let store: SqliteHistory;
  const chain = Array.from({ length: MAX_VERSIONS + 3 }, (_, n) => commit(n));
  const heldUpTo = (last: number): Map<string, CommitRecord> => new Map(chain.slice(0, last + 1).map((c) => [c.sha, c]));

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gitdex-version-blames-'));
    store = new SqliteHistory({ file: join(dir, 'history.sqlite') });
    await store.putCommits(REPO, chain);
    await store.putHistoryBlobs(
      REPO,
      chain.map((_, n) => ({ sha: blob(n), content: Buffer.from(text(n)) })),
    );
  });
  afterAll(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const storedOwners = async (held: Map<string, CommitRecord>, n: number): Promise<string[] | undefined> => {
    const [found] = await store.getVersionBlames(REPO, [{ key: heldKey(sha(n), (c) => held.get(c)?.parents, new Map()), path: 'f' }]);
    if (!found) return undefined;
    const version = decodeVersionBlame(found.blame);
    return Array.from(version.owner!, (o, i) => `${version.owners[o]!.commit}:${version.at![i]}${version.owners[o]!.boundary ? '^' : ''}`);
  };
  const expected = (n: number): string[] => Array.from({ length: n + 1 }, (_, k) => `${sha(k)}:${k}${k === 0 ? '^' : ''}`);

  it('leaves to the reader a version whose parents have no stored blame within the bound', async () => {
    const last = MAX_VERSIONS + 1;
    const stats = await storeVersionBlames(store, REPO, heldUpTo(last), [chain[last]!]);
    expect(stats).toMatchObject({ stored: 0, skipped: 1, failed: 0 });
    expect(await storeOwners(last)).toBeUndefined();
  });

  it('stores every version a backfill creates, oldest first, each as blame names its lines', async () => {
    const last = MAX_VERSIONS + 1;
    const held = heldUpTo(last);
    const stats = await storeVersionBlames(store, REPO, held, [...chain.slice(0, last + 1)].reverse());
    expect(stats).toMatchObject({ stored: last + 1, skipped: 0 });
    expect(await storedOwners(held, last)).toEqual(expected(last));
    expect(await storedOwners(held, 40)).toEqual(expected(40));
  });

  it('builds a push on its parent stored blame, and leaves a version whose bytes are not held', async () => {
    const next = MAX_VERSIONS + 2;
    const held = heldUpTo(next);
    expect(await storeVersionBlames(store, REPO, held, [chain[next]!])).toMatchObject({ stored: 1, skipped: 0 });
    expect(await storedOwners(held, next)).toEqual(expected(next));

    const unheld: CommitRecord = { ...commit(next + 1), files: [{ ...commit(next + 1).files[0]!, blobAfter: blob(999) }] };
    const withUnheld = new Map([...held, [unheld.sha, unheld]]);
    expect(await storeVersionBlames(store, REPO, withUnheld, [unheld])).toMatchObject({ stored: 0, skipped: 1, failed: 0 });
  });

  async function storeOwners(n: number): Promise<string[] | undefined> {
    return storedOwners(heldUpTo(n), n);
  }
});
