export { ElasticsearchIndexStore } from './store';
export { resolveOptions, createClient, type ElasticsearchIndexStoreOptions, type ElasticsearchAuth } from './options';
export { checkElasticsearchAccess, type ElasticsearchAccess } from './access-check';
export { repositoryDocumentId, refStateDocumentId } from './ids';
export {
  FILES_MAPPING_VERSION,
  REPOS_MAPPING_VERSION,
  BLOBS_MAPPING_VERSION,
  CONTENT_IN_BLOBS_META,
  filesMappings,
  reposMappings,
  blobsMappings,
  indexNames,
  indexSettings,
  type IndexKind,
} from './mappings';
export { type BlobMigrationRun, type BlobMigrationStatus, type MigrationProgress } from './blob-migration';
export { type SymbolMigrationProgress, type SymbolMigrationRun } from './symbol-migration';
export { MAX_FOLDERS } from './listings';
export { HAS_CONTENT_WORD, withContentTrigrams } from './content-terms';
export { toPortError } from './errors';
export { type ReindexResult } from './setup';
export { ElasticsearchLeases } from './leases';
export { ElasticsearchSignInStore } from './sign-in-store';
export { ElasticsearchPermissions } from './permissions';
export { ElasticsearchHistory } from './history';
