import type { estypes } from '@elastic/elasticsearch';
import type { FileDocument } from '@gitdex/contracts';
import { bulkWrite, type BulkOperation } from './bulk';
import { filesTarget, type StoreContext } from './context';
import { holdsContentInline, splitDocument, storeBlobs } from './blobs';
import { CONTENT_IN_BLOBS_META } from './mappings';
import { scrollHits } from './scan';

/** Progress of the move of inline content into blobs, as kept in the files index's _meta. */
export interface BlobMigrationStatus {
  /** No entry holds its content inline any more (or the index was made by this build). */
  done: boolean;
  /** Entries moved so far, by every process that worked on it. */
  migrated: number;
}

/** What one call of migrateBlobs did. */
export interface BlobMigrationRun extends BlobMigrationStatus {
  /** Entries this call moved. */
  movedNow: number;
  /** Full passes over the entries (the last found nothing to move). */
  passes: number;
}

const PROGRESS_META = 'gitdexBlobMigration';
/** Guarded rewrites refused because the entry changed meanwhile are decided again this often in a pass. */
const CONFLICT_ROUNDS = 5;

type Meta = Record<string, unknown>;

async function filesMeta(ctx: StoreContext): Promise<Meta> {
  const mapping = await ctx.client.indices.getMapping({ index: ctx.files });
  // One physical index behind the alias; should there be more, the migration is done only when it is in each.
  const metas = Object.values(mapping).map((entry) => entry.mappings._meta ?? {});
  if (metas.length === 0) return {};
  return { ...metas[0], [CONTENT_IN_BLOBS_META]: metas.every((meta) => meta[CONTENT_IN_BLOBS_META] === true) };
}

async function putMeta(ctx: StoreContext, changes: Meta): Promise<void> {
  // _meta is replaced as a whole: merged with what is there (gitdexMappingVersion and the rest).
  const meta = await filesMeta(ctx);
  await ctx.client.indices.putMapping({ index: ctx.files, _meta: { ...meta, ...changes } });
}

export async function blobMigrationStatus(ctx: StoreContext): Promise<BlobMigrationStatus> {
  const meta = await filesMeta(ctx);
  const progress = meta[PROGRESS_META] as { migrated?: number } | undefined;
  return { done: meta[CONTENT_IN_BLOBS_META] === true, migrated: progress?.migrated ?? 0 };
}

/**
 * Moves each entry's inline content into its blob: the blob is stored (once per sha), the blobs
 * index refreshed (so a search never sees an entry whose blob it cannot see yet), and the entry
 * rewritten without its content, guarded by its sequence number so that a retirement or a
 * deletion made meanwhile is never undone: such an entry is read again and decided again.
 * Answers how many it moved.
 */
async function movePage(ctx: StoreContext, hits: estypes.SearchHit<unknown>[]): Promise<{ moved: number; changed: string[] }> {
  const legacy = hits.filter((hit) => hit._source !== undefined && holdsContentInline(hit._source as object));
  if (legacy.length === 0) return { moved: 0, changed: [] };
  const split = legacy.map((hit) => ({ hit, ...splitDocument(hit._source as FileDocument) }));
  await storeBlobs(
    ctx,
    split.map((item) => ({ blob: item.blob })),
  );
  await ctx.client.indices.refresh({ index: ctx.blobs });
  const changed: string[] = [];
  const ops: BulkOperation[] = split.map(({ hit, entry }) => ({ action: 'index', id: hit._id as string, document: entry, ifSeqNo: hit._seq_no, ifPrimaryTerm: hit._primary_term }));
  await bulkWrite({ ...filesTarget(ctx), onConflict: (id) => changed.push(id) }, ops);
  return { moved: legacy.length - changed.length, changed };
}

/** The entries of these ids as they are now (real time), with their sequence numbers; gone ones left out. */
async function currentHits(ctx: StoreContext, ids: string[]): Promise<estypes.SearchHit<unknown>[]> {
  const response = await ctx.client.mget<unknown>({ index: ctx.files, ids });
  return response.docs.flatMap((doc) => ('found' in doc && doc.found ? [{ _index: doc._index, _id: doc._id, _source: doc._source, _seq_no: doc._seq_no, _primary_term: doc._primary_term }] : []));
}

/**
 * The online move of an index the previous release wrote (content inline in each entry) to
 * blobs. Idempotent and resumable: a pass reads every entry and moves those still holding their
 * content, so a run stopped anywhere is finished by the next; several processes may run it at
 * once (blob creates keep the first copy, guarded rewrites refuse all but one). Passes repeat
 * until one finds nothing to move (a previous-release writer still running during a rolling
 * upgrade may have added entries); then the files index's _meta records that it is done, and
 * the next call answers at once. Reads answer throughout: they take an entry with inline
 * content as it is and join a split one with its blob.
 */
/** Told each step of the migration; the next waits for what it answers (a logger answers nothing). */
export type MigrationProgress = (status: BlobMigrationRun) => void | Promise<void>;

export async function migrateBlobs(ctx: StoreContext, onProgress: MigrationProgress = () => undefined): Promise<BlobMigrationRun> {
  const before = await blobMigrationStatus(ctx);
  let migrated = before.migrated;
  let movedNow = 0;
  let passes = 0;
  if (before.done) return { ...before, movedNow, passes };
  for (;;) {
    passes += 1;
    let movedInPass = 0;
    let undecided = false;
    await ctx.client.indices.refresh({ index: ctx.files });
    for await (const hits of scrollHits(ctx.client, { index: ctx.files, query: { match_all: {} }, _source: true, seq_no_primary_term: true })) {
      let page = await movePage(ctx, hits);
      let moved = page.moved;
      for (let round = 0; page.changed.length > 0 && round < CONFLICT_ROUNDS; round += 1) {
        page = await movePage(ctx, await currentHits(ctx, page.changed));
        moved += page.moved;
      }
      // Still changing after every round: the next pass decides them.
      if (page.changed.length > 0) undecided = true;
      if (moved === 0) continue;
      movedInPass += moved;
      movedNow += moved;
      migrated += moved;
      await putMeta(ctx, { [PROGRESS_META]: { migrated } });
      await onProgress({ done: false, migrated, movedNow, passes });
    }
    if (movedInPass === 0 && !undecided) break;
  }
  await putMeta(ctx, { [CONTENT_IN_BLOBS_META]: true, [PROGRESS_META]: { migrated } });
  const run = { done: true, migrated, movedNow, passes };
  await onProgress(run);
  return run;
}
