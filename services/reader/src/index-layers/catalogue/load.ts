import type { FileSummary, FolderScope, IndexReads, Snapshot, VisibleEntry } from '@gitdex/ports';
import { queuedCallsFirst } from '../read-ahead-load';
import { PathCatalogue } from './path-catalogue';

/** Summaries asked for a page once the paths are in. */
const SUMMARIES_PAGE = 1000;
/** Deeper than any path: listFiles of the root at this depth lists every file. */
const EVERY_DEPTH = 100_000;
/** Retired paths a catalogue knows at most; past that, findRetired is asked for every path. */
const RETIRED_MOST = 10_000;

/** Whether a load is still wanted once the calls queued behind it have run. */
const stillWantedAfterQueuedCalls = async (stillWanted: () => boolean): Promise<boolean> => {
  await queuedCallsFirst();
  return stillWanted();
};

export interface CatalogueLoad {
  /** Past this many files, no catalogue (null). */
  maxFiles: number;
  /** Asked before each page: false stops the load (null), as when a push made the snapshot old. */
  stillWanted?: () => boolean;
}

/** Paths asked for a page when a catalogue is loaded (the most the index answers at once). */
const PATHS_PAGE = 10_000;
/** Paths added to a catalogue between two looks at the calls waiting to run. */
const ADD_SLICE = 1_000;

/**
 * Loads a snapshot's catalogue from the index: how many files it has, the paths and blobs of
 * its files page by page in path order, and its retired paths. The count, the first page and
 * the retired paths are asked at once (a small repository's load is one round trip, not
 * three; a call may be waiting on it), the first page's and the retired paths' answers
 * dropped when the count is past `maxFiles`. The summaries file listings need are left to
 * `loadSummaries`.
 */
export async function loadCatalogue(
  index: Pick<IndexReads, 'listFiles' | 'visibleEntries' | 'retiredPaths'>,
  snapshot: Snapshot,
  { maxFiles, stillWanted = () => true }: CatalogueLoad,
): Promise<PathCatalogue | null> {
  if (!(await stillWantedAfterQueuedCalls(stillWanted))) return null;
  const firstPage = index.visibleEntries(snapshot, null, PATHS_PAGE);
  const retired = index.retiredPaths(snapshot, RETIRED_MOST + 1);
  // Answers not waited for must not end as unhandled rejections.
  firstPage.catch(() => undefined);
  retired.catch(() => undefined);
  const { total } = await index.listFiles(everyFile(snapshot), null, 0);
  if (total > maxFiles) return null;
  const catalogue = new PathCatalogue();
  for (let page: Promise<VisibleEntry[]> | null = firstPage; page !== null;) {
    const entries: VisibleEntry[] = await page;
    if (!(await stillWantedAfterQueuedCalls(stillWanted))) return null;
    // The next page is asked for before this one is added: the engine reads while the reader builds.
    page = entries.length < PATHS_PAGE ? null : index.visibleEntries(snapshot, (entries[entries.length - 1] as VisibleEntry).path, PATHS_PAGE);
    page?.catch(() => undefined);
    // A page of 10,000 paths takes 50-90 ms to add: in slices, with the calls waiting run between them.
    for (let at = 0; at < entries.length; at += ADD_SLICE) {
      if (at > 0) await queuedCallsFirst();
      catalogue.add(entries.slice(at, at + ADD_SLICE));
    }
    if (catalogue.size > maxFiles) return null;
  }
  const paths = await retired;
  if (paths.length <= RETIRED_MOST) catalogue.knowRetired(paths);
  return catalogue.seal();
}

/**
 * Adds the summaries of a loaded catalogue's files, page by page: true once every one is in;
 * false when `stillWanted` stopped it or the index no longer lists the same files.
 */
export async function loadSummaries(index: Pick<IndexReads, 'listFiles'>, catalogue: PathCatalogue, snapshot: Snapshot, stillWanted: () => boolean = () => true): Promise<boolean> {
  let after: string | null = null;
  while (!catalogue.listsFiles) {
    if (!(await stillWantedAfterQueuedCalls(stillWanted))) return false;
    const { files } = await index.listFiles(everyFile(snapshot), after, SUMMARIES_PAGE);
    if (files.length === 0 || !catalogue.addSummaries(files)) return false;
    after = (files[files.length - 1] as FileSummary).path;
  }
  return true;
}

function everyFile(snapshot: Snapshot): FolderScope {
  return { repositoryId: snapshot.repositoryId, ref: snapshot.ref, generation: snapshot.generation, ...(snapshot.underlay ? { underlay: snapshot.underlay } : {}), folder: '', depth: EVERY_DEPTH };
}
