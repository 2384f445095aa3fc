import type { BackfillEvent } from '@gitdex/contracts';
import type { Source, SourceRepository, SourceTree } from '@gitdex/ports';
import { SqliteIndexStore } from '@gitdex/sqlite';
import { handleEvent, type HandleEventDeps } from '../src/handle-event';
import { DEFAULT_INDEX_REF_OPTIONS } from '../src/index-ref';
import { RefSelection } from '../src/ref-selection';

/**
 * Issue 40, item 7: a backfill a caller without a token queued (reason anonymous_lookup) is
 * indexed only within the size cap; other backfills, and repositories already indexed, are not
 * capped. GitHub here is a stand-in Source whose default branch has three files of 100 bytes and
 * no head to index (so an uncapped backfill ends at once, with the ref "deleted").
 */
describe('the size cap of backfills queued without a token', () => {
  const repository: SourceRepository = { id: 9, fullName: 'big/pile', defaultBranch: 'main', private: false, archived: false, htmlUrl: 'https://github.com/big/pile' };
  let index: SqliteIndexStore;
  let heads = 0;
  const tree: SourceTree = {
    sha: 't'.repeat(40),
    truncated: false,
    entries: ['a', 'b', 'c'].map((name) => ({ path: name, mode: '100644', type: 'blob' as const, sha: name.repeat(40), size: 100 })),
  };
  const source = {
    repository: async () => repository,
    head: async () => (heads++ === 0 ? { sha: 'h'.repeat(40), treeSha: tree.sha, committedAt: new Date(0).toISOString() } : null),
    tree: async () => tree,
  } as unknown as Source;
  const backfill = (reason: BackfillEvent['reason']): BackfillEvent => ({
    kind: 'backfill',
    eventId: `e-${reason}`,
    repository: { id: 9, fullName: 'big/pile' },
    receivedAt: new Date().toISOString(),
    reason,
  });
  const deps = (cap: { maxFiles: number; maxBytes: number }): HandleEventDeps => ({
    index,
    source,
    options: DEFAULT_INDEX_REF_OPTIONS,
    now: () => new Date(),
    refs: new RefSelection(['default']),
    anonymousBackfillCap: cap,
  });

  beforeEach(async () => {
    index = new SqliteIndexStore({ file: ':memory:' });
    await index.ensureReady();
    heads = 0;
  });

  test('over the files or the bytes: skipped with the reason, and nothing written', async () => {
    for (const cap of [
      { maxFiles: 2, maxBytes: 1_000 },
      { maxFiles: 10, maxBytes: 299 },
    ]) {
      heads = 0;
      const outcome = await handleEvent(deps(cap), backfill('anonymous_lookup'));
      expect(outcome).toEqual({ action: 'skipped', reason: expect.stringMatching(/queued by a caller without a token and larger than such a backfill may be \(3 files, 300 bytes/) });
      expect(await index.getRepository(9)).toBeNull();
    }
  });

  test('within the cap it is indexed as any backfill', async () => {
    const outcome = await handleEvent(deps({ maxFiles: 3, maxBytes: 300 }), backfill('anonymous_lookup'));
    expect(outcome.action).toBe('synced');
    expect(await index.getRepository(9)).not.toBeNull();
  });

  test('other backfills are not capped, nor one of a repository already indexed', async () => {
    heads = 1;
    expect((await handleEvent(deps({ maxFiles: 1, maxBytes: 1 }), backfill('state_query'))).action).toBe('synced');
    heads = 1;
    expect((await handleEvent(deps({ maxFiles: 1, maxBytes: 1 }), backfill('anonymous_lookup'))).action).toBe('synced');
  });
});
