import type { PullRequestInfo, RefState, RetainedCommit, Underlay } from '@gitdex/contracts';
import { compareCodePoints } from '@gitdex/terms';
import {
  PortError,
  type IndexLifecycle,
  type IndexReads,
  type IndexWrites,
  type Snapshot,
  type Source,
  type SourceCommit,
  type SourceComparison,
  type SourceRepository,
  type VisibleEntry,
} from '@gitdex/ports';
import { buildDocument, kindOfMode, wantsContent, type DocumentContext, type FetchedEntry } from './build-document';
import type { PathRules } from './classify/vendored';
import { mapLimit } from './concurrency';
import { tarballEntries } from './tarball-entries';
import { diffTrees, diffWholeTrees, DiffTooLarge, type TreeChange } from './tree-diff';
import { findSubmodules } from './submodules';
import type { LeafEntry, TreeReader } from './tree-walk';
import { WriteBuffer } from './write-buffer';
import { ChangedPaths, recentCommitsAdded, recentCommitsAfter, type PushedCommits } from './served-commits';
import { attachSymbols, type SymbolCounts, type SymbolParsing } from './attach-symbols';
import { recordHistory, settleHistory, type HistoryDeps } from './history/record-history';
import type { VersionBlameStats } from './history/version-blames';
import { blobsInSnapshots } from './history/local-blobs';

export interface IndexRefOptions {
  maxFileBytes: number;
  /** Past this many changed entries one tarball is cheaper than fetching blobs one by one. */
  maxIncrementalChanges: number;
  /**
   * Retired versions are kept this many generations, for pinned cursors, "moved to" suggestions
   * and reading older commits: the served commit and this many older ones stay readable.
   */
  retainedGenerations: number;
  blobConcurrency: number;
  bulk: { maxWrites: number; maxBytes: number };
  rules?: PathRules;
}

export const DEFAULT_INDEX_REF_OPTIONS: IndexRefOptions = {
  maxFileBytes: 1024 * 1024,
  maxIncrementalChanges: 2000,
  retainedGenerations: 3,
  blobConcurrency: 8,
  bulk: { maxWrites: 500, maxBytes: 8 * 1024 * 1024 },
};

export interface IndexRefDeps {
  /** Reads and writes a ref's files; ping tells an outage from a bad event. */
  index: IndexReads & IndexWrites & Pick<IndexLifecycle, 'ping'>;
  source: Source;
  options: IndexRefOptions;
  now: () => Date;
  heartbeat?: () => Promise<void>;
  /** Called as entries are processed (for the CLI's progress bar). */
  onProgress?: (entriesProcessed: number) => void;
  /** Parses the symbols of the blobs written (absent: files are written without symbols). */
  symbols?: SymbolParsing;
  /** Where each ref's commits are kept (docs/design/history.md); none: no history. */
  history?: HistoryDeps;
}

/** Changes already known for a push (from GitHub's compare), with the bytes already read. */
export interface Prepared {
  /** The served commit they start from: used only while the ref still serves it. */
  fromCommit: string;
  changes: TreeChange[];
  /** Exact bytes by path, for the upserts whose content was read with the changes. */
  contents: Map<string, Buffer>;
}

export interface RefTarget {
  repository: SourceRepository;
  ref: string;
  head: SourceCommit;
  installationId?: number;
  /** When the event that asked for this was received: freshness is measured from it. */
  receivedAt?: string;
  /** The push that asked for this: what the new head is known to contain (served-commits.ts). */
  pushed?: PushedCommits;
  /** The pull request whose head this ref serves (refs/pull/N/head), stored on its ref state. */
  pull?: PullRequestInfo;
  /**
   * The served state of the ref to store this one against (a pull request's base branch): only
   * the paths that differ from it are written, and the state says so (RefState.underlay).
   */
  layerOn?: RefState;
  prepared?: Prepared;
  /** The source said the change is wide (300 files or more): compare whole trees, not folder by folder. */
  wide?: boolean;
  /** The push's compare from the served commit: history takes the pushed commits from it. */
  comparison?: { base: string; result: SourceComparison };
}

