import type { FolderEntry, ListEntry, ListFilesInput, ListFilesOutput, FileEntry } from '@gitdex/contracts';
import type { FileSummary, FolderCount, FolderScope, Snapshot } from '@gitdex/ports';
import { locate } from '../address/locate';
import { perObject } from '../per-object';
import type { Principal, ReaderDeps } from '../deps';
import { shortRef, shortSha } from '../freshness';
import { flagWords, flagsOutput, formatBytes, formatCount } from '../format/text';
import { treeUrl } from '../github-links';
import { decodeCursor, encodeCursor, type ListCursor } from '../list/cursor';
import { pathNotFound } from '../not-found';
import { matchRef, resolveTarget } from '../target';
import { snapshotOf } from '../snapshot-of';
import { openRepository } from '../address/open-repository';
import { invalid, ToolError } from '../tool-error';
import { pendingLine, type ToolAnswer } from './answer';

const DEFAULT_LIMIT = 200;
/** Depth that reaches every file under a folder. */
const ANY_DEPTH = 10_000;
/** What the text block and structured content cost besides the entries. */
const OVERHEAD_CHARS = 3_000;

interface Listing {
  repositoryName: string;
  snapshot: Snapshot;
  commit: string;
  indexedAt: string | null;
  freshness: ListFilesOutput['freshness'];
  folder: string;
  depth: number;
  /** Files under the folder at any depth, when the listing started. */
  subtreeFiles: number;
  cursor: ListCursor | null;
  supersededBy?: string;
  /** A first page's folders and files (up to the page's limit), asked for with the check that the folder exists. */
  firstPage?: { folders: FolderCount[]; files: { files: FileSummary[]; total: number } };
}

/**
 * list_files: folders first (with the number of files under each), then files (with
 * sizes and flags), each by path, a page at a time. The cursor pins the listing to the
 * generation its first page read, so pages stay consistent across pushes.
 */
export async function listFiles(deps: ReaderDeps, principal: Principal | null, input: ListFilesInput): Promise<ToolAnswer<ListFilesOutput>> {
  const limit = input.limit ?? Math.min(DEFAULT_LIMIT, deps.limits.maxListEntries);
  if (limit > deps.limits.maxListEntries) throw invalid(`limit: at most ${deps.limits.maxListEntries} entries a page; page on with next_cursor`);
  if (input.depth !== undefined && input.depth > deps.limits.maxDepth) throw invalid(`depth: at most ${deps.limits.maxDepth}`);
  const listing = input.cursor ? await continueListing(deps, principal, input, decodeCursor(input.cursor)) : await startListing(deps, principal, input, limit);
  return page(deps, listing, limit);
}

async function startListing(deps: ReaderDeps, principal: Principal | null, input: ListFilesInput, limit: number): Promise<Listing> {
  const { repository, target, path: folder } = await locate(deps, principal, { repository: input.repository, path: input.folder, ref: input.ref }, 'folder');
  const depth = input.depth ?? 1;
  const scope: FolderScope = { ...target.snapshot, folder, depth };
  // The page's folders and files are asked for beside the check, not after it: one round trip instead of three.
  const [subtree, folders, files] = await Promise.all([
    deps.index.listFiles({ ...target.snapshot, folder, depth: ANY_DEPTH }, null, 1),
    deps.index.listFolders(scope),
    deps.index.listFiles(scope, null, limit),
  ]);
  if (subtree.total === 0 && folder !== '') {
    const file = await deps.index.getFile(target.snapshot, folder);
    if (file) throw invalid(`${folder} is a file, not a folder: read it with read_file (path "${folder}")`);
    throw await pathNotFound(deps, principal, target, folder, 'folder');
  }
  return {
    repositoryName: repository.fullName,
    snapshot: target.snapshot,
    commit: target.state.commitSha,
    indexedAt: target.state.indexedAt,
    freshness: target.freshness,
    folder,
    depth,
    subtreeFiles: subtree.total,
    cursor: null,
    firstPage: { folders, files },
  };
}

