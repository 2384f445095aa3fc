import type { ContentSearch } from './content-search';
import type { IndexReads } from './index-reads';
import type { IndexWrites } from './index-writes';
import type { StoredSymbols, SymbolReads } from './symbol-reads';

/** What runs an engine rather than reads or writes it: the process that owns an adapter calls these. */
export interface IndexLifecycle {
  /** Creates what the engine needs (templates, indices, tables); safe to call again. */
  ensureReady(): Promise<void>;
  /** Whether the engine answers right now. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * The index port, as an adapter implements it: the reads a reader makes, the writes the
 * indexer makes, content search, and the engine's lifecycle. Services depend on the part
 * they use (IndexReads, IndexWrites, ContentSearch, SymbolReads). Adapters translate these calls to
 * their engine and decide nothing: generations, diffs and ranking live in the services.
 */
export interface IndexStore extends IndexReads, IndexWrites, ContentSearch, SymbolReads, StoredSymbols, IndexLifecycle {}