export type IndexOutcome =
  | { status: 'unchanged'; commitSha: string; blames?: VersionBlameStats }
  | {
      status: 'indexed';
      strategy: 'incremental' | 'tarball' | 'layered';
      commitSha: string;
      generation: number;
      written: number;
      retired: number;
      fileCount: number;
      treesFetched: number;
      /** The written files' symbols: parsed (by status) or reused; absent without SymbolParsing. */
      symbols?: SymbolCounts;
      /** The version blames stored with the new commits; absent without history. */
      blames?: VersionBlameStats;
    };

export function emptyRefState(repositoryId: number, ref: string): RefState {
  return {
    repositoryId,
    ref,
    commitSha: null,
    treeSha: null,
    generation: 0,
    indexedAt: null,
    committedAt: null,
    fileCount: 0,
    status: 'indexing',
    lastError: null,
    attempts: 0,
    pendingCommitSha: null,
    pendingSince: null,
    sourceReceivedAt: null,
  };
}

interface Plan {
  buffer: WriteBuffer;
  context: DocumentContext;
  previous: Snapshot;
  retired: number;
  changed: ChangedPaths;
}

/**
 * Brings one ref of the index to one commit. New versions are written under the next
 * generation while readers keep seeing the current one; the ref state flips only after
 * everything is written and searchable. Any failure leaves the served state as it was.
 */