async function continueListing(deps: ReaderDeps, principal: Principal | null, input: ListFilesInput, cursor: ListCursor): Promise<Listing> {
  const opened = await openRepository(deps, principal, input.repository);
  const repository = opened.repository;
  if (cursor.r !== repository.repositoryId) throw invalid('cursor: it belongs to a listing of another repository; pass the same repository as for the first page, or leave cursor out');
  if (input.depth !== undefined && input.depth !== cursor.d) throw invalid(`cursor: it continues a listing of depth ${cursor.d}; pass the same depth or leave depth out`);
  if (input.ref !== undefined) {
    const named = matchRef(opened.states ?? (await deps.index.listRefStates(repository.repositoryId)), input.ref);
    if (named?.ref !== cursor.ref) throw invalid(`cursor: it continues a listing of ${shortRef(cursor.ref)}; pass that ref or leave ref out`);
  }
  if (input.folder !== undefined) {
    // A folder that no longer resolves is answered as the cursor mismatch below: the caller's error.
    // Anything else (the index down, a deadline, a bug) goes out as it is, never as a bad cursor.
    const same = await locate(deps, principal, { repository: input.repository, path: input.folder, ref: input.ref ?? shortRef(cursor.ref) }, 'folder').catch(callerErrorAsNull);
    if (!same || same.path !== cursor.f) throw invalid(`cursor: it continues the listing of ${cursor.f === '' ? 'the root' : `folder ${cursor.f}`}; pass that folder or leave folder out`);
  }
  // The ref as it is now: was the listed generation kept, or has the index pruned it?
  const expired = (why: string) =>
    new ToolError('CURSOR_EXPIRED', `This cursor lists ${repository.fullName} at commit ${shortSha(cursor.c)}, but ${why}, so the listing cannot go on consistently. Start again without cursor.`);
  let current;
  try {
    current = await resolveTarget(deps, repository, cursor.ref, opened.states);
  } catch (error) {
    if (error instanceof ToolError && (error.code === 'NOT_FOUND' || error.code === 'NOT_INDEXED')) throw expired(`${shortRef(cursor.ref)} is no longer indexed`);
    throw error;
  }
  const listing: Listing = {
    repositoryName: repository.fullName,
    snapshot: snapshotOf(current.state, cursor.g),
    commit: cursor.c,
    indexedAt: cursor.t,
    freshness: { ...current.freshness, commit: cursor.c, indexed_at: cursor.t, ...(cursor.c === current.freshness.commit ? {} : { served_at: cursor.t, lag_ms: null }) },
    folder: cursor.f,
    depth: cursor.d,
    subtreeFiles: cursor.n,
    cursor,
  };
  if (current.state.generation === cursor.g) return listing;
  const movedOn = `the index has moved on to ${shortSha(current.state.commitSha)} and no longer keeps every file of ${shortSha(cursor.c)}`;
  if (current.state.generation < cursor.g) throw expired(movedOn);
  // Pruning only removes documents: the same number of files under the folder means none of them went.
  const still = await deps.index.listFiles({ ...listing.snapshot, folder: cursor.f, depth: ANY_DEPTH }, null, 1);
  if (still.total !== cursor.n) throw expired(movedOn);
  return { ...listing, supersededBy: current.state.commitSha };
}

/** Caller errors of resolving a folder, which a cursor check answers as a mismatch; every other failure is thrown on. */
function callerErrorAsNull(error: unknown): null {
  if (error instanceof ToolError && (error.code === 'INVALID_ARGUMENT' || error.code === 'NOT_FOUND' || error.code === 'NOT_INDEXED')) return null;
  throw error;
}

