import type { FileDocument } from '@gitdex/contracts';
import type { FileSummary, FileSymbols, FolderCount, FolderScope, IndexStats, Snapshot, UnsearchableCount, UnsearchableScope } from '@gitdex/ports';
import { PromiseLru } from '../promise-lru';
import type { CurrentSnapshots } from './current-snapshots';
import { ForwardingIndex } from './forwarding-index';
import type { ReaderIndex } from './reader-index';

export interface SnapshotCacheOptions {
  /** Snapshot answers (file versions, outlines, listings, stats) kept in memory. */
  maxEntries: number;
  /** Rough memory those answers may take, in bytes. */
  maxBytes: number;
}

type SnapshotAnswer = FileDocument | FileSymbols | null | FolderCount[] | { files: FileSummary[]; total: number } | IndexStats | UnsearchableCount;

/**
 * The per-snapshot content cache: what a snapshot holds never changes while it is its ref's
 * current state (CurrentSnapshots), so its file versions, outlines, listings, stats and the counts of
 * files a search skips are kept (least recently used dropped first, bounded in count and
 * size) under that state's key, each set of arguments apart. Snapshots of older generations
 * go straight to the index, because pruning changes them and list_files detects an expired
 * cursor by asking. Concurrent callers share one load, asked without any caller's options:
 * one caller giving up never cancels it for the others.
 */
export class SnapshotCache extends ForwardingIndex {
  private readonly answers: PromiseLru<SnapshotAnswer>;

  constructor(
    inner: ReaderIndex,
    private readonly current: CurrentSnapshots,
    options: SnapshotCacheOptions,
  ) {
    super(inner);
    this.answers = new PromiseLru<SnapshotAnswer>(options);
  }

  /** Keeps a file version loaded by other means (preload.ts), as getFile would have kept it. */
  keepFile(snapshotKey: string, doc: FileDocument): void {
    void this.answers.get(`${snapshotKey}\0file\0${doc.path}`, () => Promise.resolve(doc));
  }

  private pinned<T extends SnapshotAnswer>(snapshot: Snapshot, what: string, fetch: () => Promise<T>): Promise<T> {
    const key = this.current.keyOf(snapshot);
    return key === null ? fetch() : (this.answers.get(`${key}\0${what}`, fetch) as Promise<T>);
  }

  override getFile(snapshot: Snapshot, path: string): Promise<FileDocument | null> {
    return this.pinned(snapshot, `file\0${path}`, () => this.inner.getFile(snapshot, path));
  }

  override fileSymbols(snapshot: Snapshot, path: string): Promise<FileSymbols | null> {
    return this.pinned(snapshot, `symbols\0${path}`, () => this.inner.fileSymbols(snapshot, path));
  }

  override listFolders(scope: FolderScope): Promise<FolderCount[]> {
    return this.pinned(scope, `folders\0${scopeKey(scope)}`, () => this.inner.listFolders(scope));
  }

  override listFiles(scope: FolderScope, afterPath: string | null, limit: number): Promise<{ files: FileSummary[]; total: number }> {
    return this.pinned(scope, `files\0${scopeKey(scope)}\0${afterPath === null ? '-' : `+${afterPath}`}\0${limit}`, () => this.inner.listFiles(scope, afterPath, limit));
  }

  override stats(snapshot: Snapshot): Promise<IndexStats> {
    return this.pinned(snapshot, 'stats', () => this.inner.stats(snapshot));
  }

  /** A search asks for these counts every time, beside its candidates; they are a snapshot's, like its stats. */
  override countUnsearchable(snapshot: Snapshot, scope: UnsearchableScope): Promise<UnsearchableCount> {
    const shared = { includeGenerated: scope.includeGenerated, ...(scope.language !== undefined ? { language: scope.language } : {}) };
    return this.pinned(snapshot, `unsearchable\0${shared.includeGenerated}\0${shared.language === undefined ? '*' : `=${shared.language}`}`, () => this.inner.countUnsearchable(snapshot, shared));
  }
}

function scopeKey(scope: FolderScope): string {
  return `${scope.folder}\0${scope.depth}`;
}
