import type { ContentSearch, IndexLifecycle, IndexReads } from '@gitdex/ports';

/**
 * The part of the index port a reader uses: the reads, content search, and ping for its
 * health check. Every layer of composeIndex is one, and so is every adapter.
 */
export type ReaderIndex = IndexReads & ContentSearch & Pick<IndexLifecycle, 'ping'>;
