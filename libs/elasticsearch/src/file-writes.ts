import type { FileDocument } from '@gitdex/contracts';
import type { FileWrite, Snapshot } from '@gitdex/ports';
import { bulkWrite, type BulkOperation } from './bulk';
import { filesTarget, type StoreContext } from './context';
import { fileDocumentId } from '@gitdex/contracts';
import { scopeFilter } from './queries';
import { deleteMatching, scrollHits } from './scan';

function operationOf(write: FileWrite): BulkOperation {
  if (write.type === 'put') {
    const doc = write.document;
    return { action: 'index', id: fileDocumentId(doc.repositoryId, doc.ref, doc.path, doc.fromGeneration), document: doc };
  }
  return {
    action: 'update',
    id: fileDocumentId(write.repositoryId, write.ref, write.path, write.fromGeneration),
    partial: { retiredAtGeneration: write.atGeneration },
  };
}

/** Puts replace whole documents; retirements are partial updates, ignored when the version is gone. */
export async function writeFiles(ctx: StoreContext, writes: FileWrite[]): Promise<void> {
  await bulkWrite(filesTarget(ctx), writes.map(operationOf));
}

export async function deleteFilesOf(ctx: StoreContext, repositoryId: number, ref?: string): Promise<void> {
  const filter = ref === undefined ? [{ term: { repositoryId } }] : scopeFilter(repositoryId, ref);
  await deleteMatching(filesTarget(ctx), { bool: { filter } });
}

/**
 * Deletes versions from generations after G and takes back retirements made after G.
 * Without scripts (not in the minimal distribution) the retirement is removed by
 * re-indexing the document without it, guarded by its sequence number.
 */
export async function discardAfter(ctx: StoreContext, snapshot: Snapshot): Promise<void> {
  const scope = scopeFilter(snapshot.repositoryId, snapshot.ref);
  const target = filesTarget(ctx);
  await deleteMatching(target, { bool: { filter: [...scope, { range: { fromGeneration: { gt: snapshot.generation } } }] } });
  const query = {
    bool: {
      filter: [...scope, { range: { fromGeneration: { lte: snapshot.generation } } }, { range: { retiredAtGeneration: { gt: snapshot.generation } } }],
    },
  };
  for await (const hits of scrollHits(ctx.client, { index: ctx.files, query, _source: true, seq_no_primary_term: true })) {
    const ops: BulkOperation[] = hits.map((hit) => {
      const { retiredAtGeneration: _dropped, ...document } = hit._source as FileDocument;
      return { action: 'index', id: hit._id as string, document, ifSeqNo: hit._seq_no, ifPrimaryTerm: hit._primary_term };
    });
    await bulkWrite(target, ops);
  }
}

export async function pruneRetired(ctx: StoreContext, repositoryId: number, ref: string, generation: number): Promise<void> {
  await deleteMatching(filesTarget(ctx), {
    bool: { filter: [...scopeFilter(repositoryId, ref), { range: { retiredAtGeneration: { lte: generation } } }] },
  });
}