async function page(deps: ReaderDeps, listing: Listing, limit: number): Promise<ToolAnswer<ListFilesOutput>> {
  const scope: FolderScope = { ...listing.snapshot, folder: listing.folder, depth: listing.depth };
  const cursor = listing.cursor;
  const folders = listing.firstPage?.folders ?? (await deps.index.listFolders(scope));
  const budget = deps.limits.maxResultChars - OVERHEAD_CHARS;
  const entries: ListEntry[] = [];
  const lines: string[] = [];
  let used = 0;
  let full = false;
  const add = ({ entry, line, cost }: Formatted): boolean => {
    if (entries.length >= limit || (entries.length > 0 && used + cost > budget)) {
      full = true;
      return false;
    }
    entries.push(entry);
    lines.push(line);
    used += cost;
    return true;
  };

  if (!cursor || cursor.p === 'folders') {
    const after = cursor?.a ?? null;
    const from =
      after === null
        ? 0
        : firstAfter(
            folders.map((f) => f.path),
            after,
          );
    for (let i = from; i < folders.length; i += 1) {
      if (!add(formatFolder(folders[i] as FolderCount))) break;
    }
  }
  let filesTotal: number;
  if (!full && entries.length < limit) {
    const after = cursor?.p === 'files' ? cursor.a : null;
    // The first page's files came in path order up to the whole limit: their first ones are what a smaller page holds.
    const result = listing.firstPage?.files ?? (await deps.index.listFiles(scope, after, limit - entries.length));
    filesTotal = result.total;
    for (const file of result.files.slice(0, limit - entries.length)) if (!add(formatFile(file))) break;
  } else {
    filesTotal = listing.firstPage?.files.total ?? (await deps.index.listFiles(scope, null, 1)).total;
  }

  const total = folders.length + filesTotal;
  const offset = cursor?.o ?? 0;
  const remaining = Math.max(0, total - offset - entries.length);
  const last = entries[entries.length - 1];
  const next: ListCursor | null =
    remaining > 0 && last
      ? {
          v: 1,
          r: listing.snapshot.repositoryId,
          ref: listing.snapshot.ref,
          f: listing.folder,
          d: listing.depth,
          g: listing.snapshot.generation,
          c: listing.commit,
          t: listing.indexedAt,
          p: last.type === 'folder' ? 'folders' : 'files',
          a: last.path,
          o: offset + entries.length,
          n: listing.subtreeFiles,
        }
      : null;
  const url = treeUrl(deps.githubWebUrl, listing.repositoryName, listing.commit, listing.folder);
  const structured: ListFilesOutput = {
    repository: listing.repositoryName,
    ref: listing.snapshot.ref,
    folder: listing.folder,
    depth: listing.depth,
    entries,
    total_entries: total,
    offset,
    remaining,
    next_cursor: next ? encodeCursor(next) : null,
    url,
    ...(listing.supersededBy ? { superseded_by: listing.supersededBy } : {}),
    freshness: listing.freshness,
  };
  const where = listing.folder === '' ? 'root' : `${listing.folder}/`;
  const shown = entries.length === 0 ? 'no entries' : `entries ${offset + 1}-${offset + entries.length} of ${total}`;
  const head = `${listing.repositoryName} ${where} at ${shortRef(listing.snapshot.ref)} (${shortSha(listing.commit)}), depth ${listing.depth}: ${shown}\n${url}${pendingLine(listing.freshness)}`;
  const superseded = listing.supersededBy
    ? `\nNote: this listing continues commit ${shortSha(listing.commit)}; ${shortSha(listing.supersededBy)} is indexed since: start again without cursor to list it.`
    : '';
  const foot = next ? `\n[${formatCount(remaining, 'more entry', 'more entries')}: pass cursor "${structured.next_cursor}" for the next page]` : '';
  return { structured, text: `${head}${superseded}\n\n${lines.join('\n')}${foot}` };
}

/** An entry of a page, its line in the text block, and what both cost against the page budget. */
interface Formatted {
  entry: ListEntry;
  line: string;
  cost: number;
}

function measured(entry: ListEntry, line: string): Formatted {
  return { entry, line, cost: line.length + JSON.stringify(entry).length + 2 };
}

/**
 * Each folder count and file summary is formatted (and measured as JSON, which cost as
 * much as the rest of a page) once: the read cache hands out the same objects for every
 * page of a snapshot (see perObject).
 */
const formatFolder = perObject((folder: FolderCount): Formatted => {
  const entry: FolderEntry = { type: 'folder', path: folder.path, name: folder.path.slice(folder.path.lastIndexOf('/') + 1), file_count: folder.fileCount };
  return measured(entry, `${folder.path}/  (${formatCount(folder.fileCount, 'file')})`);
});

const formatFile = perObject((file: FileSummary): Formatted => measured(fileEntry(file), fileLine(file)));

function fileEntry(file: FileSummary): FileEntry {
  return {
    type: 'file',
    path: file.path,
    name: file.name,
    kind: file.kind,
    size: file.size,
    language: file.language,
    flags: flagsOutput(file.flags),
    ...(file.target !== undefined ? { target: file.target } : {}),
  };
}

function fileLine(file: FileSummary): string {
  return `${file.path}  ${formatBytes(file.size)}${flagWords(flagsOutput(file.flags), file.kind, file.target)}`;
}

/**
 * Index of the first path after `after` in a list in path order. (JavaScript compares UTF-16
 * units, the index code points: they differ only between astral and U+E000..U+FFFF characters.)
 */
function firstAfter(paths: string[], after: string): number {
  let low = 0;
  let high = paths.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((paths[middle] as string) <= after) low = middle + 1;
    else high = middle;
  }
  return low;
}
