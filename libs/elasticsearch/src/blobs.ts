import type { BlobSymbols, FileDocument } from '@gitdex/contracts';
import { bulkWrite, type BulkOperation } from './bulk';
import { blobsTarget, readOptions, type StoreContext } from './context';
import { withContentTrigrams } from './content-terms';
import { symbolFieldsOf } from './symbol-fields';
import { nameDeletes, nameDocuments } from './symbol-names';

/**
 * The fields a file version takes from its blob: the same for every path and ref holding it.
 * `encoding` and `bom` are the blob's too, but stay on the entry: listings answer them
 * (FileSummary) without reading a blob, and they are a few bytes.
 */
export type BlobFields = Pick<FileDocument, 'content' | 'contentBase64'>;
/** A blob document: the blob's fields, once per repository and sha. */
export type BlobDocument = BlobFields & { repositoryId: number; blobSha: string };
/** A files-index entry: a file version without its blob's fields (nor its symbols, stored beside the blob). */
export type FileEntry = Omit<FileDocument, keyof BlobFields | 'symbols'>;
/** What a put stores of a blob: its document and, when the put carries them, its symbols. */
export interface BlobWrite {
  blob: BlobDocument;
  symbols?: BlobSymbols;
}

/** Ids per mget (blob reads and the existence check of writes). */
const MGET_CHUNK = 1000;

export function blobId(repositoryId: number, blobSha: string): string {
  return `${repositoryId}:${blobSha}`;
}

/**
 * The id of a blob's symbols document, beside the blob's in the blobs index: its own document,
 * so reading a blob's content never reads (nor filters out) its symbols, and written, found and
 * collected with the blob (docs/design/symbols-storage.md).
 */
export function symbolsId(repositoryId: number, blobSha: string): string {
  return `${repositoryId}:${blobSha}:symbols`;
}

/** The entry and the blob of a file version; the blob's optional fields only where the document has them. */
export function splitDocument(doc: FileDocument): { entry: FileEntry; blob: BlobDocument; symbols?: BlobSymbols } {
  const { content, contentBase64, symbols, ...entry } = doc;
  const blob: BlobDocument = { repositoryId: doc.repositoryId, blobSha: doc.blobSha, content, ...(contentBase64 !== undefined ? { contentBase64 } : {}) };
  return { entry, blob, ...(symbols !== undefined ? { symbols } : {}) };
}

/**
 * An entry the previous release wrote holds its content inline (`content` is in its _source,
 * null or not); an entry of this layout never has the key. Reads answer both while the blob
 * migration runs.
 */
export function holdsContentInline(source: object): boolean {
  return 'content' in source;
}

async function mgetBlobs(ctx: StoreContext, ids: string[], withSource: boolean): Promise<Map<string, BlobDocument | null>> {
  const found = new Map<string, BlobDocument | null>();
  for (let i = 0; i < ids.length; i += MGET_CHUNK) {
    const chunk = ids.slice(i, i + MGET_CHUNK);
    const response = await ctx.client.mget<BlobDocument>({ index: ctx.blobs, ids: chunk, _source: withSource }, readOptions(ctx));
    for (const doc of response.docs) {
      if ('found' in doc && doc.found) found.set(doc._id, doc._source ?? null);
    }
  }
  return found;
}

/**
 * Writes the blobs the index does not hold yet: one mget of ids (no source) tells which, so a
 * blob another ref, pull request or revert already stored costs nothing but its id; `create`
 * keeps the first copy should two writers race. Before the entries that point at them, so an
 * entry never points at a missing blob. The same mget reads the extractor version of each
 * blob's stored symbols: symbols a put carries are written when there are none or older ones
 * (a blob is parsed once), so a symbol is findable from the flip that shows its file.
 */
