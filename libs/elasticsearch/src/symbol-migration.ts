import type { estypes } from '@elastic/elasticsearch';
import type { SymbolDefinition } from '@gitdex/contracts';
import { bulkWrite, type BulkOperation } from './bulk';
import { blobsTarget, type StoreContext } from './context';
import { scrollHits } from './scan';
import { nameDeletes, nameDocuments, SYMBOL_LAYOUT } from './symbol-names';

/** What one call of migrateSymbols did. */
export interface SymbolMigrationRun {
  /** Symbols documents this call gave their name documents. */
  migrated: number;
  /** Full passes over the symbols documents of the previous layout (the last found none). */
  passes: number;
}

/** Progress of a run, told after each page it moved. */
export type SymbolMigrationProgress = (run: SymbolMigrationRun) => void | Promise<void>;

interface LegacySource {
  repositoryId: number;
  blobSha: string;
  symbolNames?: string[];
  symbolOutline?: { definitions?: SymbolDefinition[] };
}

/** Passes per call: what a previous-release writer keeps adding meanwhile is left to the next call. */
const MAX_PASSES = 10;

/** Symbols documents the previous layout wrote: an outline, no name documents. */
const LEGACY = { bool: { filter: [{ exists: { field: 'symbolExtractor' } }], must_not: [{ term: { symbolLayout: SYMBOL_LAYOUT } }] } };

/** A previous-layout symbols document as this layout writes it: marked, its occurrences (never read now) left out. */
function withoutOccurrences(source: LegacySource, layout: number): object {
  const { identifiers: _identifiers, symbolUses: _uses, ...kept } = source as LegacySource & { identifiers?: unknown; symbolUses?: unknown };
  return { ...kept, symbolLayout: layout };
}

/**
 * Gives one page of previous-layout symbols documents their name documents, from the outline
 * they already hold (no parse), then marks each with this layout, guarded by its sequence
 * number. Name documents are created, never overwritten: a writer that stored newer symbols
 * meanwhile keeps its own. A symbols document that changed meanwhile (rewritten by a newer
 * extractor, or collected with its blob) keeps only the name documents its names now call for.
 */
async function movePage(ctx: StoreContext, hits: estypes.SearchHit<unknown>[]): Promise<number> {
  const target = blobsTarget(ctx);
  const pages = hits.flatMap((hit) => (hit._source ? [{ hit, source: hit._source as LegacySource }] : []));
  const creates: BulkOperation[] = pages.flatMap(({ source }) =>
    nameDocuments(source.repositoryId, source.blobSha, source.symbolOutline?.definitions ?? []).map((name) => ({ action: 'create' as const, ...name })),
  );
  if (creates.length > 0) await bulkWrite(target, creates);
  const changed = new Set<string>();
  const marks: BulkOperation[] = pages.map(({ hit, source }) => ({
    action: 'index',
    id: hit._id as string,
    document: withoutOccurrences(source, SYMBOL_LAYOUT),
    ifSeqNo: hit._seq_no,
    ifPrimaryTerm: hit._primary_term,
  }));
  await bulkWrite({ ...target, onConflict: (id) => changed.add(id) }, marks);
  if (changed.size > 0)
    await settleChanged(
      ctx,
      pages.filter(({ hit }) => changed.has(hit._id as string)).map(({ hit, source }) => ({ id: hit._id as string, source })),
    );
  return pages.length - changed.size;
}

/**
 * Symbols documents that changed while their name documents were created: names the document
 * holds no more (or all, once it is gone) lose the documents created for them. One still of the
 * previous layout is left to the next pass.
 */
async function settleChanged(ctx: StoreContext, items: { id: string; source: LegacySource }[]): Promise<void> {
  const response = await ctx.client.mget<LegacySource & { symbolLayout?: number }>({ index: ctx.blobs, ids: items.map((item) => item.id), _source_includes: ['symbolLayout', 'symbolNames'] });
  const now = new Map<string, (LegacySource & { symbolLayout?: number }) | null>();
  for (const doc of response.docs) now.set(doc._id, 'found' in doc && doc.found ? (doc._source ?? null) : null);
  const deletes: BulkOperation[] = [];
  for (const { id, source } of items) {
    const current = now.get(id) ?? null;
    if (current && current.symbolLayout !== SYMBOL_LAYOUT) continue;
    const kept = new Set(current?.symbolNames ?? []);
    const created = new Set((source.symbolOutline?.definitions ?? []).map((definition) => definition.name));
    deletes.push(
      ...nameDeletes(
        source.repositoryId,
        source.blobSha,
        [...created].filter((name) => !kept.has(name)),
      ),
    );
  }
  if (deletes.length > 0) await bulkWrite(blobsTarget(ctx), deletes);
}

/**
 * The online move of the symbols the previous layout wrote (one outline per blob) to name
 * documents (symbol-names.ts): no parse, the outline already holds every definition.
 * Idempotent and resumable; several processes may run it at once (creates keep the first copy,
 * guarded marks refuse all but one). Passes repeat until one finds nothing left. Reads answer
 * throughout: a symbols document not marked yet answers from its outline.
 */
export async function migrateSymbols(ctx: StoreContext, onProgress: SymbolMigrationProgress = () => undefined): Promise<SymbolMigrationRun> {
  let migrated = 0;
  let passes = 0;
  for (;;) {
    passes += 1;
    let found = 0;
    await ctx.client.indices.refresh({ index: ctx.blobs });
    for await (const hits of scrollHits(ctx.client, { index: ctx.blobs, query: LEGACY, _source: true, seq_no_primary_term: true })) {
      found += hits.length;
      migrated += await movePage(ctx, hits);
      await onProgress({ migrated, passes });
    }
    if (found === 0 || passes >= MAX_PASSES) return { migrated, passes };
  }
}
