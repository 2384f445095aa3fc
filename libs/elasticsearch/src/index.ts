export { ElasticsearchIndexStore } from './store';
export { resolveOptions, createClient, type ElasticsearchIndexStoreOptions, type ElasticsearchAuth } from './options';
export { checkElasticsearchAccess, type ElasticsearchAccess } from './access-check';
export { repositoryDocumentId, refStateDocumentId } from './ids';
export { FILES_MAPPING_VERSION, REPOS_MAPPING_VERSION, filesMappings, reposMappings, indexNames, indexSettings, type IndexKind } from './mappings';
export { MAX_FOLDERS } from './listings';
export { HAS_CONTENT_WORD, withContentTrigrams } from './content-search';
export { toPortError } from './errors';
export { type ReindexResult } from './setup';
