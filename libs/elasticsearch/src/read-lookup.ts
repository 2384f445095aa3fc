import type { estypes } from '@elastic/elasticsearch';
import type { RefState, RepositoryDocument } from '@gitdex/contracts';
import type { ReadLookup, ReadLookupResult, VersionsLookup } from '@gitdex/ports';
import { byNameSearch, findRepositoryByName, listRefStates, refStatesOf, refStatesSearch, repositoryOf, type CatalogSource } from './catalog';
import { MAX_PAGE, readOptions, searchSorted, type StoreContext } from './context';
import { scopeFilter } from './queries';
import { joinBlobs, type FileEntry } from './blobs';
import { outlineVersions } from './symbol-reads';

/** The versions lookupForRead asks for: of the path in the ref, not retired by `since`, newest first. */
function versionsSearch(repositoryId: number, asked: VersionsLookup): Pick<estypes.SearchRequest, 'query' | 'sort'> {
  const notRetiredBy = {
    bool: {
      should: [{ bool: { must_not: { exists: { field: 'retiredAtGeneration' } } } }, { range: { retiredAtGeneration: { gt: asked.since } } }],
      minimum_should_match: 1,
    },
  };
  return { query: { bool: { filter: [...scopeFilter(repositoryId, asked.ref), { term: { path: asked.path } }, notRetiredBy] } }, sort: [{ fromGeneration: 'desc' }] };
}

function isError(item: estypes.MsearchResponseItem<unknown>): item is estypes.ErrorResponseBase {
  return 'error' in item;
}

/**
 * The repository by name, the ref states and a path's newest versions in one `_msearch`:
 * the same searches findRepositoryByName, listRefStates and getFile's make, so the answers
 * are the same documents. When an item fails, or the ref states fill a whole page, the
 * lookups are made one by one instead (their errors and paging are the usual ones).
 */
export async function lookupForRead(ctx: StoreContext, request: ReadLookup): Promise<ReadLookupResult> {
  const { fullName, repositoryId } = request;
  const asked = request.versions ?? request.outlines;
  const searches: estypes.MsearchRequestItem[] = [
    { index: ctx.repos },
    { ...byNameSearch(fullName), size: 1, track_total_hits: false },
    { index: ctx.repos },
    { ...refStatesSearch(repositoryId), size: MAX_PAGE, track_total_hits: false },
  ];
  if (asked && asked.limit > 0) searches.push({ index: ctx.files }, { ...versionsSearch(repositoryId, asked), size: asked.limit, track_total_hits: false });
  const response = await ctx.client.msearch<unknown>({ searches }, readOptions(ctx));
  const [byName, states, found] = response.responses;
  if (!byName || !states || isError(byName) || isError(states) || states.hits.hits.length >= MAX_PAGE || (searches.length > 4 && (!found || isError(found)))) {
    return oneByOne(ctx, request);
  }
  return {
    repository: repositoryOf(byName.hits.hits as estypes.SearchHit<CatalogSource<RepositoryDocument>>[]),
    refStates: refStatesOf(states.hits.hits as estypes.SearchHit<CatalogSource<RefState>>[]),
    ...(await versionsOf(
      ctx,
      request,
      ((found as estypes.MsearchMultiSearchItem<FileEntry> | undefined)?.hits.hits ?? []).map((hit) => hit._source as FileEntry),
    )),
  };
}

/** The versions found, with their content or their outline, as asked. */
async function versionsOf(ctx: StoreContext, request: ReadLookup, entries: FileEntry[]): Promise<Pick<ReadLookupResult, 'versions' | 'outlines'>> {
  if (request.versions) return { versions: await joinBlobs(ctx, entries), outlines: null };
  return { versions: null, outlines: request.outlines ? await outlineVersions(ctx, entries) : null };
}

async function oneByOne(ctx: StoreContext, request: ReadLookup): Promise<ReadLookupResult> {
  const { fullName, repositoryId } = request;
  const asked = request.versions ?? request.outlines;
  const repository = await findRepositoryByName(ctx, fullName);
  const refStates = await listRefStates(ctx, repositoryId);
  const hits = asked && asked.limit > 0 ? await searchSorted<FileEntry>(ctx, { index: ctx.files, ...versionsSearch(repositoryId, asked) }, asked.limit) : [];
  return {
    repository,
    refStates,
    ...(await versionsOf(
      ctx,
      request,
      hits.map((hit) => hit._source as FileEntry),
    )),
  };
}
