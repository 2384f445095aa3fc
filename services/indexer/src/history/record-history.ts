import {
  type BatchReads,
  type CommitFile,
  type CommitRecord,
  type HistorySource,
  type HistoryStore,
  PortError,
  type SourceComparison,
  type SourceCommitFile,
  type SourceCommitInfo,
  type SourceRepository,
} from '@gitdex/ports';
import { cachedCommits, rememberCommits } from '@gitdex/diff';
import { mapLimit } from '../concurrency';
import { blobAt, parentsFirst, reachable } from './commit-graph';
import { backfillFiles } from './backfill-files';
import { pushFiles } from './push-files';
import { storeVersionBlames, type VersionBlameStats } from './version-blames';

/** Past this many commits from the log, their trees are diffed here (a few queries a level) rather than each read from the commit endpoint. */
const BACKFILL_BY_TREES_FROM = 2;

export interface HistoryOptions {
  /** Commits a ref's first index backfills (GITDEX_HISTORY_DEPTH); 0 keeps no history. */
  depth: number;
  /** Old versions larger than this are not kept (the content limit, GITDEX_MAX_FILE_BYTES). */
  maxBlobBytes: number;
  /** Commit-file requests in flight at once during a backfill. */
  concurrency: number;
}

export interface HistoryDeps {
  store: HistoryStore;
  options: HistoryOptions;
}

export interface HistoryTarget {
  repository: SourceRepository;
  ref: string;
  head: string;
  installationId?: number;
  /** The push's compare from the served commit, when it made one: its commits and files cost nothing more. */
  comparison?: { base: string; result: SourceComparison };
  /**
   * A ref with no history of its own starts from this ref's (a pull request from its base
   * branch): the commits that one holds are neither listed nor read again, and the new ref's
   * history is its own commits plus those its head reaches.
   */
  startFrom?: string;
  /** Bytes the index already has or this index read, by blob sha (new versions of a push, the served ones). */
  localBlobs?: (shas: string[]) => Promise<Map<string, Buffer>>;
}

/** What recordHistory wrote, for settleHistory after the flip. */
export interface RecordedHistory {
  repositoryId: number;
  ref: string;
  head: string;
  held: string[];
  /** Commits the ref held before and holds no more (force push): pruned after the flip. */
  dropped: number;
  /** Commits stored by this call. */
  added: number;
  /** The commits the ref holds now, by sha, and the new ones: their versions are blamed after the flip. */
  blame: { held: ReadonlyMap<string, CommitRecord>; records: readonly CommitRecord[] };
}

/**
 * Records the history of a ref's new head before the ref flips to it: the commits not held yet
 * (the push's from its compare, else GitHub's log from the head, at most `depth`), each with its
 * files, the blob shas before and after each change, and the bytes of those blobs. The ref's
 * history is written as what it held plus the new commits, so a reader still pinned to the old
 * head keeps its history until settleHistory narrows it after the flip and stores the blame of
 * each file version the new commits create (docs/design/history.md says why after).
 */
