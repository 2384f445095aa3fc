import type { FileDocument } from '@gitdex/contracts';
import type { IndexReads, Snapshot } from '@gitdex/ports';
import { roughSize } from '../promise-lru';
import { refKey, type CurrentSnapshots } from './current-snapshots';
import { loadStarted, queuedCallsFirst, type OnReadAhead } from './read-ahead-load';
import type { SnapshotCache } from './snapshot-cache';

export interface PreloadOptions {
  /** Files larger than this are left to be read one by one. */
  maxFileBytes: number;
  /** Rough bytes of files one load brings in at most. */
  maxBytes: number;
  /** A ref is loaded again at most this often (a busy ref flips on every push). */
  everyMs: number;
}

/** Files asked for a page when a snapshot's small files are loaded. */
const PRELOAD_PAGE = 500;
/** Refs remembered at most; past that all are forgotten at once (a ref may then be loaded again sooner). */
const MOST_REFS = 10_000;

/**
 * Preloading: loads the small files of a ref's current snapshot (up to maxFileBytes each,
 * maxBytes in all) into the snapshot cache, as getFile would keep them one by one, so the
 * files an agent reads next are answered from memory. Started by reads-ahead.ts; reads the
 * index below the cache, with no caller's options (the load is nobody's call).
 */
export class Preloader {
  /** Snapshots whose small files were loaded (or are loading), by ref, with when. */
  private readonly preloaded = new Map<string, { key: string; at: number }>();

  constructor(
    private readonly index: Pick<IndexReads, 'visibleFiles'>,
    private readonly cache: SnapshotCache,
    private readonly current: CurrentSnapshots,
    private readonly plan: PreloadOptions,
    private readonly now: () => number,
    private readonly onReadAhead?: OnReadAhead,
  ) {}

  start(snapshot: Snapshot): void {
    const key = this.current.keyOf(snapshot);
    if (key === null) return;
    const ref = refKey(snapshot);
    const last = this.preloaded.get(ref);
    const at = this.now();
    if (last && (last.key === key || at - last.at < this.plan.everyMs)) return;
    if (this.preloaded.size >= MOST_REFS) this.preloaded.clear();
    this.preloaded.set(ref, { key, at });
    const ended = loadStarted(this.onReadAhead, 'files', snapshot);
    this.load(snapshot, key).then(ended, () => {
      // Nothing is lost: reads ask the index file by file, as without a preload; a later read may load it again.
      if (this.preloaded.get(ref)?.key === key) this.preloaded.delete(ref);
      ended('failed');
    });
  }

  /** Stops at the budget, or once the snapshot is no longer its ref's current state. */
  private async load(snapshot: Snapshot, key: string): Promise<'loaded' | 'stopped'> {
    let bytes = 0;
    let after: string | null = null;
    while (bytes < this.plan.maxBytes && this.current.keyOf(snapshot) === key) {
      await queuedCallsFirst();
      const page = await this.index.visibleFiles(snapshot, after, PRELOAD_PAGE, this.plan.maxFileBytes);
      for (const doc of page) {
        bytes += roughSize(doc);
        this.cache.keepFile(key, doc);
      }
      if (page.length < PRELOAD_PAGE) return 'loaded';
      after = (page[page.length - 1] as FileDocument).path;
    }
    return 'stopped';
  }
}
