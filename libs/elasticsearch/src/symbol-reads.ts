import type { estypes } from '@elastic/elasticsearch';
import type { BlobSymbols, FileFlags, SymbolDefinition, SymbolKind } from '@gitdex/contracts';
import type { BlobOutline, FileSymbols, OutlineVersion, Snapshot, SymbolFile, SymbolHit, SymbolNameQuery, SymbolScope } from '@gitdex/ports';
import { nearNames } from '@gitdex/terms';
import { blobId, symbolsId, type FileEntry } from './blobs';
import { MAX_PAGE, readOptions, type StoreContext } from './context';
import { value } from './doc-values';
import { visibleQuery } from './queries';
import { listedCandidates } from './symbol-name-candidates';
import { containsClause, nearClauses, nearSettles, wildcardValue } from './symbol-names-near';
import type { SymbolFields } from './symbol-fields';
import { definitionsOfName, SYMBOL_LAYOUT } from './symbol-names';

type Query = estypes.QueryDslQueryContainer;
type SymbolSource = Partial<SymbolFields> & { repositoryId: number; blobSha: string };

/**
 * Symbol reads (docs/design/symbols-storage.md): the symbols documents of the snapshots'
 * repositories are selected by name first (keyword postings of the blobs index), then one
 * msearch takes the visible files naming those blobs, one search per snapshot, in path order.
 */

/** At most this many symbols documents are joined to the files by their shas in one call. */
export const SYMBOL_BLOB_LIMIT = 4096;
/** Entry fields from doc values (no stored fields are read). */
export const FILE_FIELDS = ['path', 'blobSha', 'commitSha', 'language', 'flags.binary', 'flags.vendored', 'flags.generated', 'flags.tooLarge'];

export function fileOf(hit: estypes.SearchHit<unknown>, snapshotIndex: number): SymbolFile {
  const flag = (name: keyof FileFlags) => value<boolean>(hit, `flags.${name}`) === true;
  return {
    snapshotIndex,
    path: value<string>(hit, 'path') as string,
    blobSha: value<string>(hit, 'blobSha') as string,
    commitSha: value<string>(hit, 'commitSha') as string,
    language: value<string>(hit, 'language') ?? null,
    flags: { binary: flag('binary'), vendored: flag('vendored'), generated: flag('generated'), tooLarge: flag('tooLarge') },
  };
}

const repositoriesOf = (snapshots: Snapshot[]) => [...new Set(snapshots.map((s) => s.repositoryId))];

/** Shas per repository, of symbols documents or blobs. */
export function shasByRepository(docs: Iterable<{ repositoryId: number; blobSha: string }>): Map<number, string[]> {
  const byRepository = new Map<number, string[]>();
  for (const doc of docs) {
    const list = byRepository.get(doc.repositoryId);
    if (list) list.push(doc.blobSha);
    else byRepository.set(doc.repositoryId, [doc.blobSha]);
  }
  return byRepository;
}

export function scopeFilters(scope: SymbolScope): Query[] {
  return [...(scope.language !== undefined ? [{ term: { language: scope.language } }] : []), ...(scope.pathPrefix ? [{ prefix: { path: scope.pathPrefix } }] : [])];
}

/**
 * The visible files of each snapshot naming one of the shas, in path order, at most `limit`
 * each: one msearch, one search per snapshot that may hold any.
 */
async function visibleHolders(ctx: StoreContext, snapshots: Snapshot[], shas: Map<number, string[]>, scope: SymbolScope, limit: number): Promise<SymbolFile[][]> {
  const asked: number[] = [];
  const searches: estypes.MsearchRequestItem[] = [];
  for (let index = 0; index < snapshots.length; index += 1) {
    const snapshot = snapshots[index] as Snapshot;
    const blobShas = shas.get(snapshot.repositoryId);
    if (!blobShas || blobShas.length === 0) continue;
    asked.push(index);
    searches.push({ index: ctx.files });
    searches.push({
      // One page per snapshot: a caller pages on (snapshotIndex, path).
      size: Math.min(limit, MAX_PAGE),
      track_total_hits: false,
      query: visibleQuery(snapshot, { term: { kind: 'file' } }, { terms: { blobSha: blobShas } }, ...scopeFilters(scope)),
      sort: [{ path: 'asc' }, { fromGeneration: 'asc' }],
      stored_fields: '_none_',
      docvalue_fields: FILE_FIELDS,
    });
  }
  const holders: SymbolFile[][] = snapshots.map(() => []);
  if (searches.length === 0) return holders;
  // Hits carry their fields only (no index name, score or sort values): a frequent name's holders are thousands.
  // `status` keeps one entry per search: filter_path drops a response left empty, shifting the rest.
  const response = await ctx.client.msearch({ searches, filter_path: ['responses.hits.hits.fields', 'responses.error', 'responses.status'] }, readOptions(ctx));
  response.responses.forEach((answer, i) => {
    const index = asked[i] as number;
    if ('error' in answer) throw new Error(`symbol search of snapshot ${index} failed: ${JSON.stringify(answer.error)}`);
    // A search without hits has no `hits` left after filter_path.
    holders[index] = ((answer.hits as estypes.SearchHitsMetadata<unknown> | undefined)?.hits ?? []).map((hit) => fileOf(hit, index));
  });
  return holders;
}

