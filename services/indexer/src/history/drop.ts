import type { HistoryStore, IndexWrites } from '@gitdex/ports';
import type { IndexRefDeps } from '../index-ref';

/** What dropping a ref needs: the index, and the history store when history is kept. */
export interface RefDropDeps {
  index: Pick<IndexWrites, 'deleteRef'>;
  history?: { store: Pick<HistoryStore, 'deleteRefHistory' | 'pruneCommits'> } | undefined;
}

/** A ref leaves the index: its files, and its history with the commits no other ref holds. */
export async function dropRef(deps: RefDropDeps, repositoryId: number, ref: string): Promise<void> {
  await deps.index.deleteRef(repositoryId, ref);
  if (!deps.history) return;
  await deps.history.store.deleteRefHistory(repositoryId, ref);
  await deps.history.store.pruneCommits(repositoryId);
}

/** A repository leaves the index: its files and all its history. */
export async function dropRepository(deps: Pick<IndexRefDeps, 'index' | 'history'>, repositoryId: number): Promise<void> {
  await deps.index.deleteRepository(repositoryId);
  await deps.history?.store.deleteHistory(repositoryId);
}
