import type { RefState, RepositoryDocument } from '@gitdex/contracts';
import type { FileWrite, Snapshot } from './index-types';

/**
 * What the indexer changes in the index. Every write is idempotent; writers never give up
 * half-way, so writes take no IndexCallOptions.
 */
export interface IndexWrites {
  putRepository(repository: RepositoryDocument): Promise<void>;
  /** Removes the repository, its ref states and every file document. */
  deleteRepository(repositoryId: number): Promise<void>;
  putRefState(state: RefState): Promise<void>;
  /** Removes a ref's state and every file document of it. */
  deleteRef(repositoryId: number, ref: string): Promise<void>;
  writeFiles(writes: FileWrite[]): Promise<void>;
  /** Undoes an attempt that never flipped: drops versions from later generations and their retirements. */
  discardAfter(snapshot: Snapshot): Promise<void>;
  /** Deletes versions retired at or before `generation` (old enough that no pinned reader needs them). */
  pruneRetired(repositoryId: number, ref: string, generation: number): Promise<void>;
  /** Makes every write so far visible to searches. */
  refresh(): Promise<void>;
}