export async function recordHistory(deps: HistoryDeps, source: { history?: HistorySource; batchReads?: BatchReads }, target: HistoryTarget): Promise<RecordedHistory | null> {
  const { store, options } = deps;
  const history = source.history;
  if (!history || options.depth <= 0) return null;
  const repositoryId = target.repository.id;
  const own = await store.getRefHistory(repositoryId, target.ref);
  const previous = own ?? (target.startFrom ? await store.getRefHistory(repositoryId, target.startFrom) : null);
  const previousHeld = new Set(previous?.commits ?? []);
  const ownHeld = own ? previousHeld : new Set<string>();
  const known = new Map<string, CommitRecord>();
  for (const commit of await cachedCommits(store, repositoryId, previousHeld, (missing) => store.getCommits(repositoryId, missing))) known.set(commit.sha, commit);

  const listed = previousHeld.has(target.head) ? [] : await newCommits(history, target, previous?.head ?? null, previousHeld, options.depth);
  const stored = new Set(
    (
      await store.getCommits(
        repositoryId,
        listed.map((c) => c.sha),
      )
    ).map((c) => c.sha),
  );
  const fresh = listed.filter((c) => !previousHeld.has(c.sha));
  const toFetch = fresh.filter((c) => !stored.has(c.sha));
  const singleFromCompare = singleCommitFiles(target, toFetch);
  // A push of several commits on the served one: one query gives every commit's files.
  const fromPush =
    target.comparison && previous?.head === target.comparison.base && toFetch.length > 1
      ? await pushFiles(history, {
          repository: target.repository,
          comparison: target.comparison,
          commits: toFetch,
          ...(target.installationId ? { installationId: target.installationId } : {}),
          ...(target.localBlobs ? { localBlobs: target.localBlobs } : {}),
        })
      : null;
  // Commits from the log (a first index, or a push that does not start at the held head): their
  // trees, diffed here, settle most of them in tens of queries instead of a request each.
  const fromLog = toFetch.filter((c) => c.tree && c.counts && c.sha !== singleFromCompare?.sha && !fromPush?.files.has(c.sha));
  const fromTrees =
    fromLog.length > BACKFILL_BY_TREES_FROM
      ? await backfillFiles(history, {
          repository: target.repository,
          commits: fromLog,
          maxBlobBytes: options.maxBlobBytes,
          ...(target.installationId ? { installationId: target.installationId } : {}),
          ...(target.localBlobs ? { localBlobs: target.localBlobs } : {}),
        })
      : null;
  const files = await mapLimit(toFetch, options.concurrency, async (commit) =>
    singleFromCompare && commit.sha === singleFromCompare.sha
      ? singleFromCompare.files
      : (fromPush?.files.get(commit.sha) ?? fromTrees?.files.get(commit.sha) ?? (await history.commitFiles(target.repository, commit.sha, target.installationId))),
  );
  for (const commit of await store.getCommits(
    repositoryId,
    fresh.filter((c) => stored.has(c.sha)).map((c) => c.sha),
  ))
    known.set(commit.sha, commit);

  const records: CommitRecord[] = toFetch.map((info, i) => recordOf(info, files[i] as { files: SourceCommitFile[]; complete: boolean }));
  for (const record of records) known.set(record.sha, record);
  await fillBlobsBefore(parentsFirst(records), known, source.batchReads, target);

  const held = [...reachable(target.head, known)];
  // Independent writes, together; the ref history names the new commits only once both are in.
  await Promise.all([store.putCommits(repositoryId, records), storeBlobs(deps, history, withBlobs(target, new Map([...(fromTrees?.blobs ?? []), ...(fromPush?.blobs ?? [])])), records)]);
  rememberCommits(store, repositoryId, records);
  const heldSet = new Set(held);
  await store.putRefHistory({ repositoryId, ref: target.ref, head: target.head, commits: [...new Set([...held, ...ownHeld])] });
  return {
    repositoryId,
    ref: target.ref,
    head: target.head,
    held,
    dropped: [...ownHeld].filter((sha) => !heldSet.has(sha)).length,
    added: records.length,
    blame: { held: new Map(held.map((sha) => [sha, known.get(sha)!])), records: records.filter((r) => heldSet.has(r.sha)) },
  };
}

/**
 * After the flip: the ref holds exactly what its head reaches; the new versions' blames are
 * stored; what no ref holds any more goes. A store failing while blames are stored costs the
 * reader those versions' speed only (it blames them itself), so it is counted, not thrown: the
 * ref already serves its new head, and a retry would find it unchanged.
 */
export async function settleHistory(deps: HistoryDeps, recorded: RecordedHistory): Promise<VersionBlameStats> {
  await deps.store.putRefHistory({ repositoryId: recorded.repositoryId, ref: recorded.ref, head: recorded.head, commits: recorded.held });
  const { held, records } = recorded.blame;
  let blames: VersionBlameStats;
  try {
    blames = await storeVersionBlames(deps.store, recorded.repositoryId, held, records);
  } catch (error) {
    if (!(error instanceof PortError)) throw error;
    const versions = records.reduce((n, r) => n + r.files.filter((f) => f.blobAfter).length, 0);
    blames = { stored: 0, skipped: versions, bytes: 0, failed: versions };
  }
  if (recorded.dropped > 0) await deps.store.pruneCommits(recorded.repositoryId);
  return blames;
}

/**
 * The commits of the new head not held yet: the push's compare lists them when it starts from the
 * held head; a pull request's compare with its base (ahead, or diverged from the merge base) when
 * every parent of what it lists is listed or held, so nothing between is missing.
 */
async function newCommits(history: HistorySource, target: HistoryTarget, previousHead: string | null, held: ReadonlySet<string>, depth: number): Promise<SourceCommitInfo[]> {
  const compared = target.comparison;
  const commits = compared?.result.commits;
  if (compared && commits && previousHead === compared.base && compared.result.status === 'ahead') return commits;
  if (compared && commits && (compared.result.status === 'ahead' || compared.result.status === 'diverged')) {
    const listed = new Set(commits.map((c) => c.sha));
    if (commits.every((c) => c.parents.every((parent) => listed.has(parent) || held.has(parent)))) return commits;
  }
  const log = await history.commitLog(target.repository, target.head, { limit: depth, known: held, ...(target.installationId ? { installationId: target.installationId } : {}) });
  return log.filter((c) => !held.has(c.sha));
}

