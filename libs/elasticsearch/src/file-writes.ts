import type { FileDocument } from '@gitdex/contracts';
import type { FileWrite, Snapshot } from '@gitdex/ports';
import { bulkWrite, type BulkOperation } from './bulk';
import { blobsTarget, filesTarget, type StoreContext } from './context';
import { fileDocumentId } from '@gitdex/contracts';
import { scopeFilter } from './queries';
import { deleteMatching, scrollHits } from './scan';
import { withContentTrigrams } from './content-terms';
import { splitDocument, storeBlobs, type BlobWrite } from './blobs';
import { collectBlobs, deleteEntries } from './blob-gc';

type Retire = Extract<FileWrite, { type: 'retire' }>;
type IndexOperation = Extract<BulkOperation, { action: 'index' }>;
/** Documents per mget when resolving retirements. */
const MGET_CHUNK = 500;

/** The entry of a put: its blob's fields go to the blobs index (storeBlobs). */
function putOperation(doc: FileDocument, blobs: BlobWrite[]): IndexOperation {
  const { entry, blob, symbols } = splitDocument(doc);
  blobs.push({ blob, ...(symbols !== undefined ? { symbols } : {}) });
  return { action: 'index', id: fileDocumentId(doc.repositoryId, doc.ref, doc.path, doc.fromGeneration), document: entry };
}

/**
 * Puts replace whole entries, their blobs written first (once per repository and sha);
 * retirements are ignored when the version is gone.
 *
 * A retirement is a partial update, but an update re-indexes the document from _source,
 * which leaves out contentTrigrams: an entry the previous release wrote with its content
 * inline would stop being searchable while still readable. So the content of each retired
 * version is fetched (realtime mget) and, when the entry holds it inline, its trigrams ride in
 * the partial document; Elasticsearch retries conflicts itself (retry_on_conflict).
 */
export async function writeFiles(ctx: StoreContext, writes: FileWrite[]): Promise<void> {
  const blobs: BlobWrite[] = [];
  const ops: (BulkOperation | null)[] = [];
  const putAt = new Map<string, number>();
  const retirements: { at: number; id: string; write: Retire }[] = [];
  const retirementOf = new Map<string, { at: number; id: string; write: Retire }>();
  for (const write of writes) {
    if (write.type === 'put') {
      const op = putOperation(write.document, blobs);
      putAt.set(op.id, ops.length);
      retirementOf.delete(op.id);
      ops.push(op);
      continue;
    }
    const id = fileDocumentId(write.repositoryId, write.ref, write.path, write.fromGeneration);
    const earlier = putAt.get(id);
    if (earlier !== undefined) {
      // Retiring a version put in this same call: the retirement rides along with the put.
      (ops[earlier] as IndexOperation).document = { ...((ops[earlier] as IndexOperation).document as object), retiredAtGeneration: write.atGeneration };
      continue;
    }
    const pending = retirementOf.get(id);
    if (pending) {
      // The same version retired twice in one call: one fetch, the later retirement.
      pending.write = write;
      continue;
    }
    const retirement = { at: ops.length, id, write };
    retirementOf.set(id, retirement);
    retirements.push(retirement);
    ops.push(null);
  }
  for (let i = 0; i < retirements.length; i += MGET_CHUNK) {
    const chunk = retirements.slice(i, i + MGET_CHUNK);
    const response = await ctx.client.mget<Pick<FileDocument, 'content'>>({ index: ctx.files, ids: chunk.map((r) => r.id), _source_includes: ['content'] });
    response.docs.forEach((found, j) => {
      const { at, id, write } = chunk[j] as (typeof chunk)[number];
      const content = 'found' in found && found.found ? found._source?.content : null;
      // The update merges this into _source and indexes the result: the trigrams go in with it.
      const partial =
        content !== null && content !== undefined
          ? { retiredAtGeneration: write.atGeneration, contentTrigrams: withContentTrigrams({ content } as FileDocument).contentTrigrams }
          : { retiredAtGeneration: write.atGeneration };
      ops[at] = { action: 'update', id, partial };
    });
  }
  await storeBlobs(ctx, blobs);
  await bulkWrite(
    filesTarget(ctx),
    ops.filter((op): op is BulkOperation => op !== null),
  );
}

/** A ref's entries, and then the blobs no other entry of the repository holds. */
export async function deleteRefFiles(ctx: StoreContext, repositoryId: number, ref: string): Promise<void> {
  const shas = await deleteEntries(ctx, { bool: { filter: scopeFilter(repositoryId, ref) } });
  await collectBlobs(ctx, repositoryId, shas);
}

/** Every entry and every blob of the repository. */
export async function deleteRepositoryFiles(ctx: StoreContext, repositoryId: number): Promise<void> {
  await deleteMatching(filesTarget(ctx), { bool: { filter: [{ term: { repositoryId } }] } });
  await deleteMatching(blobsTarget(ctx), { bool: { filter: [{ term: { repositoryId } }] } });
}

/**
 * Deletes versions from generations after G and takes back retirements made after G.
 * Without scripts (not in the minimal distribution) the retirement is removed by
 * re-indexing the document without it, guarded by its sequence number.
 */
export async function discardAfter(ctx: StoreContext, snapshot: Snapshot): Promise<void> {
  const scope = scopeFilter(snapshot.repositoryId, snapshot.ref);
  const target = filesTarget(ctx);
  const shas = await deleteEntries(ctx, { bool: { filter: [...scope, { range: { fromGeneration: { gt: snapshot.generation } } }] } });
  const query = {
    bool: {
      filter: [...scope, { range: { fromGeneration: { lte: snapshot.generation } } }, { range: { retiredAtGeneration: { gt: snapshot.generation } } }],
    },
  };
  for await (const hits of scrollHits(ctx.client, { index: ctx.files, query, _source: true, seq_no_primary_term: true })) {
    const ops: BulkOperation[] = hits.map((hit) => {
      const { retiredAtGeneration: _dropped, ...document } = hit._source as FileDocument;
      return { action: 'index', id: hit._id as string, document: withContentTrigrams(document), ifSeqNo: hit._seq_no, ifPrimaryTerm: hit._primary_term };
    });
    await bulkWrite(target, ops);
  }
  await collectBlobs(ctx, snapshot.repositoryId, shas);
}

export async function pruneRetired(ctx: StoreContext, repositoryId: number, ref: string, generation: number): Promise<void> {
  const shas = await deleteEntries(ctx, {
    bool: { filter: [...scopeFilter(repositoryId, ref), { range: { retiredAtGeneration: { lte: generation } } }] },
  });
  await collectBlobs(ctx, repositoryId, shas);
}