export async function indexRef(deps: IndexRefDeps, target: RefTarget): Promise<IndexOutcome> {
  const { index, options } = deps;
  const repositoryId = target.repository.id;
  const state = (await index.getRefState(repositoryId, target.ref)) ?? emptyRefState(repositoryId, target.ref);
  if (state.commitSha === target.head.sha && state.status === 'ready') {
    const pull = target.pull && !samePull(state.pull, target.pull) ? { pull: target.pull } : {};
    const recent = recentCommitsAdded(state, target.pushed);
    const known = recent ? { recentCommits: recent } : {};
    if (state.pendingCommitSha === target.head.sha || 'pull' in pull || recent) await index.putRefState({ ...state, pendingCommitSha: null, pendingSince: null, ...pull, ...known });
    // A ref indexed before history was kept gets its backfill on its next event.
    const backfilled =
      deps.history && !(await deps.history.store.getRefHistory(repositoryId, target.ref))
        ? await recordHistory(deps.history, deps.source, historyTarget(deps, target, { repositoryId, ref: target.ref, generation: 0 }, state.generation))
        : null;
    const backfilledBlames = backfilled && deps.history ? await settleHistory(deps.history, backfilled) : undefined;
    return { status: 'unchanged', commitSha: target.head.sha, ...(backfilledBlames ? { blames: backfilledBlames } : {}) };
  }

  const previous: Snapshot = { repositoryId, ref: target.ref, generation: state.generation };
  await index.discardAfter(previous);
  const generation = state.generation + 1;
  const context: DocumentContext = { repositoryId, ref: target.ref, commitSha: target.head.sha, generation, maxFileBytes: options.maxFileBytes, ...(options.rules ? { rules: options.rules } : {}) };
  const symbols: SymbolCounts | undefined = deps.symbols ? { parsed: 0, failed: 0, skipped: 0, reused: 0 } : undefined;
  const parsing = deps.symbols;
  const prepare =
    parsing && symbols
      ? async (writes: Parameters<typeof attachSymbols>[1]) => {
          const counts = await attachSymbols(parsing, writes);
          for (const key of Object.keys(counts) as (keyof SymbolCounts)[]) symbols[key] += counts[key];
        }
      : undefined;
  const plan: Plan = {
    buffer: new WriteBuffer(index, { ...options.bulk, ...(deps.heartbeat ? { onFlush: deps.heartbeat } : {}), ...(prepare ? { prepare } : {}) }),
    context,
    previous,
    retired: 0,
    changed: new ChangedPaths(),
  };
  const reader: TreeReader = { source: deps.source, repository: target.repository, fetched: { trees: 0 }, ...(target.installationId ? { installationId: target.installationId } : {}) };

  let strategy: 'incremental' | 'tarball' | 'layered' = 'tarball';
  let fileCount: number;
  let underlay: Underlay | undefined;
  try {
    const layer = target.layerOn ? await layerChanges(index, reader, target.layerOn, target.head.treeSha, options, target.prepared) : null;
    // A layered state's own versions are only its changes: an update diffs against the underlay again.
    const incremental = !layer && !state.underlay && state.generation > 0;
    const prepared = incremental && target.prepared && target.prepared.fromCommit === state.commitSha ? target.prepared : undefined;
    const changes = prepared ? prepared.changes : incremental && state.treeSha ? await tryDiff(reader, state.treeSha, target.head.treeSha, options.maxIncrementalChanges, target.wide === true) : null;
    if (layer) {
      strategy = 'layered';
      underlay = layer.underlay;
      fileCount = await applyLayer(deps, plan, reader, layer);
    } else if (changes) {
      strategy = 'incremental';
      fileCount = state.fileCount + (await applyChanges(deps, plan, reader, changes, prepared?.contents));
    } else {
      fileCount = await applyTarball(deps, plan, reader, target);
    }
    await plan.buffer.flush();
  } catch (error) {
    await plan.buffer.settle();
    throw error;
  }
  await index.refresh();
  // Before the flip, so a commit is listed exactly when its content is readable.
  const recorded = deps.history ? await recordHistory(deps.history, deps.source, historyTarget(deps, target, previous, generation)) : null;

  const now = deps.now().toISOString();
  const retained: RetainedCommit = {
    commitSha: target.head.sha,
    generation,
    parentShas: target.head.parentShas ?? [],
    committedAt: target.head.committedAt,
    indexedAt: now,
    receivedAt: target.receivedAt ?? null,
    changedPaths: plan.changed.paths,
    changedCount: plan.changed.count,
  };
  const { underlay: _previousUnderlay, ...unlayered } = state;
  await index.putRefState({
    ...unlayered,
    // An older commit of a layered ref was layered differently: only the served one is offered.
    history: underlay || state.underlay ? [retained] : retainedHistory(state, retained, options.retainedGenerations),
    commitSha: target.head.sha,
    treeSha: target.head.treeSha,
    generation,
    indexedAt: now,
    committedAt: target.head.committedAt,
    fileCount,
    status: 'ready',
    lastError: null,
    attempts: 0,
    pendingCommitSha: state.pendingCommitSha === target.head.sha ? null : state.pendingCommitSha,
    pendingSince: state.pendingCommitSha === target.head.sha ? null : state.pendingSince,
    sourceReceivedAt: target.receivedAt ?? now,
    recentCommits: recentCommitsAfter(state, target.head, target.pushed),
    ...(target.pull ? { pull: target.pull } : {}),
    ...(underlay ? { underlay } : {}),
  });
  const blames = recorded && deps.history ? await settleHistory(deps.history, recorded) : undefined;
  const pruneUpTo = Math.min(generation - options.retainedGenerations, ...(await pinnedGenerations(index, repositoryId, target.ref)));
  if (pruneUpTo > 0) await index.pruneRetired(repositoryId, target.ref, pruneUpTo);
  return {
    status: 'indexed',
    strategy,
    commitSha: target.head.sha,
    generation,
    written: plan.buffer.written,
    retired: plan.retired,
    fileCount,
    treesFetched: reader.fetched?.trees ?? 0,
    ...(symbols ? { symbols } : {}),
    ...(blames ? { blames } : {}),
  };
}

