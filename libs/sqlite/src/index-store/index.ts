export { SqliteIndexStore, MAX_FOLDERS, type SqliteIndexStoreOptions } from './store';
export { fileDocumentId } from './ids';
export { INDEX_SCHEMA_VERSION } from './schema';
