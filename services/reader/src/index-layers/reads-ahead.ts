import type { FileDocument } from '@gitdex/contracts';
import type { IndexCallOptions, ReadLookup, ReadLookupResult, Snapshot } from '@gitdex/ports';
import { refKey, type CurrentSnapshots } from './current-snapshots';
import { ForwardingIndex } from './forwarding-index';
import type { ReaderIndex } from './reader-index';

/** Refs remembered at most; past that all are forgotten at once. */
const MOST_REFS = 10_000;

/**
 * Starts the reads ahead (preload.ts, the catalogue) on the second, other file read of a ref's
 * current snapshot: an agent at work reads several, while a client that reads one file of
 * every new snapshot (a freshness probe, a CI check polling a status file) would otherwise
 * load a whole repository on every push, and on a busy installation keep the index loading
 * all the time. A file read is a getFile, or a lookupForRead the index answered with versions.
 */
export class ReadsAhead extends ForwardingIndex {
  /** The first file read of each ref's current snapshot. */
  private readonly firstReads = new Map<string, { key: string; path: string }>();

  constructor(
    inner: ReaderIndex,
    private readonly current: CurrentSnapshots,
    private readonly onSecondRead: (snapshot: Snapshot) => void,
  ) {
    super(inner);
  }

  override getFile(snapshot: Snapshot, path: string, options?: IndexCallOptions): Promise<FileDocument | null> {
    this.read(snapshot, path);
    return this.inner.getFile(snapshot, path, options);
  }

  override async lookupForRead(request: ReadLookup, options?: IndexCallOptions): Promise<ReadLookupResult> {
    const found = await this.inner.lookupForRead(request, options);
    const versions = request.versions;
    // Versions null: answered from reused lookups, and the file is left to getFile, which counts it.
    const state = versions && found.versions !== null ? found.refStates.find((candidate) => candidate.ref === versions.ref) : undefined;
    if (state && versions) this.read({ repositoryId: request.repositoryId, ref: state.ref, generation: state.generation, ...(state.underlay ? { underlay: state.underlay } : {}) }, versions.path);
    return found;
  }

  private read(snapshot: Snapshot, path: string): void {
    const key = this.current.keyOf(snapshot);
    if (key === null) return;
    const ref = refKey(snapshot);
    const first = this.firstReads.get(ref);
    if (first?.key !== key) {
      if (this.firstReads.size >= MOST_REFS) this.firstReads.clear();
      this.firstReads.set(ref, { key, path });
      return;
    }
    if (first.path !== path) this.onSecondRead(snapshot);
  }
}