/** `*` is any run of characters; nothing else is special. */
function globRegExp(pattern: string): RegExp {
  return new RegExp(
    `^${pattern
      .split('*')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
    'su',
  );
}

function definitionFilter(query: SymbolNameQuery & { kind?: SymbolKind }): (definition: SymbolDefinition) => boolean {
  const matchesName =
    query.match === 'exact'
      ? (name: string) => name === query.name
      : (
          (regex) => (name: string) =>
            regex.test(name)
        )(globRegExp(query.pattern));
  const container = query.match === 'exact' ? query.container : undefined;
  return (definition) =>
    matchesName(definition.name) &&
    (query.kind === undefined || definition.kind === query.kind) &&
    (container === undefined || (definition.container !== null && (definition.container === container || definition.container.endsWith(`.${container}`))));
}

/** A blob's definitions matching a name query. */
export interface BlobDefinitions {
  repositoryId: number;
  blobSha: string;
  definitions: SymbolDefinition[];
}

/**
 * The definitions matching the name query, per blob id: from the name documents (doc values, no
 * _source read), and from the outline of symbols documents the previous layout wrote that the
 * symbol migration has not reached yet (a second round trip only while there are any).
 */
async function definitionsByBlob(ctx: StoreContext, repositoryIds: number[], query: SymbolNameQuery): Promise<Map<string, BlobDefinitions>> {
  const placed = new Map<string, { repositoryId: number; blobSha: string; found: { at: number; definition: SymbolDefinition }[] }>();
  const definitions = new Map<string, BlobDefinitions>();
  if (repositoryIds.length === 0) return definitions;
  const matches = (field: string): Query => (query.match === 'exact' ? { term: { [field]: query.name } } : { wildcard: { [field]: { value: wildcardValue(query.pattern) } } });
  const response = await ctx.client.search(
    {
      index: ctx.blobs,
      size: SYMBOL_BLOB_LIMIT,
      track_total_hits: false,
      query: {
        bool: {
          filter: [
            { terms: { repositoryId: repositoryIds } },
            { bool: { should: [matches('definedName'), { bool: { filter: [matches('symbolNames')], must_not: [{ term: { symbolLayout: SYMBOL_LAYOUT } }] } }], minimum_should_match: 1 } },
          ],
        },
      },
      stored_fields: '_none_',
      // An exact name is the query's: only a pattern reads which name each document holds.
      docvalue_fields: ['repositoryId', 'blobSha', 'nameDefinitions', ...(query.match === 'exact' ? [] : ['definedName'])],
      // Hits carry their fields only (no index name, score or sort values): a frequent name has thousands.
      filter_path: ['hits.hits.fields'],
    },
    readOptions(ctx),
  );
  const legacy: string[] = [];
  for (const hit of (response.hits as estypes.SearchHitsMetadata<unknown> | undefined)?.hits ?? []) {
    const repositoryId = value<number>(hit, 'repositoryId') as number;
    const blobSha = value<string>(hit, 'blobSha') as string;
    const encoded = value<string>(hit, 'nameDefinitions');
    if (encoded === undefined) {
      legacy.push(symbolsId(repositoryId, blobSha));
      continue;
    }
    const id = blobId(repositoryId, blobSha);
    const found = definitionsOfName(query.match === 'exact' ? query.name : (value<string>(hit, 'definedName') as string), encoded);
    const blob = placed.get(id);
    if (blob) blob.found.push(...found);
    else placed.set(id, { repositoryId, blobSha, found });
  }
  // A pattern matches several names of one blob: back in the outline's order.
  for (const [id, { found, ...blob }] of placed) definitions.set(id, { ...blob, definitions: (found.length > 1 ? found.sort((a, b) => a.at - b.at) : found).map((item) => item.definition) });
  if (legacy.length > 0) {
    const outlines = await ctx.client.mget<SymbolSource>({ index: ctx.blobs, ids: legacy, _source_includes: ['repositoryId', 'blobSha', 'symbolOutline.definitions'] }, readOptions(ctx));
    for (const doc of outlines.docs) {
      if (!('found' in doc) || !doc.found || !doc._source) continue;
      // The whole outline answers for its blob, also over name documents the migration is writing for it now.
      const { repositoryId, blobSha } = doc._source;
      definitions.set(blobId(repositoryId, blobSha), { repositoryId, blobSha, definitions: doc._source.symbolOutline?.definitions ?? [] });
    }
  }
  return definitions;
}

/** The definitions matching the query (name, container, kind) per blob id, in the snapshots' repositories; blobs without any are left out. */
export async function matchingDefinitions(ctx: StoreContext, snapshots: Snapshot[], query: SymbolNameQuery & { kind?: SymbolKind }): Promise<Map<string, BlobDefinitions>> {
  const keep = definitionFilter(query);
  const definitions = new Map<string, BlobDefinitions>();
  for (const [id, blob] of await definitionsByBlob(ctx, repositoriesOf(snapshots), query)) {
    const matching = blob.definitions.filter(keep);
    if (matching.length > 0) definitions.set(id, { ...blob, definitions: matching });
  }
  return definitions;
}

export async function findSymbols(ctx: StoreContext, snapshots: Snapshot[], query: SymbolNameQuery & SymbolScope & { kind?: SymbolKind; limit: number }): Promise<SymbolHit[]> {
  if (query.limit <= 0) return [];
  const definitions = await matchingDefinitions(ctx, snapshots, query);
  const holders = await visibleHolders(ctx, snapshots, shasByRepository(definitions.values()), query, query.limit);
  const hits: SymbolHit[] = [];
  for (const [index, files] of holders.entries()) {
    const repositoryId = (snapshots[index] as Snapshot).repositoryId;
    for (const file of files) {
      for (const definition of definitions.get(blobId(repositoryId, file.blobSha))?.definitions ?? []) hits.push({ ...file, definition });
      if (hits.length >= query.limit) return hits.slice(0, query.limit);
    }
  }
  return hits;
}

/**
 * The stored outlines of these blobs by symbols document id (blobs without one are left out):
 * one mget, each document whole. Elasticsearch sends a source as stored, where leaving fields
 * out would parse it (the outline is nearly all of it; 1.2 against 1.8 ms for a 5,000-line file's).
 */
async function storedOutlines(ctx: StoreContext, blobs: { repositoryId: number; blobSha: string }[]): Promise<Map<string, BlobOutline>> {
  const ids = [...new Set(blobs.map((blob) => symbolsId(blob.repositoryId, blob.blobSha)))];
  const outlines = new Map<string, BlobOutline>();
  if (ids.length === 0) return outlines;
  const response = await ctx.client.mget<SymbolSource>({ index: ctx.blobs, ids }, readOptions(ctx));
  for (const doc of response.docs) if ('found' in doc && doc.found && doc._source?.symbolOutline) outlines.set(doc._id, doc._source.symbolOutline);
  return outlines;
}

/** Versions of a file as fileSymbols answers them, each with its blob's stored outline (null when none is stored). */
export async function outlineVersions(ctx: StoreContext, entries: FileEntry[]): Promise<OutlineVersion[]> {
  const outlines = await storedOutlines(ctx, entries);
  return entries.map((entry) => ({
    path: entry.path,
    blobSha: entry.blobSha,
    commitSha: entry.commitSha,
    language: entry.language,
    flags: entry.flags,
    kind: entry.kind,
    fromGeneration: entry.fromGeneration,
    ...(entry.retiredAtGeneration !== undefined ? { retiredAtGeneration: entry.retiredAtGeneration } : {}),
    symbols: outlines.get(symbolsId(entry.repositoryId, entry.blobSha)) ?? null,
  }));
}

export async function fileSymbols(ctx: StoreContext, snapshot: Snapshot, path: string): Promise<FileSymbols | null> {
  const response = await ctx.client.search(
    {
      index: ctx.files,
      size: 1,
      track_total_hits: false,
      query: visibleQuery(snapshot, { term: { path } }, { term: { kind: 'file' } }),
      stored_fields: '_none_',
      docvalue_fields: FILE_FIELDS,
    },
    readOptions(ctx),
  );
  const hit = response.hits.hits[0];
  if (!hit) return null;
  const { snapshotIndex: _index, ...file } = fileOf(hit, 0);
  const outlines = await storedOutlines(ctx, [{ repositoryId: snapshot.repositoryId, blobSha: file.blobSha }]);
  return { ...file, symbols: outlines.get(symbolsId(snapshot.repositoryId, file.blobSha)) ?? null };
}

/** Blobs read for "did you mean": the best-scoring ones, so a common first syllable cannot make it read thousands. */
const NAMES_LIKE_BLOBS = 200;

interface NamedBlob {
  id: string;
  repositoryId: number;
  blobSha: string;
  names: string[];
}

/** The best NAMES_LIKE_BLOBS blobs of the repositories matching `should`, with their names (doc values, not _source: a symbols document's source carries its whole outline). */
async function blobsNamed(ctx: StoreContext, repositoryIds: number[], should: Query[]): Promise<NamedBlob[]> {
  const response = await ctx.client.search(
    {
      index: ctx.blobs,
      size: NAMES_LIKE_BLOBS,
      track_total_hits: false,
      query: { bool: { filter: [{ terms: { repositoryId: repositoryIds } }], should, minimum_should_match: 1 } },
      stored_fields: '_none_',
      docvalue_fields: ['repositoryId', 'blobSha', 'symbolNames'],
      filter_path: ['hits.hits.fields'],
    },
    readOptions(ctx),
  );
  return ((response.hits as estypes.SearchHitsMetadata<unknown> | undefined)?.hits ?? []).map((hit) => {
    const repositoryId = value<number>(hit, 'repositoryId') as number;
    const blobSha = value<string>(hit, 'blobSha') as string;
    return { id: blobId(repositoryId, blobSha), repositoryId, blobSha, names: (hit.fields?.symbolNames as string[] | undefined) ?? [] };
  });
}

/**
 * The ids of the blobs a visible file of the snapshots holds: one file per blob (collapsed on its
 * sha), so a blob is seen however many files hold it.
 */
async function visibleBlobIds(ctx: StoreContext, snapshots: Snapshot[], blobs: NamedBlob[]): Promise<Set<string>> {
  const shas = shasByRepository(blobs);
  const asked: Snapshot[] = [];
  const searches: estypes.MsearchRequestItem[] = [];
  for (const snapshot of snapshots) {
    const blobShas = shas.get(snapshot.repositoryId);
    if (!blobShas) continue;
    asked.push(snapshot);
    searches.push({ index: ctx.files });
    searches.push({
      size: blobShas.length,
      track_total_hits: false,
      query: visibleQuery(snapshot, { term: { kind: 'file' } }, { terms: { blobSha: blobShas } }),
      collapse: { field: 'blobSha' },
      stored_fields: '_none_',
      docvalue_fields: ['blobSha'],
    });
  }
  const visible = new Set<string>();
  if (searches.length === 0) return visible;
  const response = await ctx.client.msearch({ searches, filter_path: ['responses.hits.hits.fields', 'responses.error', 'responses.status'] }, readOptions(ctx));
  response.responses.forEach((answer, i) => {
    const snapshot = asked[i] as Snapshot;
    if ('error' in answer) throw new Error(`visibility search of near names' blobs failed: ${JSON.stringify(answer.error)}`);
    for (const hit of (answer.hits as estypes.SearchHitsMetadata<unknown> | undefined)?.hits ?? []) visible.add(blobId(snapshot.repositoryId, value<string>(hit, 'blobSha') as string));
  });
  return visible;
}

