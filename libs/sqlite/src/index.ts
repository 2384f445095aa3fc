export { SqliteIndexStore, MAX_FOLDERS, type SqliteIndexStoreOptions, INDEX_SCHEMA_VERSION } from './index-store';
export { SqliteEventLog, type SqliteEventLogOptions, SqliteDeadLetters } from './event-log';
