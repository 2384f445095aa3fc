import type { ContentSearch, IndexLifecycle, IndexReads, SymbolReads } from '@gitdex/ports';

/**
 * The part of the index port a reader uses: the reads, content search, symbol reads, and ping for its
 * health check. Every layer of composeIndex is one, and so is every adapter.
 */
export type ReaderIndex = IndexReads & ContentSearch & SymbolReads & Pick<IndexLifecycle, 'ping'>;
