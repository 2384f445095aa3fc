export { SqliteIndexStore, MAX_FOLDERS, type SqliteIndexStoreOptions } from './store';
export { INDEX_SCHEMA_VERSION } from './schema';
export { SqliteLeases } from './leases';