/** The names of the blobs a visible file of the snapshots holds; `checked` keeps each blob's visibility, so a blob is checked once a call. */
async function visibleNames(ctx: StoreContext, snapshots: Snapshot[], blobs: NamedBlob[], checked: Map<string, boolean>): Promise<Set<string>> {
  const unchecked = blobs.filter((blob) => !checked.has(blob.id));
  if (unchecked.length > 0) {
    const visible = await visibleBlobIds(ctx, snapshots, unchecked);
    for (const blob of unchecked) checked.set(blob.id, visible.has(blob.id));
  }
  const names = new Set<string>();
  for (const blob of blobs) if (checked.get(blob.id) === true) for (const name of blob.names) names.add(name);
  return names;
}

/**
 * The blobs the whole query (near and containment clauses, the best NAMES_LIKE_BLOBS) picks. When
 * the near step found fewer than that, it found every near blob; if the blobs containing the name
 * also fit beside them, the whole query would pick all of them, whatever their scores, and they are
 * taken without walking the fuzzy automaton again. Otherwise the whole query runs.
 */
async function wholeQueryBlobs(ctx: StoreContext, repositoryIds: number[], lower: string, nearBlobs: NamedBlob[]): Promise<NamedBlob[]> {
  if (nearBlobs.length < NAMES_LIKE_BLOBS) {
    const containing = await blobsNamed(ctx, repositoryIds, [containsClause(lower)]);
    const all = new Map(nearBlobs.map((blob) => [blob.id, blob]));
    for (const blob of containing) all.set(blob.id, blob);
    if (containing.length < NAMES_LIKE_BLOBS && all.size <= NAMES_LIKE_BLOBS) return [...all.values()];
  }
  return blobsNamed(ctx, repositoryIds, [...nearClauses(lower), containsClause(lower)]);
}

