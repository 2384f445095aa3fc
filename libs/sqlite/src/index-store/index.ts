export { SqliteIndexStore, MAX_FOLDERS, type SqliteIndexStoreOptions } from './store';
export { INDEX_SCHEMA_VERSION } from './schema';
export type { BlobMigrationProgress } from './blob-migration';
export { SqliteLeases } from './leases';
export { SqliteHistory } from './history';