export async function storeBlobs(ctx: StoreContext, writes: BlobWrite[]): Promise<void> {
  const unique = new Map<string, BlobWrite>();
  for (const write of writes) {
    const id = blobId(write.blob.repositoryId, write.blob.blobSha);
    // The same blob twice in one call: the copy that carries symbols wins.
    if (write.symbols !== undefined || !unique.has(id)) unique.set(id, write);
  }
  if (unique.size === 0) return;
  const withSymbols = [...unique.values()].filter((write) => write.symbols !== undefined);
  const docs = [
    ...[...unique.keys()].map((id) => ({ _id: id, _source: false })),
    ...withSymbols.map((write) => ({ _id: symbolsId(write.blob.repositoryId, write.blob.blobSha), _source: ['symbolExtractor', 'symbolNames'] })),
  ];
  const response = await ctx.client.mget<{ symbolExtractor?: number; symbolNames?: string[] }>({ index: ctx.blobs, docs }, readOptions(ctx));
  const present = new Map<string, { symbolExtractor?: number; symbolNames?: string[] }>();
  for (const doc of response.docs) if ('found' in doc && doc.found) present.set(doc._id, doc._source ?? {});
  const ops: BulkOperation[] = [];
  const nameOps: BulkOperation[] = [];
  const listed: { repositoryId: number; blobSha: string; names: string[] }[] = [];
  for (const [id, write] of unique) if (!present.has(id)) ops.push({ action: 'create', id, document: withContentTrigrams(write.blob) });
  for (const { blob, symbols } of withSymbols) {
    const id = symbolsId(blob.repositoryId, blob.blobSha);
    const stored = present.get(id);
    const extractor = (symbols as BlobSymbols).extractor;
    if (stored?.symbolExtractor !== undefined && stored.symbolExtractor >= extractor) continue;
    const fields = symbolFieldsOf(symbols as BlobSymbols);
    listed.push({ repositoryId: blob.repositoryId, blobSha: blob.blobSha, names: fields.symbolNames });
    for (const name of nameDocuments(blob.repositoryId, blob.blobSha, (symbols as BlobSymbols).definitions)) nameOps.push({ action: 'index', ...name });
    // Names the older symbols defined and these do not: their documents would answer a definition that is gone.
    const kept = new Set(fields.symbolNames);
    nameOps.push(
      ...nameDeletes(
        blob.repositoryId,
        blob.blobSha,
        (stored?.symbolNames ?? []).filter((name) => !kept.has(name)),
      ),
    );
    ops.push({ action: 'index', id, document: { repositoryId: blob.repositoryId, blobSha: blob.blobSha, ...fields } });
  }
  // Name documents and listed names first, in requests of their own: a symbols document is written
  // only once its names are, so a write that fails between them is written again whole (the
  // stored extractor is still older) and a symbols document of this layout always has its name
  // documents and listed names.
  await Promise.all([nameOps.length > 0 ? bulkWrite(blobsTarget(ctx), nameOps) : undefined, ctx.names.write(listed)]);
  if (ops.length > 0) await bulkWrite(blobsTarget(ctx), ops);
}

/**
 * Whole documents from what the files index holds: a split entry joined with its blob (one mget
 * per call, not one per file), an inline entry of the previous release as it is. An entry whose
 * blob is gone was collected after the search saw it (its version pruned meanwhile): left out,
 * like the version itself.
 */
export async function joinBlobs(ctx: StoreContext, sources: (FileEntry | FileDocument)[]): Promise<FileDocument[]> {
  const ids = [...new Set(sources.filter((source) => !holdsContentInline(source)).map((entry) => blobId(entry.repositoryId, entry.blobSha)))];
  const blobs = ids.length > 0 ? await mgetBlobs(ctx, ids, true) : new Map<string, BlobDocument | null>();
  const joined: FileDocument[] = [];
  for (const source of sources) {
    if (holdsContentInline(source)) {
      joined.push(source as FileDocument);
      continue;
    }
    const blob = blobs.get(blobId(source.repositoryId, source.blobSha));
    if (!blob) continue;
    const { repositoryId: _repositoryId, blobSha: _blobSha, ...fields } = blob;
    joined.push({ ...source, ...fields });
  }
  return joined;
}