/**
 * Names near `name` (did you mean) that a visible file of the snapshots defines, ranked by
 * nearNames as the reader ranks them: from the name list (symbol-name-list.ts) once it holds
 * every stored name, from the blobs index until then (an index a previous release wrote, while
 * the symbol migration lists its names).
 */
export async function symbolNamesLike(ctx: StoreContext, snapshots: Snapshot[], name: string, limit: number): Promise<string[]> {
  if (limit <= 0 || name === '') return [];
  const repositoryIds = repositoriesOf(snapshots);
  if (repositoryIds.length === 0) return [];
  return (await ctx.names.isComplete(readOptions(ctx))) ? listedNamesLike(ctx, snapshots, repositoryIds, name, limit) : unlistedNamesLike(ctx, snapshots, repositoryIds, name, limit);
}

/** Blobs read per listed name for its visibility: a name no visible file among them defines is not offered. */
const BLOBS_PER_NAME = 20;

/**
 * The listed candidates (ranked, not yet checked) that a visible file of the snapshots defines,
 * the first `limit` of them. One search reads the visible files of every candidate's listed blob.
 * A candidate among the first `limit` still open whose listed blob no visible file holds (its
 * file changed since it was listed) is checked through the blobs its name documents name, two
 * round trips a batch, each batch reaching twice as far down the ranking as the one before.
 * (Checking the listed blobs of only the first few candidates first saved 0.2 to 0.3 ms of the
 * search's 1.5: inside the spread.)
 */