function historyTarget(deps: IndexRefDeps, target: RefTarget, previous: Snapshot, generation: number): Parameters<typeof recordHistory>[2] {
  const written: Snapshot = { repositoryId: previous.repositoryId, ref: previous.ref, generation };
  return {
    repository: target.repository,
    ref: target.ref,
    head: target.head.sha,
    ...(target.installationId ? { installationId: target.installationId } : {}),
    ...(target.comparison ? { comparison: target.comparison } : {}),
    // A pull request's history starts from its base branch's: only its own commits are new.
    ...(target.pull ? { startFrom: `refs/heads/${target.pull.baseRef}` } : {}),
    localBlobs: (shas) => blobsInSnapshots(deps.index, previous.generation > 0 ? [written, previous] : [written], shas),
  };
}

function samePull(a: PullRequestInfo | undefined, b: PullRequestInfo): boolean {
  return a !== undefined && JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The commits still readable after this flip: pruning removes versions retired at or before
 * generation - retained, so generations from there to the new one stay whole (the new
 * commit and `retained` older ones).
 */
function retainedHistory(state: RefState, newest: RetainedCommit, retained: number): RetainedCommit[] {
  const older =
    state.history ??
    (state.commitSha && state.indexedAt && state.generation > 0
      ? [{ commitSha: state.commitSha, generation: state.generation, parentShas: [], committedAt: state.committedAt, indexedAt: state.indexedAt }]
      : []);
  return [newest, ...older.filter((entry) => entry.generation >= newest.generation - retained && entry.generation < newest.generation)];
}

/**
 * Generations of `ref` that refs layered on it read (RefState.underlay): pruning stops at the
 * oldest, so a pull request keeps reading its base as it was when it was indexed.
 */
async function pinnedGenerations(index: IndexReads, repositoryId: number, ref: string): Promise<number[]> {
  return (await index.listRefStates(repositoryId)).flatMap((other) => (other.underlay?.ref === ref ? [other.underlay.generation] : []));
}

interface Layer {
  underlay: Underlay;
  base: RefState;
  upserts: LeafEntry[];
  removed: string[];
  /** Bytes already read with the changes, by path. */
  contents?: Map<string, Buffer>;
}

/**
 * Fewest changed paths worth layering; past a third of the base's files (or the incremental
 * limit) storing the ref whole costs about as much and reads simpler.
 */
const MIN_LAYER_LIMIT = 100;

/** How the head differs from the served base, or null when the ref is better stored whole. */
async function layerChanges(index: IndexReads, reader: TreeReader, base: RefState, headTree: string, options: IndexRefOptions, prepared?: Prepared): Promise<Layer | null> {
  if (base.status !== 'ready' || base.treeSha === null || base.generation === 0 || base.underlay) return null;
  const limit = Math.min(options.maxIncrementalChanges, Math.max(MIN_LAYER_LIMIT, Math.floor(base.fileCount / 3)));
  const fromBase = prepared && prepared.fromCommit === base.commitSha ? await differingFromBase(index, base, prepared.changes) : null;
  const changes = fromBase ?? (await tryDiff(reader, base.treeSha, headTree, limit));
  if (!changes || changes.length > limit) return null;
  const upserts = changes.flatMap((change) => (change.type === 'upsert' ? [change.entry] : []));
  const upserted = new Set(upserts.map((entry) => entry.path));
  const removed = changes.flatMap((change) => (change.type === 'delete' && !upserted.has(change.path) ? [change.path] : []));
  const shadowed = [...new Set([...upserted, ...removed])].sort(compareCodePoints);
  return { underlay: { ref: base.ref, generation: base.generation, shadowed }, base, upserts, removed, ...(fromBase ? { contents: prepared!.contents } : {}) };
}

/** Candidate changes (from compare) narrowed to the paths whose version really differs from the base's served one. */
async function differingFromBase(index: IndexReads, base: RefState, candidates: TreeChange[]): Promise<TreeChange[]> {
  const snapshot: Snapshot = { repositoryId: base.repositoryId, ref: base.ref, generation: base.generation };
  const paths = candidates.map((change) => (change.type === 'delete' ? change.path : change.entry.path));
  const inBase = new Map<string, VisibleEntry>();
  for (let i = 0; i < paths.length; i += 1000) for (const entry of await index.lookupEntries(snapshot, paths.slice(i, i + 1000))) inBase.set(entry.path, entry);
  return candidates.filter((change) => {
    if (change.type === 'delete') return inBase.has(change.path);
    const entry = inBase.get(change.entry.path);
    return !entry || entry.blobSha !== change.entry.sha || entry.kind !== kindOfMode(change.entry.mode);
  });
}

/**
 * Makes the ref's own versions exactly the layer's changed files: fetches what it does not hold
 * yet, retires what it no longer changes. Returns the layered ref's file count.
 */
async function applyLayer(deps: IndexRefDeps, plan: Plan, reader: TreeReader, layer: Layer): Promise<number> {
  const own = await allVisibleEntries(deps.index, plan.previous);
  const wanted = new Set(layer.upserts.map((entry) => entry.path));
  const dropped = [...own.keys()].filter((path) => !wanted.has(path));
  await applyChanges(deps, plan, reader, [...layer.upserts.map((entry) => ({ type: 'upsert' as const, entry })), ...dropped.map((path) => ({ type: 'delete' as const, path }))], layer.contents);
  const underlaySnapshot: Snapshot = { repositoryId: plan.previous.repositoryId, ref: layer.base.ref, generation: layer.base.generation };
  const inBase = new Set<string>();
  const paths = [...wanted];
  for (let i = 0; i < paths.length; i += 1000) for (const entry of await deps.index.lookupEntries(underlaySnapshot, paths.slice(i, i + 1000))) inBase.add(entry.path);
  return layer.base.fileCount + paths.filter((path) => !inBase.has(path)).length - layer.removed.length;
}

/** Every entry a snapshot sees, by path. */
async function allVisibleEntries(index: IndexReads, snapshot: Snapshot): Promise<Map<string, VisibleEntry>> {
  const entries = new Map<string, VisibleEntry>();
  if (snapshot.generation === 0) return entries;
  for (let after: string | null = null; ;) {
    const page = await index.visibleEntries(snapshot, after, 5000);
    for (const entry of page) entries.set(entry.path, entry);
    if (page.length < 5000) return entries;
    after = page[page.length - 1]!.path;
  }
}

async function tryDiff(reader: TreeReader, oldTree: string, newTree: string, maxChanges: number, wide = false): Promise<TreeChange[] | null> {
  try {
    return (wide ? await diffWholeTrees(reader, oldTree, newTree, maxChanges) : null) ?? (await diffTrees(reader, oldTree, newTree, maxChanges));
  } catch (error) {
    // A large diff is cheaper as one tarball; an old tree GitHub no longer has (force push) needs one.
    if (error instanceof DiffTooLarge) return null;
    if (error instanceof PortError && error.code === 'NOT_FOUND') return null;
    throw error;
  }
}

async function put(plan: Plan, entry: FetchedEntry, previous: VisibleEntry | undefined): Promise<void> {
  plan.changed.note(entry.path);
  await plan.buffer.add({ type: 'put', document: buildDocument(entry, plan.context) });
  if (previous) await retire(plan, previous);
}

async function retire(plan: Plan, previous: VisibleEntry): Promise<void> {
  plan.retired += 1;
  await plan.buffer.add({
    type: 'retire',
    repositoryId: plan.previous.repositoryId,
    ref: plan.previous.ref,
    path: previous.path,
    fromGeneration: previous.fromGeneration,
    atGeneration: plan.context.generation,
  });
}

const unchanged = (previous: VisibleEntry | undefined, blobSha: string, mode: string) => previous !== undefined && previous.blobSha === blobSha && previous.kind === kindOfMode(mode);

/**
 * The exact bytes of the files to write, by path: those read with the changes, else read in
 * batches (GraphQL) when the source can; whatever is still missing is read blob by blob.
 */
async function batchContents(deps: IndexRefDeps, plan: Plan, reader: TreeReader, entries: LeafEntry[], known: Map<string, Buffer> | undefined): Promise<Map<string, Buffer>> {
  if (known) return known;
  const contents = new Map<string, Buffer>();
  const batch = deps.source.batchReads;
  if (!batch || entries.length === 0) return contents;
  const read = await batch.files(
    reader.repository,
    plan.context.commitSha,
    entries.map((e) => e.path),
    reader.installationId,
  );
  const shas = new Map(entries.map((e) => [e.path, e.sha]));
  for (const file of read.files.values()) if (file.content && shas.get(file.path) === file.sha) contents.set(file.path, file.content);
  return contents;
}

/** Applies a tree diff; returns the change in the number of files. */
async function applyChanges(deps: IndexRefDeps, plan: Plan, reader: TreeReader, changes: TreeChange[], known?: Map<string, Buffer>): Promise<number> {
  const paths = changes.map((c) => (c.type === 'delete' ? c.path : c.entry.path));
  const previous = new Map<string, VisibleEntry>();
  for (let i = 0; i < paths.length; i += 1000) {
    for (const entry of await deps.index.lookupEntries(plan.previous, paths.slice(i, i + 1000))) previous.set(entry.path, entry);
  }
  let delta = 0;
  const upserts = changes.flatMap((c) => (c.type === 'upsert' && !unchanged(previous.get(c.entry.path), c.entry.sha, c.entry.mode) ? [c.entry] : []));
  const upserted = new Set(upserts.map((u) => u.path));
  for (const change of changes) {
    if (change.type !== 'delete') continue;
    const old = previous.get(change.path);
    if (old && !upserted.has(change.path)) {
      plan.changed.note(change.path);
      await retire(plan, old);
      delta -= 1;
    }
  }
  const wanted = upserts.filter((entry) => entry.type === 'blob' && wantsContent({ mode: entry.mode, size: entry.size ?? 0, path: entry.path }, plan.context));
  const contents = await batchContents(deps, plan, reader, wanted, known);
  const wantedPaths = new Set(wanted.map((entry) => entry.path));
  const fetched = await mapLimit(upserts, deps.options.blobConcurrency, async (entry) => {
    const size = entry.size ?? 0;
    const content = wantedPaths.has(entry.path) ? (contents.get(entry.path) ?? (await deps.source.blob(reader.repository, entry.sha, reader.installationId))) : undefined;
    return { path: entry.path, mode: entry.mode, blobSha: entry.sha, size, ...(content ? { content } : {}) } satisfies FetchedEntry;
  });
  deps.onProgress?.(changes.length);
  for (const entry of fetched) {
    const old = previous.get(entry.path);
    if (!old) delta += 1;
    await put(plan, entry, old);
  }
  return delta;
}

/** Indexes from one streamed tarball, writing only what differs from the served version. */
async function applyTarball(deps: IndexRefDeps, plan: Plan, reader: TreeReader, target: RefTarget): Promise<number> {
  const previous = await allVisibleEntries(deps.index, plan.previous);
  const seen = new Set<string>();
  let gitmodules: Buffer | undefined;
  const stream = await deps.source.tarball(reader.repository, target.head.sha, reader.installationId);
  const wants = (path: string, size: number) => path === '.gitmodules' || wantsContent({ mode: '100644', size, path }, plan.context);
  for await (const entry of tarballEntries(stream, { maxContentBytes: deps.options.maxFileBytes, wantsContent: wants })) {
    seen.add(entry.path);
    deps.onProgress?.(seen.size);
    if (entry.path === '.gitmodules') gitmodules = entry.content;
    const old = previous.get(entry.path);
    if (!unchanged(old, entry.blobSha, entry.mode)) await put(plan, entry, old);
  }
  if (gitmodules) {
    for (const submodule of await findSubmodules(reader, target.head.treeSha, gitmodules.toString('utf8'))) {
      seen.add(submodule.path);
      const old = previous.get(submodule.path);
      if (!unchanged(old, submodule.sha, '160000')) await put(plan, { path: submodule.path, mode: '160000', blobSha: submodule.sha, size: 0 }, old);
    }
  }
  for (const [path, old] of previous) {
    if (seen.has(path)) continue;
    plan.changed.note(path);
    await retire(plan, old);
  }
  return seen.size;
}
