import type { FileDocument } from '@gitdex/contracts';
import type { FileWrite } from '@gitdex/ports';
import { fileDocumentId } from '@gitdex/contracts';
import { acquireBlob, keepSymbols, releaseBlobs } from './blobs';
import type { FileBodyRow, FileRow, Statements } from './statements';

const TRIGRAM = 0;
const TOKEN = 1;

type Retire = Extract<FileWrite, { type: 'retire' }>;

/** Folders of a file version that get a row in `file_folders` (the root is implied). */
function foldersOf(ancestors: readonly string[]): string[] {
  return [...new Set(ancestors)].filter((folder) => folder !== '');
}

function folderDepth(folder: string): number {
  return folder.split('/').length;
}

function ancestorsOfRow(row: FileRow): string[] {
  return (JSON.parse(row.summary) as { ancestors: string[] }).ancestors;
}

/** Splits a document into the stored columns; the summary JSON leaves out what has its own column. */
function columnsOf(doc: FileDocument) {
  const { content, tokens, trigrams, retiredAtGeneration, contentBase64: _raw, symbols: _symbols, ...summary } = doc;
  return {
    summary: JSON.stringify(summary),
    content,
    tokens: JSON.stringify(tokens),
    trigrams: JSON.stringify(trigrams),
    retiredGen: retiredAtGeneration ?? null,
  };
}

function scopeOf(st: Statements, repositoryId: number, ref: string): number {
  st.insertScope.run({ repositoryId, ref });
  return st.scopeId.get({ repositoryId, ref }) as number;
}

/** Deletes a file version and every row derived from it, but not its blob (see removeFiles). */
function removeFileRows(st: Statements, row: FileBodyRow): void {
  const s = row.scope_id;
  const fid = row.fid;
  for (const folder of foldersOf(ancestorsOfRow(row))) st.deleteFolder.run({ s, folder, fid });
  for (const term of JSON.parse(row.trigrams) as string[]) st.deleteTerm.run({ s, kind: TRIGRAM, term, fid });
  for (const term of JSON.parse(row.tokens) as string[]) st.deleteTerm.run({ s, kind: TOKEN, term, fid });
  if (row.blob_id === null) {
    // A row of layout 5 or older not yet migrated: its content is its own.
    if (row.content !== null) st.deleteText.run({ key: fid });
    st.raw.removeLegacy(fid);
  }
  st.deleteBody.run({ fid });
  st.deleteFile.run({ fid });
}

/** Deletes file versions, then each of their blobs that no other version names. */
function removeFiles(st: Statements, rows: FileBodyRow[]): void {
  for (const row of rows) removeFileRows(st, row);
  releaseBlobs(
    st,
    rows.map((row) => row.blob_id),
  );
}

/** Upserts a whole document; rewriting an identical document changes nothing. */
export function putFile(st: Statements, doc: FileDocument): void {
  const id = fileDocumentId(doc.repositoryId, doc.ref, doc.path, doc.fromGeneration);
  const columns = columnsOf(doc);
  const existing = st.fileById.get({ id }) as FileBodyRow | undefined;
  if (existing) {
    const same =
      existing.summary === columns.summary &&
      existing.content === columns.content &&
      existing.tokens === columns.tokens &&
      existing.trigrams === columns.trigrams &&
      existing.retired_gen === columns.retiredGen;
    if (same) {
      if (existing.blob_id !== null) keepSymbols(st, existing.blob_id, doc.blobSha, doc.symbols);
      return;
    }
    // Its blob is released after the new row names its own: the same blob stays.
    removeFileRows(st, existing);
  }
  const s = scopeOf(st, doc.repositoryId, doc.ref);
  const blobId = acquireBlob(st, doc.repositoryId, doc.blobSha, { content: columns.content, contentBase64: doc.contentBase64 }, true);
  keepSymbols(st, blobId, doc.blobSha, doc.symbols);
  const fid = Number(
    st.insertFile.run({
      id,
      s,
      path: doc.path,
      depth: doc.depth,
      fromGen: doc.fromGeneration,
      retiredGen: columns.retiredGen,
      blobSha: doc.blobSha,
      kind: doc.kind,
      language: doc.language,
      category: doc.category,
      size: doc.size,
      nameLower: doc.nameLower,
      pathLower: doc.pathLower,
      summary: columns.summary,
      blobId,
    }).lastInsertRowid,
  );
  st.insertBody.run({ fid, tokens: columns.tokens, trigrams: columns.trigrams });
  for (const folder of foldersOf(doc.ancestors)) {
    st.insertFolder.run({ s, folder, fid, depth: folderDepth(folder), fromGen: doc.fromGeneration, retiredGen: columns.retiredGen });
  }
  for (const term of doc.trigrams) st.insertTerm.run({ s, kind: TRIGRAM, term, fid });
  for (const term of doc.tokens) st.insertTerm.run({ s, kind: TOKEN, term, fid });
  if (existing) releaseBlobs(st, [existing.blob_id]);
}

/** Sets (or clears, with null) the retirement of a version on the file and its folder rows. */
function setRetired(st: Statements, row: FileRow, retiredGen: number | null): void {
  st.setRetired.run({ fid: row.fid, retiredGen });
  for (const folder of foldersOf(ancestorsOfRow(row))) {
    st.setFolderRetired.run({ s: row.scope_id, folder, fid: row.fid, retiredGen });
  }
}

/** Hides a version from `atGeneration` on; a version that does not exist is ignored. */
export function retireFile(st: Statements, write: Retire): void {
  const id = fileDocumentId(write.repositoryId, write.ref, write.path, write.fromGeneration);
  const existing = st.fileById.get({ id }) as FileBodyRow | undefined;
  if (!existing || existing.retired_gen === write.atGeneration) return;
  setRetired(st, existing, write.atGeneration);
}

/** Drops versions from generations after `g` and retirements made after `g`. */
export function discardAfter(st: Statements, s: number, g: number): void {
  removeFiles(st, st.filesFromAfter.all({ s, g }) as FileBodyRow[]);
  for (const row of st.filesRetiredAfter.all({ s, g }) as FileRow[]) setRetired(st, row, null);
}

export function pruneRetired(st: Statements, s: number, g: number): void {
  removeFiles(st, st.filesRetiredUpTo.all({ s, g }) as FileBodyRow[]);
}

/** Removes every file version of a scope, the scope itself, and the blobs only it named. */
export function deleteScope(st: Statements, s: number): void {
  const blobIds = st.blobsOfScope.all({ s }) as number[];
  st.deleteScopeTerms.run({ s });
  st.deleteScopeFolders.run({ s });
  st.deleteScopeText.run({ s });
  st.deleteScopeBodies.run({ s });
  st.raw.removeLegacyScope(s);
  st.deleteScopeFiles.run({ s });
  st.deleteScope.run({ s });
  releaseBlobs(st, blobIds);
}
