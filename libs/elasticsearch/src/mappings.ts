import type { estypes } from '@elastic/elasticsearch';

/**
 * Physical indices are versioned (`${prefix}-files-v1`) and reached through aliases
 * (`${prefix}-files`). A mapping change bumps the version here; `reindex()` copies the
 * documents into the new index and swaps the alias atomically.
 *
 * Only built-in field types are used (the test cluster is the minimal distribution without
 * analysis-common): every matched field is a keyword whose terms are derived in TypeScript
 * (libs/terms), content is stored but not indexed.
 *
 * `contentTrigrams` holds the content's search terms (libs/terms, for search_code) as words in one
 * whitespace-separated text field without positions or norms: indexed only and left out of
 * _source, so it costs postings and nothing else; whatever copies documents from _source
 * (reindex, discardAfter) derives it again from the content. The version changes whenever the
 * words a query asks for change, even with the same fields: an older index would miss files,
 * so `gitdex reindex` derives the terms again. What each version changed: UPGRADING.md.
 */
export const FILES_MAPPING_VERSION = 7;
export const REPOS_MAPPING_VERSION = 1;
export const BLOBS_MAPPING_VERSION = 1;

export type IndexKind = 'files' | 'repos' | 'blobs';

const VERSIONS: Record<IndexKind, number> = { files: FILES_MAPPING_VERSION, repos: REPOS_MAPPING_VERSION, blobs: BLOBS_MAPPING_VERSION };

/**
 * Set in the files index's _meta once no entry holds its content inline (docs/design/blob-storage.md):
 * by the template on an index made by this build, by the blob migration on an index of the previous release.
 */
export const CONTENT_IN_BLOBS_META = 'gitdexContentInBlobs';

export interface IndexNames {
  alias: string;
  physical: (version: number) => string;
  version: number;
}

export function indexNames(prefix: string, kind: IndexKind): IndexNames {
  return {
    alias: `${prefix}-${kind}`,
    physical: (version) => `${prefix}-${kind}-v${version}`,
    version: VERSIONS[kind],
  };
}

const keyword = { type: 'keyword' } as const;
/** Stored in _source only: neither searchable nor sortable. */
const storedOnly = { type: 'keyword', index: false, doc_values: false } as const;

/**
 * One entry per file version: the FileDocument without its blob's fields (blobsMappings), which
 * live once per repository and blob sha. `content`, `contentBase64` and `contentTrigrams` stay mapped for the entries the previous release wrote with their content
 * inline, until the blob migration has moved them (blob-migration.ts); an entry this build
 * writes never has them.
 */
export const filesMappings: estypes.MappingTypeMapping = {
  dynamic: 'strict',
  _meta: { gitdexMappingVersion: FILES_MAPPING_VERSION, [CONTENT_IN_BLOBS_META]: true },
  _source: { excludes: ['contentTrigrams'] },
  properties: {
    repositoryId: { type: 'long' },
    ref: keyword,
    path: keyword,
    folder: keyword,
    name: keyword,
    extension: keyword,
    language: keyword,
    category: keyword,
    kind: keyword,
    size: { type: 'long' },
    lineCount: { type: 'integer' },
    blobSha: keyword,
    commitSha: keyword,
    flags: {
      properties: { binary: { type: 'boolean' }, vendored: { type: 'boolean' }, generated: { type: 'boolean' }, tooLarge: { type: 'boolean' } },
    },
    target: storedOnly,
    content: { type: 'text', index: false, norms: false },
    ancestors: keyword,
    depth: { type: 'integer' },
    nameLower: keyword,
    pathLower: keyword,
    tokens: keyword,
    trigrams: keyword,
    contentTrigrams: { type: 'text', analyzer: 'whitespace', index_options: 'docs', norms: false },
    fromGeneration: { type: 'long' },
    retiredAtGeneration: { type: 'long' },
    // Read fidelity (contracts FileBytesFields): the bytes are kept, never searched.
    encoding: keyword,
    bom: { type: 'boolean' },
    contentBase64: { type: 'binary' },
  },
};