async function listedNamesLike(ctx: StoreContext, snapshots: Snapshot[], repositoryIds: number[], name: string, limit: number): Promise<string[]> {
  const candidates = await listedCandidates(ctx, repositoryIds, name);
  const checked = new Map<string, boolean>();
  const listedPairs = candidates.flatMap(({ name: listed, blobs }) => blobs.map((blob) => ({ name: listed, ...blob })));
  const listedVisible = await visibleNames(ctx, snapshots, namedBlobs(listedPairs), checked);
  const defined = new Map<string, boolean>();
  for (let reach = limit; ; reach *= 2) {
    const names: string[] = [];
    const open: string[] = [];
    for (const { name: candidate } of candidates) {
      if (names.length >= limit || names.length + open.length >= reach) break;
      if (listedVisible.has(candidate) || defined.get(candidate) === true) names.push(candidate);
      else if (!defined.has(candidate)) open.push(candidate);
    }
    if (open.length === 0) return names;
    const visible = await visibleNames(ctx, snapshots, await blobsDefining(ctx, repositoryIds, open), checked);
    for (const candidate of open) defined.set(candidate, visible.has(candidate));
  }
}

/** Blobs with the names each defines, from pairs of a name and a blob defining it. */
function namedBlobs(pairs: Iterable<{ name: string; repositoryId: number; blobSha: string }>): NamedBlob[] {
  const blobs = new Map<string, NamedBlob>();
  for (const { name, repositoryId, blobSha } of pairs) {
    const id = blobId(repositoryId, blobSha);
    const blob = blobs.get(id);
    if (blob) blob.names.push(name);
    else blobs.set(id, { id, repositoryId, blobSha, names: [name] });
  }
  return [...blobs.values()];
}

