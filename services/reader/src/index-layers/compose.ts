import type { Snapshot } from '@gitdex/ports';
import { CatalogueReads, type CatalogueOptions } from './catalogue/catalogue-reads';
import { CurrentSnapshots } from './current-snapshots';
import type { Repeat } from './metadata/keep-fresh';
import { MetadataReuse } from './metadata/metadata-reuse';
import { Preloader, type PreloadOptions } from './preload';
import type { OnReadAhead } from './read-ahead-load';
import type { ReaderIndex } from './reader-index';
import { ReadsAhead } from './reads-ahead';
import { SnapshotCache } from './snapshot-cache';

export interface ComposeOptions {
  /** How long repository and ref-state answers are reused: the most a read may lag a flip. Default 100 ms. */
  metadataTtlMs?: number;
  /** Snapshot answers (file versions, outlines, listings, stats) kept in memory. Default 10,000. */
  maxEntries?: number;
  /** Rough memory those answers may take, in bytes. Default 64 MiB. */
  maxBytes?: number;
  /** Clock in milliseconds (tests). */
  now?: () => number;
  /** The timer of the keep-fresh checks (tests run them by hand, metadata/keep-fresh.ts). Default: a real interval. */
  repeat?: Repeat;
  /**
   * Repositories and ref states used within this long are looked up again in the background
   * past half the reuse window, so a read never waits for them while an agent works on a
   * repository (two small requests per repository every 50–75 ms): a repository one of whose
   * snapshots had a second file read, a listing or a suggestion. 0 (default): off.
   */
  keepFreshMs?: number;
  /** Preloading of a ref's small files on its second file read (preload.ts). Off when left out. */
  preload?: PreloadOptions;
  /** Path catalogues answering listings and suggestions from memory (catalogue/catalogue-reads.ts). Off when left out. */
  catalogue?: CatalogueOptions;
  /** Told of every load ahead when it ends (metrics; tests wait on it instead of on the clock). */
  onReadAhead?: OnReadAhead;
}

/**
 * The index a reader uses, composed in this one place from the adapter up. A call from a
 * tool meets, outermost first:
 *
 *   CallScopedIndex   per tool call (tools/call-tool.ts): the call's signal, as IndexCallOptions
 *   ReadsAhead        a second file read of a snapshot starts the preload and the catalogue
 *   CatalogueReads    listings, suggestions, findRetired from a snapshot's path catalogue
 *   SnapshotCache     a current snapshot's answers kept, bounded in count and bytes
 *   MetadataReuse     repositories and ref states reused within a window, kept fresh at work
 *   the adapter       Elasticsearch or SQLite
 *
 * Each layer hands on what it does not answer, with the call's options; a layer that shares
 * one load among callers asks it without them. The preload and the catalogue load read the
 * adapter directly. See docs/design/index-composition.md.
 */
export function composeIndex(adapter: ReaderIndex, options: ComposeOptions = {}): ReaderIndex {
  const now = options.now ?? Date.now;
  const current = new CurrentSnapshots();
  const metadata = new MetadataReuse(adapter, current, { ttlMs: options.metadataTtlMs ?? 100, keepFreshMs: options.keepFreshMs ?? 0, now, repeat: options.repeat });
  const cache = new SnapshotCache(metadata, current, { maxEntries: options.maxEntries ?? 10_000, maxBytes: options.maxBytes ?? 64 * 1024 * 1024 });
  const working = (repositoryId: number) => metadata.working(repositoryId);
  const catalogue = new CatalogueReads(cache, adapter, current, options.catalogue, { now, working, onReadAhead: options.onReadAhead });
  const preloader = options.preload ? new Preloader(adapter, cache, current, options.preload, now, options.onReadAhead) : null;
  return new ReadsAhead(catalogue, current, (snapshot: Snapshot) => {
    working(snapshot.repositoryId);
    preloader?.start(snapshot);
    catalogue.catalogueOf(snapshot);
  });
}