/**
 * One document per repository and blob sha (id `${repositoryId}:${blobSha}`): the content, its
 * bytes when they are not the content as UTF-8 (read fidelity) and its search terms (contentTrigrams, indexed and left out of _source as
 * in the files index). Whatever else is derived from content belongs here too.
 */
export const blobsMappings: estypes.MappingTypeMapping = {
  dynamic: 'strict',
  _meta: { gitdexMappingVersion: BLOBS_MAPPING_VERSION },
  _source: { excludes: ['contentTrigrams'] },
  properties: {
    repositoryId: { type: 'long' },
    blobSha: keyword,
    content: { type: 'text', index: false, norms: false },
    contentTrigrams: { type: 'text', analyzer: 'whitespace', index_options: 'docs', norms: false },
    contentBase64: { type: 'binary' },
    // The blob's symbols (symbol-fields.ts), added to version 1 in place: new fields are an
    // online mapping change, and a blob without them is one not parsed yet.
    symbolExtractor: { type: 'integer' },
    symbolLanguage: keyword,
    symbolNames: keyword,
    symbolNamesLower: keyword,
    symbolOutline: { type: 'object', enabled: false },
    // Occurrences as the first layout stored them: nothing writes or reads them now, the symbol
    // migration drops them from the documents it rewrites, and they stay mapped (strict) for
    // documents it has not reached.
    identifiers: keyword,
    symbolUses: storedOnly,
    // Added in place too: the layout of the blob's symbols (symbol-names.ts), and the fields of
    // its name documents, one per (blob, definition name), whose definitions are read from doc
    // values so that a frequent name never reads the rest of each blob's outline.
    symbolLayout: { type: 'integer' },
    definedName: keyword,
    nameDefinitions: { type: 'binary', doc_values: true },
    // Added in place: whether the symbols document's names are in the name list (symbol-name-list.ts).
    symbolNamesListed: { type: 'boolean' },
  },
};

/**
 * Repositories and ref states share one small index, told apart by `kind`. Only the fields
 * we filter and sort on are mapped; the contract document itself rides in `doc`, stored and
 * not indexed, so a new optional field in the contracts needs no mapping change.
 */
export const reposMappings: estypes.MappingTypeMapping = {
  dynamic: 'strict',
  _meta: { gitdexMappingVersion: REPOS_MAPPING_VERSION },
  properties: {
    kind: keyword, // 'repository' | 'ref'
    repositoryId: { type: 'long' },
    fullNameLower: keyword,
    ref: keyword,
    doc: { type: 'object', enabled: false },
  },
};

/**
 * No periodic refresh of the files index: what readers see is chosen by generation, and the
 * indexer refreshes before every flip (and before it deletes by query), so a refresh a second
 * only makes segments. While readers search the index, the default made one a second during a
 * full index, and merging them took 26 s of Elasticsearch's CPU in a 40 s load of the large
 * repository (docs/search.md). Set when the index is made; ensureReady sets it on an existing
 * index only where the operator has set none.
 */
const FILES_REFRESH_INTERVAL = '-1';

export function indexSettings(kind: IndexKind, replicas?: number): estypes.IndicesIndexSettings {
  return {
    number_of_shards: 1,
    // One replica as soon as a second data node exists (a single-node cluster stays green), unless
    // the deployment names the number (ELASTICSEARCH_REPLICAS).
    ...(replicas === undefined ? { auto_expand_replicas: '0-1' } : { number_of_replicas: replicas, auto_expand_replicas: 'false' }),
    // Folder listings match ancestors with a regex built from the folder path (escaped): allow long paths.
    ...(kind === 'files' ? { max_regex_length: 16_384, refresh_interval: FILES_REFRESH_INTERVAL } : {}),
    // Blobs are read by id (real time) and searched only after the indexer's refresh, like entries.
    ...(kind === 'blobs' ? { refresh_interval: FILES_REFRESH_INTERVAL } : {}),
  };
}

export function mappingsOf(kind: IndexKind): estypes.MappingTypeMapping {
  return kind === 'files' ? filesMappings : kind === 'blobs' ? blobsMappings : reposMappings;
}
