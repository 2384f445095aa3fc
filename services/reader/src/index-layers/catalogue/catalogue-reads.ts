import type { FileSummary, FolderCount, FolderScope, IndexCallOptions, IndexReads, Snapshot, SuggestCandidate, SuggestQuery } from '@gitdex/ports';
import { refKey, type CurrentSnapshots } from '../current-snapshots';
import { ForwardingIndex } from '../forwarding-index';
import { loadStarted, type OnReadAhead } from '../read-ahead-load';
import type { ReaderIndex } from '../reader-index';
import { loadCatalogue, loadSummaries } from './load';
import type { PathCatalogue } from './path-catalogue';

export interface CatalogueOptions {
  /** Past this many files, a snapshot gets no catalogue. */
  maxFiles: number;
  /** Files of all catalogues together, at most: the refs used least recently give way. */
  maxTotalFiles: number;
  /** A ref is loaded again at most this often. */
  everyMs: number;
}

/** Refs with a catalogue at most, whatever their size. */
const MOST_REFS = 1_000;

/** A ref's catalogue, for one snapshot of it. */
interface CatalogueEntry {
  key: string;
  /** When its load started. */
  at: number;
  /** The loaded catalogue; null while loading, or when the snapshot had too many files. */
  ready: PathCatalogue | null;
  /** A file listing was asked: the summaries are wanted. */
  listed: boolean;
  /** The summaries are loading or loaded (or stopped: the index moved on). */
  summarising: boolean;
  /** Whether the load is still worth going on with: the entry is still the ref's, and its snapshot still current. */
  stillWanted: () => boolean;
}

/**
 * The path catalogue layer: on the first listing or suggestion of a ref's current snapshot (or
 * its second file read, through reads-ahead.ts), its files are loaded into a PathCatalogue (if
 * it has at most maxFiles), from which listings and suggestCandidates are answered without the
 * index (and findRetired, for the paths that never had a retired version): paths first, for
 * suggestions and folder listings, then, once a file listing is asked, the summaries file
 * listings need. Until a catalogue is ready, every call goes on down. The loads read
 * `source` (the index below the caches) with no caller's options: they are nobody's call.
 */
export class CatalogueReads extends ForwardingIndex {
  /** Catalogues by ref (least recently used first), each for one snapshot. */
  private readonly catalogues = new Map<string, CatalogueEntry>();

  constructor(
    inner: ReaderIndex,
    private readonly source: Pick<IndexReads, 'listFiles' | 'visibleEntries' | 'retiredPaths'>,
    private readonly current: CurrentSnapshots,
    private readonly plan: CatalogueOptions | undefined,
    private readonly hooks: { now: () => number; working: (repositoryId: number) => void; onReadAhead?: OnReadAhead | undefined },
  ) {
    super(inner);
  }

  override suggestCandidates(snapshot: Snapshot, query: SuggestQuery, options?: IndexCallOptions): Promise<SuggestCandidate[]> {
    const catalogue = this.catalogueOf(snapshot);
    return catalogue ? Promise.resolve(catalogue.candidates(query)) : this.inner.suggestCandidates(snapshot, query, options);
  }

  override findRetired(snapshot: Snapshot, path: string, options?: IndexCallOptions): Promise<FileSummary | null> {
    const catalogue = this.catalogueOf(snapshot);
    return catalogue && !catalogue.mayBeRetired(path) ? Promise.resolve(null) : this.inner.findRetired(snapshot, path, options);
  }

  override listFolders(scope: FolderScope, options?: IndexCallOptions): Promise<FolderCount[]> {
    const catalogue = this.catalogueOf(scope);
    return catalogue ? Promise.resolve(catalogue.listFolders(scope)) : this.inner.listFolders(scope, options);
  }

  override listFiles(scope: FolderScope, afterPath: string | null, limit: number, options?: IndexCallOptions): Promise<{ files: FileSummary[]; total: number }> {
    const catalogue = this.catalogueOf(scope, true);
    return catalogue?.listsFiles ? Promise.resolve(catalogue.listFiles(scope, afterPath, limit)) : this.inner.listFiles(scope, afterPath, limit, options);
  }

  /**
   * The loaded catalogue of a ref's current snapshot, else null (and its load started, unless the ref was loaded less
   * than everyMs ago). A file listing (`forFiles`) also has the summaries of its files loaded, once the catalogue is:
   * a session that only suggests never pays for them (on a large repository, ten times the load of the paths).
   */
  catalogueOf(snapshot: Snapshot, forFiles = false): PathCatalogue | null {
    this.hooks.working(snapshot.repositoryId);
    const plan = this.plan;
    const key = this.current.keyOf(snapshot);
    if (!plan || key === null) return null;
    const ref = refKey(snapshot);
    const last = this.catalogues.get(ref);
    if (last) {
      this.catalogues.delete(ref);
      this.catalogues.set(ref, last);
      if (last.key === key) {
        last.listed ||= forFiles;
        if (last.ready && last.listed) this.summarise(last, snapshot);
        return last.ready;
      }
      if (this.hooks.now() - last.at < plan.everyMs) return null;
    }
    const mine = () => this.catalogues.get(ref) === entry;
    const entry: CatalogueEntry = { key, at: this.hooks.now(), ready: null, listed: forFiles, summarising: false, stillWanted: () => mine() && this.current.keyOf(snapshot) === key };
    this.catalogues.set(ref, entry);
    if (this.catalogues.size > MOST_REFS) this.catalogues.delete(this.catalogues.keys().next().value as string);
    const ended = loadStarted(this.hooks.onReadAhead, 'catalogue', snapshot);
    void loadCatalogue(this.source, snapshot, { maxFiles: plan.maxFiles, stillWanted: entry.stillWanted }).then(
      (catalogue) => {
        if (!mine()) return ended('stopped');
        entry.ready = catalogue;
        this.withinBudget(entry, plan.maxTotalFiles);
        ended(catalogue ? 'loaded' : 'stopped');
        if (entry.listed) this.summarise(entry, snapshot);
      },
      // Nothing is lost: suggestions ask the index, as without a catalogue; a later call may load it again.
      () => {
        if (mine()) this.catalogues.delete(ref);
        ended('failed');
      },
    );
    return null;
  }

  /** Drops the catalogues of the refs used least recently (never `kept`) until all hold at most `maxTotalFiles`. */
  private withinBudget(kept: CatalogueEntry, maxTotalFiles: number): void {
    let total = 0;
    for (const other of this.catalogues.values()) total += other.ready?.size ?? 0;
    for (const [otherRef, other] of this.catalogues) {
      if (total <= maxTotalFiles || other === kept) break;
      total -= other.ready?.size ?? 0;
      this.catalogues.delete(otherRef);
    }
  }

  /** Loads the summaries of a loaded catalogue's files, once: until all are in, file listings ask the index. */
  private summarise(entry: CatalogueEntry, snapshot: Snapshot): void {
    if (!entry.ready || entry.summarising || entry.ready.listsFiles) return;
    entry.summarising = true;
    const ended = loadStarted(this.hooks.onReadAhead, 'summaries', snapshot);
    loadSummaries(this.source, entry.ready, snapshot, entry.stillWanted).then(
      (complete) => ended(complete ? 'loaded' : 'stopped'),
      // Nothing is lost: file listings ask the index, as before; the next one may load them again.
      () => {
        entry.summarising = false;
        ended('failed');
      },
    );
  }
}