/** The blobs of the repositories whose name documents define each name, BLOBS_PER_NAME a name: one multi-search. */
async function blobsDefining(ctx: StoreContext, repositoryIds: number[], names: string[]): Promise<NamedBlob[]> {
  const searches: estypes.MsearchRequestItem[] = names.flatMap((definedName) => [
    { index: ctx.blobs },
    {
      size: BLOBS_PER_NAME,
      track_total_hits: false,
      query: { bool: { filter: [{ term: { definedName } }, { terms: { repositoryId: repositoryIds } }] } },
      stored_fields: '_none_',
      docvalue_fields: ['repositoryId', 'blobSha'],
    },
  ]);
  const response = await ctx.client.msearch({ searches, filter_path: ['responses.hits.hits.fields', 'responses.error', 'responses.status'] }, readOptions(ctx));
  return namedBlobs(
    response.responses.flatMap((answer, i) => {
      if ('error' in answer) throw new Error(`name documents of listed names failed: ${JSON.stringify(answer.error)}`);
      const name = names[i] as string;
      return ((answer.hits as estypes.SearchHitsMetadata<unknown> | undefined)?.hits ?? []).map((hit) => ({
        name,
        repositoryId: value<number>(hit, 'repositoryId') as number,
        blobSha: value<string>(hit, 'blobSha') as string,
      }));
    }),
  );
}

/**
 * "Did you mean" from the blobs index, for an index whose names are not all listed yet. Blobs are
 * found by their lower-case names: the same name in another case and names at most two edits
 * away first (the near step); names containing it (whose leading wildcard visits every term)
 * only when those leave the first `limit` names open (symbol-names-near.ts), read from the blobs
 * one query of both steps would pick. Only the best-scoring blobs are read, and the near step's
 * blobs are checked for visibility only when their names could settle the answer.
 */
async function unlistedNamesLike(ctx: StoreContext, snapshots: Snapshot[], repositoryIds: number[], name: string, limit: number): Promise<string[]> {
  const lower = name.toLowerCase();
  const checked = new Map<string, boolean>();
  const nearBlobs = await blobsNamed(ctx, repositoryIds, nearClauses(lower));
  // The visibility check only takes names away, so names that leave the first `limit` open before it
  // leave them open after it: the whole query's blobs are then the only ones whose visibility is read.
  const unchecked = nearNames(
    name,
    nearBlobs.flatMap((blob) => blob.names),
  );
  if (nearSettles(name, unchecked, limit)) {
    // nearNames orders names totally, so the visible ones ranked are these ranked, filtered.
    const visible = await visibleNames(ctx, snapshots, nearBlobs, checked);
    const near = unchecked.filter((candidate) => visible.has(candidate));
    if (nearSettles(name, near, limit)) return near.slice(0, limit);
  }
  return nearNames(name, await visibleNames(ctx, snapshots, await wholeQueryBlobs(ctx, repositoryIds, lower, nearBlobs), checked)).slice(0, limit);
}

/** Shas per search of storedSymbols. */
const STORED_CHUNK = 500;

export async function storedSymbols(ctx: StoreContext, blobs: { blobSha: string; language: string | null }[], extractor: number): Promise<Map<string, BlobSymbols>> {
  const found = new Map<string, BlobSymbols>();
  const languageOf = new Map(blobs.map((blob) => [blob.blobSha, blob.language]));
  const shas = [...languageOf.keys()];
  for (let i = 0; i < shas.length; i += STORED_CHUNK) {
    const chunk = shas.slice(i, i + STORED_CHUNK);
    const response = await ctx.client.search<SymbolSource>({
      index: ctx.blobs,
      size: chunk.length,
      track_total_hits: false,
      query: { bool: { filter: [{ terms: { blobSha: chunk } }, { term: { symbolExtractor: extractor } }] } },
      // One copy per sha is enough, whichever repository holds it: the symbols are the content's.
      collapse: { field: 'blobSha' },
      _source: ['blobSha', 'symbolLanguage', 'symbolOutline'],
    });
    for (const hit of response.hits.hits) {
      const source = hit._source;
      if (!source?.symbolOutline || (source.symbolLanguage ?? null) !== languageOf.get(source.blobSha)) continue;
      // Occurrences are not stored (find_references parses when asked): a previous layout's are not read.
      found.set(source.blobSha, { ...source.symbolOutline, occurrences: [] });
    }
  }
  return found;
}
