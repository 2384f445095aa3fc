import type { BlobSymbols } from '@gitdex/contracts';
import { contentTermWords } from '@gitdex/terms';
import type { Statements } from './statements';

/**
 * Blobs: the content of a (repository, blob sha), its exact bytes and its content index,
 * stored once and shared by every file row naming it (`files.blob_id`).
 */

export interface BlobBody {
  content: string | null;
  /** The exact bytes, when the content does not give them back. */
  contentBase64: string | undefined;
}

/**
 * The blob row holding this body, written when the repository has none for the sha yet.
 * An existing blob with another content takes the one written now (`replace`): the same
 * bytes give the same content, so a difference means the indexer's view changed (a larger
 * size limit), and the newest view is the one to keep. The blob migration passes
 * `replace: false`, keeping the blob it met first.
 */
export function acquireBlob(st: Statements, repositoryId: number, blobSha: string, body: BlobBody, replace: boolean): number {
  const existing = st.blobBySha.get({ repositoryId, blobSha }) as { blob_id: number; content: string | null } | undefined;
  if (existing) {
    const blobId = existing.blob_id;
    if (replace && existing.content !== body.content) {
      if (existing.content !== null) st.deleteText.run({ key: blobId });
      st.setBlobContent.run({ blobId, content: body.content });
      if (body.content !== null) st.insertText.run({ key: blobId, words: contentTermWords(body.content) });
      st.raw.put(blobId, body.contentBase64);
    } else if (replace && body.contentBase64 !== undefined && st.raw.get(0, blobId) !== body.contentBase64) {
      st.raw.put(blobId, body.contentBase64);
    }
    return blobId;
  }
  const blobId = Number(st.insertBlob.run({ repositoryId, blobSha, content: body.content }).lastInsertRowid);
  // Searchable in the same transaction that makes it readable.
  if (body.content !== null) st.insertText.run({ key: blobId, words: contentTermWords(body.content) });
  if (body.contentBase64 !== undefined) st.raw.put(blobId, body.contentBase64);
  return blobId;
}

/**
 * Stores a blob's symbols unless it already has those of the same or a newer extractor: a
 * blob is parsed once, and a put that carries none keeps what is stored.
 */
export function keepSymbols(st: Statements, blobId: number, blobSha: string, symbols: BlobSymbols | undefined): void {
  if (symbols === undefined) return;
  const stored = st.symbols.extractorOf(blobId);
  if (stored === undefined || stored < symbols.extractor) st.symbols.put(blobId, blobSha, symbols);
}

/** Deletes each blob no file row names any more, with its bytes and content index. */
export function releaseBlobs(st: Statements, blobIds: Iterable<number | null>): void {
  for (const blobId of new Set(blobIds)) {
    if (blobId === null || st.blobReferenced.get({ blobId }) !== undefined) continue;
    st.deleteText.run({ key: blobId });
    st.raw.removeBlob(blobId);
    st.symbols.remove(blobId);
    st.deleteBlob.run({ blobId });
  }
}
