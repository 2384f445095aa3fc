import type { estypes } from '@elastic/elasticsearch';
import type { SymbolDefinition } from '@gitdex/contracts';
import { bulkWrite, type BulkOperation } from './bulk';
import { blobsTarget, type StoreContext } from './context';
import { scrollHits } from './scan';
import { UNLISTED } from './symbol-name-list';
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
  symbolLayout?: number;
  symbolNames?: string[];
  symbolOutline?: { definitions?: SymbolDefinition[] };
}

/** Passes per call: what a previous-release writer keeps adding meanwhile is left to the next call. */
const MAX_PASSES = 10;

/** A previous release's symbols document as this one writes it: marked, its occurrences (never read now) left out. */
function withoutOccurrences(source: LegacySource): object {
  const { identifiers: _identifiers, symbolUses: _uses, ...kept } = source as LegacySource & { identifiers?: unknown; symbolUses?: unknown };
  return { ...kept, symbolLayout: SYMBOL_LAYOUT, symbolNamesListed: true };
}

/** The definition names a symbols document holds. */
const namesOf = (source: LegacySource) => source.symbolNames ?? [...new Set((source.symbolOutline?.definitions ?? []).map((definition) => definition.name))];

/**
 * Gives one page of a previous release's symbols documents what this release writes with them,
 * from what they already hold (no parse): name documents to those of the layout before (from the
 * outline), and their names to the name list. Then marks each, guarded by its sequence number.
 * Name documents are created, never overwritten: a writer that stored newer symbols meanwhile
 * keeps its own. A symbols document that changed meanwhile (rewritten by a newer extractor, or
 * collected with its blob) keeps only the name documents its names now call for.
 */
async function movePage(ctx: StoreContext, hits: estypes.SearchHit<unknown>[]): Promise<number> {
  const target = blobsTarget(ctx);
  const pages = hits.flatMap((hit) => (hit._source ? [{ hit, source: hit._source as LegacySource }] : []));
  const unnamed = pages.filter(({ source }) => source.symbolLayout !== SYMBOL_LAYOUT);
  const creates: BulkOperation[] = unnamed.flatMap(({ source }) =>
    nameDocuments(source.repositoryId, source.blobSha, source.symbolOutline?.definitions ?? []).map((name) => ({ action: 'create' as const, ...name })),
  );
  await Promise.all([
    creates.length > 0 ? bulkWrite(target, creates) : undefined,
    ctx.names.write(pages.map(({ source }) => ({ repositoryId: source.repositoryId, blobSha: source.blobSha, names: namesOf(source) }))),
  ]);
  const changed = new Set<string>();
  const marks: BulkOperation[] = pages.map(({ hit, source }) => ({
    action: 'index',
    id: hit._id as string,
    document: withoutOccurrences(source),
    ifSeqNo: hit._seq_no,
    ifPrimaryTerm: hit._primary_term,
  }));
  await bulkWrite({ ...target, onConflict: (id) => changed.add(id) }, marks);
  const settle = unnamed.filter(({ hit }) => changed.has(hit._id as string));
  if (settle.length > 0)
    await settleChanged(
      ctx,
      settle.map(({ hit, source }) => ({ id: hit._id as string, source })),
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
 * The online move of the symbols previous releases wrote (one outline per blob; or with name
 * documents, unlisted) to name documents (symbol-names.ts) and the name list
 * (symbol-name-list.ts): no parse, the outline already holds every definition. Idempotent and
 * resumable; several processes may run it at once (creates keep the first copy,
 * guarded marks refuse all but one). Passes repeat until one finds nothing left. Reads answer
 * throughout: a symbols document not marked yet answers from its outline, and
 * "did you mean" from the blobs index until no document is left unlisted.
 */
export async function migrateSymbols(ctx: StoreContext, onProgress: SymbolMigrationProgress = () => undefined): Promise<SymbolMigrationRun> {
  let migrated = 0;
  let passes = 0;
  for (;;) {
    passes += 1;
    let found = 0;
    await ctx.client.indices.refresh({ index: ctx.blobs });
    for await (const hits of scrollHits(ctx.client, { index: ctx.blobs, query: UNLISTED, _source: true, seq_no_primary_term: true })) {
      found += hits.length;
      migrated += await movePage(ctx, hits);
      await onProgress({ migrated, passes });
    }
    if (found === 0) {
      // What this run listed is searchable before this process reads from the list.
      await ctx.client.indices.refresh({ index: ctx.names.index, ignore_unavailable: true });
      ctx.names.markComplete();
    }
    if (found === 0 || passes >= MAX_PASSES) return { migrated, passes };
  }
}
