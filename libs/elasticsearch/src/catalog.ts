import type { estypes } from '@elastic/elasticsearch';
import type { RefState, RepositoryDocument } from '@gitdex/contracts';
import { bulkWrite } from './bulk';
import { isDocumentNotFound } from './errors';
import { refStateDocumentId, repositoryDocumentId } from './ids';
import { deleteMatching } from './scan';
import { readOptions, reposTarget, searchSorted, type StoreContext } from './context';

/** The repos index holds both kinds; the contract document rides in `doc`. */
export interface CatalogSource<T> {
  kind: 'repository' | 'ref';
  repositoryId: number;
  fullNameLower?: string;
  ref?: string;
  doc: T;
}

async function getDoc<T>(ctx: StoreContext, id: string): Promise<T | null> {
  try {
    const response = await ctx.client.get<CatalogSource<T>>({ index: ctx.repos, id }, readOptions(ctx));
    return response.found && response._source ? response._source.doc : null;
  } catch (error) {
    if (isDocumentNotFound(error)) return null;
    throw error;
  }
}

async function putDoc<T>(ctx: StoreContext, id: string, source: CatalogSource<T>): Promise<void> {
  await bulkWrite(reposTarget(ctx), [{ action: 'index', id, document: source }]);
}

export function getRepository(ctx: StoreContext, repositoryId: number): Promise<RepositoryDocument | null> {
  return getDoc<RepositoryDocument>(ctx, repositoryDocumentId(repositoryId));
}

/** The search of findRepositoryByName (one hit), shared with lookupForRead's multi-search. */
export function byNameSearch(fullName: string): Pick<estypes.SearchRequest, 'query' | 'sort'> {
  return {
    query: { bool: { filter: [{ term: { kind: 'repository' } }, { term: { fullNameLower: fullName.toLowerCase() } }] } },
    sort: [{ repositoryId: 'asc' }],
  };
}

export function repositoryOf(hits: estypes.SearchHit<CatalogSource<RepositoryDocument>>[]): RepositoryDocument | null {
  return hits[0]?._source?.doc ?? null;
}

export async function findRepositoryByName(ctx: StoreContext, fullName: string): Promise<RepositoryDocument | null> {
  return repositoryOf(await searchSorted<CatalogSource<RepositoryDocument>>(ctx, { index: ctx.repos, ...byNameSearch(fullName) }, 1));
}

export async function listRepositories(ctx: StoreContext): Promise<RepositoryDocument[]> {
  const hits = await searchSorted<CatalogSource<RepositoryDocument>>(
    ctx,
    { index: ctx.repos, query: { term: { kind: 'repository' } }, sort: [{ fullNameLower: 'asc' }, { repositoryId: 'asc' }] },
    Infinity,
  );
  return hits.map((hit) => (hit._source as CatalogSource<RepositoryDocument>).doc);
}

export function putRepository(ctx: StoreContext, repository: RepositoryDocument): Promise<void> {
  return putDoc(ctx, repositoryDocumentId(repository.repositoryId), {
    kind: 'repository',
    repositoryId: repository.repositoryId,
    fullNameLower: repository.fullNameLower,
    doc: repository,
  });
}

export async function deleteRepositoryEntries(ctx: StoreContext, repositoryId: number): Promise<void> {
  await deleteMatching(reposTarget(ctx), { bool: { filter: [{ term: { kind: 'ref' } }, { term: { repositoryId } }] } });
  await bulkWrite(reposTarget(ctx), [{ action: 'delete', id: repositoryDocumentId(repositoryId) }]);
}

export function getRefState(ctx: StoreContext, repositoryId: number, ref: string): Promise<RefState | null> {
  return getDoc<RefState>(ctx, refStateDocumentId(repositoryId, ref));
}

/** The search of listRefStates (every hit), shared with lookupForRead's multi-search. */
export function refStatesSearch(repositoryId?: number): Pick<estypes.SearchRequest, 'query' | 'sort'> {
  const filter = [{ term: { kind: 'ref' } }, ...(repositoryId === undefined ? [] : [{ term: { repositoryId } }])];
  return { query: { bool: { filter } }, sort: [{ repositoryId: 'asc' }, { ref: 'asc' }] };
}

export function refStatesOf(hits: estypes.SearchHit<CatalogSource<RefState>>[]): RefState[] {
  return hits.map((hit) => (hit._source as CatalogSource<RefState>).doc);
}

export async function listRefStates(ctx: StoreContext, repositoryId?: number): Promise<RefState[]> {
  return refStatesOf(await searchSorted<CatalogSource<RefState>>(ctx, { index: ctx.repos, ...refStatesSearch(repositoryId) }, Infinity));
}

export function putRefState(ctx: StoreContext, state: RefState): Promise<void> {
  return putDoc(ctx, refStateDocumentId(state.repositoryId, state.ref), { kind: 'ref', repositoryId: state.repositoryId, ref: state.ref, doc: state });
}

export async function deleteRefState(ctx: StoreContext, repositoryId: number, ref: string): Promise<void> {
  await bulkWrite(reposTarget(ctx), [{ action: 'delete', id: refStateDocumentId(repositoryId, ref) }]);
}
