import type { RefState } from '@gitdex/contracts';
import type { Snapshot } from '@gitdex/ports';
import { SqliteIndexStore } from '@gitdex/sqlite';
import type { ReaderIndex } from '../../src/index-layers/reader-index';
import { seedRepository, type FileSpec } from './documents';

export const REF = 'refs/heads/main';
export const FILES = { 'README.md': '# A\n', 'src/a.ts': 'a\n', 'src/b.ts': 'b\n', 'src/lib/c.ts': 'c\n' };
const CACHED = ['getFile', 'fileSymbols', 'listFolders', 'listFiles', 'stats', 'listRefStates', 'countUnsearchable'] as const;

/** The real SQLite adapter, with every call it answers counted by method. */
export async function countedIndex(files: Record<string, FileSpec> = FILES) {
  const index = new SqliteIndexStore({ file: ':memory:' });
  await index.ensureReady();
  await seedRepository(index, { id: 1, fullName: 'octo/api', files });
  const spies = Object.fromEntries(CACHED.map((method) => [method, jest.spyOn(index, method)])) as Record<(typeof CACHED)[number], jest.SpyInstance>;
  const calls = (method: (typeof CACHED)[number]) => spies[method].mock.calls.length;
  return { index, spies, calls };
}

/** The snapshot of the default branch as the reader resolves it: through the cache's ref states. */
export async function currentSnapshot(cached: ReaderIndex): Promise<Snapshot> {
  const state = (await cached.listRefStates(1)).find((s) => s.ref === REF) as RefState;
  return { repositoryId: 1, ref: REF, generation: state.generation };
}
