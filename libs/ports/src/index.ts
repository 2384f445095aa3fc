export { type PortErrorCode, PortError } from './errors';
export { type EventHeaders, type EventEnvelope, type EventBatchHandler, type EventPublisher, type EventConsumer, type DeadLetterStore } from './event-log';
export {
  type IndexCallOptions,
  type Snapshot,
  type FileWrite,
  type VisibleEntry,
  type FolderCount,
  type FolderScope,
  type SuggestQuery,
  CANDIDATE_WEIGHTS,
  type SuggestCandidate,
  type IndexStats,
  type FileSummary,
} from './index-types';
export { type ReadLookup, type VersionsLookup, type ReadLookupResult, type OutlineVersion } from './read-lookup';
export { type IndexReads } from './index-reads';
export { type IndexWrites } from './index-writes';
export { type IndexStore, type IndexLifecycle } from './index-store';
export { visibleVersion } from './visible-version';
export { MAX_FOLDERS, deepestListed } from './listing-rules';
export {
  type SourceRepository,
  type SourceInstallation,
  type SourceCommit,
  type TreeEntry,
  type SourceTree,
  type Source,
  type BatchReads,
  type SourceChangedFile,
  type SourceComparison,
  type SourceFile,
  type SourceCommitInfo,
  type SourceCommitFile,
  type SourcePathVersion,
  type SourceCommitVersions,
  type HistorySource,
} from './source';
export { type ContentPlan, type ContentScope, type ContentCandidate, type FileContent, type UnsearchableCount, type UnsearchableScope, type ContentSearch } from './content-search';
export { type Lease, type LeaseStore } from './lease';
export { type SignInStore, type SignInRecordKind } from './sign-in-store';
export { type PersonPermissions, type PermissionStore } from './permissions';
export { RANKED_SYMBOL_FILES, type ExactSymbolQuery, type SymbolPage } from './symbol-reads';
export { type SymbolNameQuery, type SymbolScope, type SymbolFile, type SymbolHit, type BlobOutline, type FileSymbols, type IdentifierFile, type SymbolReads, type StoredSymbols } from './symbol-reads';
export { type CommitFileStatus, type CommitPerson, type CommitFile, type CommitRecord, type RefHistory, type HistoryBlob, type HistoryReads, type HistoryWrites, type HistoryStore } from './history';
export { type StoredVersionBlame } from './history';
export { unreferencedHistory } from './history-prune';
