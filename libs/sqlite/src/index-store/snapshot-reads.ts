import type { FileDocument } from '@gitdex/contracts';
import {
  deepestListed,
  MAX_FOLDERS,
  type BlobOutline,
  type FileSummary,
  type OutlineVersion,
  type FolderCount,
  type FolderScope,
  type IndexStats,
  type ReadLookup,
  type ReadLookupResult,
  type VisibleEntry,
} from '@gitdex/ports';
import type { RefState, RepositoryDocument } from '@gitdex/contracts';
import { withRawBytes } from './raw-bytes';
import type { FileBodyRow, FileRow, Statements } from './statements';
import { folderRange } from './text-order';

/**
 * The reads of one snapshot's files (IndexReads), each one synchronous run of statements on
 * the snapshot's scope `s` at generation `g`: the store resolves the scope and answers the
 * empty value when the ref has none.
 */

export function summaryOf(row: FileRow): FileSummary {
  const summary = JSON.parse(row.summary) as FileSummary;
  if (row.retired_gen !== null) summary.retiredAtGeneration = row.retired_gen;
  return summary;
}

function documentOf(row: FileBodyRow): FileDocument {
  return {
    ...summaryOf(row),
    content: row.content,
    tokens: JSON.parse(row.tokens) as string[],
    trigrams: JSON.parse(row.trigrams) as string[],
  };
}

function bodyOf(st: Statements, row: FileBodyRow): FileDocument {
  return withRawBytes(documentOf(row), row.fid, row.blob_id, st.raw);
}

export function parseOrNull<T>(doc: unknown): T | null {
  return typeof doc === 'string' ? (JSON.parse(doc) as T) : null;
}

/** One synchronous run of the three lookups: nothing to save here, but the port asks for it. */
export function lookupForRead(st: Statements, scopeOf: (repositoryId: number, ref: string) => number | undefined, request: ReadLookup): ReadLookupResult {
  const { fullName, repositoryId, versions, outlines } = request;
  const repository = parseOrNull<RepositoryDocument>(st.findRepository.get({ name: fullName.toLowerCase() }));
  const refStates = (st.listRefStatesOf.all({ repositoryId }) as string[]).map((doc) => JSON.parse(doc) as RefState);
  const asked = versions ?? outlines;
  const s = asked ? scopeOf(repositoryId, asked.ref) : undefined;
  const params = asked && s !== undefined && asked.limit > 0 ? { s, path: asked.path, since: asked.since, limit: asked.limit } : undefined;
  return {
    repository,
    refStates,
    versions: versions ? (params ? (st.fileVersions.all(params) as FileBodyRow[]) : []).map((row) => bodyOf(st, row)) : null,
    outlines: outlines ? (params ? st.outlineVersions.all(params) : []).map(outlineVersionOf) : null,
  };
}

function outlineVersionOf(row: FileRow & { outline: string | null }): OutlineVersion {
  const { path, blobSha, commitSha, language, flags, kind, fromGeneration, retiredAtGeneration } = summaryOf(row);
  return {
    path,
    blobSha,
    commitSha,
    language,
    flags,
    kind,
    fromGeneration,
    ...(retiredAtGeneration !== undefined ? { retiredAtGeneration } : {}),
    symbols: row.outline === null ? null : (JSON.parse(row.outline) as BlobOutline),
  };
}

export function visibleEntries(st: Statements, s: number, g: number, afterPath: string | null, limit: number): VisibleEntry[] {
  return limit <= 0 ? [] : (st.visibleEntries.all({ s, g, after: afterPath ?? '', limit }) as VisibleEntry[]);
}

export function lookupEntries(st: Statements, s: number, g: number, paths: string[]): VisibleEntry[] {
  return paths.length === 0 ? [] : (st.lookupEntries.all({ s, g, paths: JSON.stringify(paths) }) as VisibleEntry[]);
}

export function getFile(st: Statements, s: number, g: number, path: string): FileDocument | null {
  const row = st.getFile.get({ s, g, path }) as FileBodyRow | undefined;
  return row ? bodyOf(st, row) : null;
}

export function visibleFiles(st: Statements, s: number, g: number, afterPath: string | null, limit: number, maxSize: number): FileDocument[] {
  if (limit <= 0) return [];
  const rows = st.visibleFiles.all({ s, g, after: afterPath ?? '', maxSize, limit }) as FileBodyRow[];
  return rows.map((row) => bodyOf(st, row));
}

export function listFolders(st: Statements, s: number, scope: FolderScope): FolderCount[] {
  if (scope.depth <= 0) return [];
  const params = { s, g: scope.generation, maxDepth: deepestListed(scope), cap: MAX_FOLDERS };
  const rows = scope.folder === '' ? st.rootFolders.all(params) : st.subFolders.all({ ...params, ...folderRange(scope.folder) });
  return rows as FolderCount[];
}

export function listFiles(st: Statements, s: number, scope: FolderScope, afterPath: string | null, limit: number): { files: FileSummary[]; total: number } {
  const params = { s, g: scope.generation, maxDepth: deepestListed(scope) };
  const page = { ...params, after: afterPath ?? '', limit: Math.max(0, limit) };
  if (scope.folder === '') {
    const total = st.rootFilesTotal.get(params) as number;
    const files = limit > 0 ? (st.rootFilesPage.all(page) as FileRow[]) : [];
    return { files: files.map(summaryOf), total };
  }
  const range = folderRange(scope.folder);
  const total = st.subFilesTotal.get({ ...params, ...range }) as number;
  const files = limit > 0 ? (st.subFilesPage.all({ ...page, ...range }) as FileRow[]) : [];
  return { files: files.map(summaryOf), total };
}

export function emptyStats(): IndexStats {
  return { fileCount: 0, languages: {}, categories: {}, totalBytes: 0 };
}

export function stats(st: Statements, s: number, g: number): IndexStats {
  const result = emptyStats();
  const rows = st.stats.all({ s, g }) as { language: string | null; category: string; files: number; bytes: number }[];
  for (const row of rows) {
    result.fileCount += row.files;
    result.totalBytes += row.bytes;
    result.categories[row.category] = (result.categories[row.category] ?? 0) + row.files;
    if (row.language !== null) result.languages[row.language] = (result.languages[row.language] ?? 0) + row.files;
  }
  return result;
}

export function findByBlobSha(st: Statements, s: number, g: number, blobSha: string, limit: number): string[] {
  return limit <= 0 ? [] : (st.findByBlobSha.all({ s, g, blobSha, limit }) as string[]);
}

export function findRetired(st: Statements, s: number, g: number, path: string): FileSummary | null {
  const row = st.findRetired.get({ s, g, path }) as FileRow | undefined;
  return row ? summaryOf(row) : null;
}

export function retiredPaths(st: Statements, s: number, g: number, limit: number): string[] {
  return limit <= 0 ? [] : (st.retiredPaths.all({ s, g, limit }) as string[]);
}