/** A push of one commit on the served one: compare's files are that commit's files. */
function singleCommitFiles(target: HistoryTarget, toFetch: readonly SourceCommitInfo[]): { sha: string; files: { files: SourceCommitFile[]; complete: boolean } } | null {
  const compared = target.comparison;
  const only = toFetch[0];
  if (!compared || toFetch.length !== 1 || !only || compared.result.commits?.length !== 1 || only.parents[0] !== compared.base || only.parents.length !== 1) return null;
  const files: SourceCommitFile[] = [];
  for (const f of compared.result.files) {
    if (f.additions === undefined || f.deletions === undefined || f.sha === undefined) return null;
    const status = f.status === 'copied' ? 'added' : f.status === 'changed' ? 'modified' : f.status;
    if (status === 'unchanged') continue;
    files.push({ path: f.path, previousPath: status === 'renamed' ? (f.previousPath ?? null) : null, status, additions: f.additions, deletions: f.deletions, sha: f.sha });
  }
  return { sha: only.sha, files: { files, complete: compared.result.complete } };
}

function recordOf(info: SourceCommitInfo, listed: { files: SourceCommitFile[]; complete: boolean }): CommitRecord {
  const files: CommitFile[] = listed.files
    .map((f) => ({
      path: f.path,
      previousPath: f.previousPath,
      status: f.status,
      additions: f.additions,
      deletions: f.deletions,
      // GitHub names the removed blob for a removal; the version before anything else is looked up.
      blobBefore: f.status === 'removed' ? f.sha : (f.previousSha ?? null),
      blobAfter: f.status === 'removed' ? null : f.sha,
    }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { sha: info.sha, parents: info.parents, author: info.author, committer: info.committer, message: info.message, files, filesComplete: listed.complete };
}

/**
 * The blob before each change: the version at the first parent, from the commits held when the
 * walk finds it, else asked of the source at that parent (only where history begins) in one
 * query per parent.
 */
async function fillBlobsBefore(records: CommitRecord[], known: Map<string, CommitRecord>, batch: BatchReads | undefined, target: HistoryTarget): Promise<void> {
  const askAt = new Map<string, { file: CommitFile; path: string }[]>();
  for (const record of records) {
    for (const file of record.files) {
      if (file.status === 'added' || file.blobBefore !== null) continue;
      const path = file.previousPath ?? file.path;
      const found = blobAt(known, record.parents[0], path);
      if (found !== undefined) file.blobBefore = found;
      else if (record.parents[0]) askAt.set(record.parents[0], [...(askAt.get(record.parents[0]) ?? []), { file, path }]);
    }
  }
  if (!batch) return;
  for (const [parent, wanted] of askAt) {
    const { files } = await batch.files(target.repository, parent, [...new Set(wanted.map((w) => w.path))], target.installationId);
    for (const w of wanted) {
      const entry = files.get(w.path);
      if (entry?.type === 'blob') w.file.blobBefore = entry.sha;
    }
  }
}

/** The target with bytes already in hand put before its own local ones. */
function withBlobs(target: HistoryTarget, blobs: ReadonlyMap<string, Buffer> | undefined): HistoryTarget {
  if (!blobs || blobs.size === 0) return target;
  const local = target.localBlobs;
  return {
    ...target,
    localBlobs: async (shas) => {
      const found = new Map<string, Buffer>();
      for (const sha of shas) {
        const bytes = blobs.get(sha);
        if (bytes) found.set(sha, bytes);
      }
      const rest = shas.filter((sha) => !found.has(sha));
      if (local && rest.length > 0) for (const [sha, bytes] of await local(rest)) found.set(sha, bytes);
      return found;
    },
  };
}

/** The bytes of every blob the new commits name that is not stored yet: local first, then the source in batches. */
async function storeBlobs(deps: HistoryDeps, history: HistorySource, target: HistoryTarget, records: readonly CommitRecord[]): Promise<void> {
  const named = new Set<string>();
  for (const record of records) {
    for (const file of record.files) {
      if (file.blobBefore) named.add(file.blobBefore);
      if (file.blobAfter) named.add(file.blobAfter);
    }
  }
  const repositoryId = target.repository.id;
  let missing = await deps.store.missingHistoryBlobs(repositoryId, [...named]);
  if (missing.length === 0) return;
  const local = target.localBlobs ? await target.localBlobs(missing) : new Map<string, Buffer>();
  missing = missing.filter((sha) => !local.has(sha));
  const fetched =
    missing.length > 0
      ? await history.blobs(target.repository, missing, { maxBytes: deps.options.maxBlobBytes, ...(target.installationId ? { installationId: target.installationId } : {}) })
      : new Map<string, Buffer>();
  const blobs = [...local, ...fetched].filter(([, content]) => content.length <= deps.options.maxBlobBytes).map(([sha, content]) => ({ sha, content }));
  await deps.store.putHistoryBlobs(repositoryId, blobs);
}
