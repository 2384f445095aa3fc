export { SqliteIndexStore, MAX_FOLDERS, type SqliteIndexStoreOptions, INDEX_SCHEMA_VERSION, type BlobMigrationProgress, SqliteLeases, SqliteHistory } from './index-store';
export { SqliteEventLog, type SqliteEventLogOptions, SqliteDeadLetters } from './event-log';
export { SqliteSignInStore } from './sign-in/sqlite-sign-in-store';
export { SqlitePermissions } from './permissions/sqlite-permissions';
