export { createAdapters, type Adapters } from './adapters';
export { runGitdex, readerOptions, ROLES, type Role, type RunningGitdex } from './run';
export { startIndexer } from './indexer-runtime';
