import Database from 'better-sqlite3';
import type { FileDocument, RefState, RepositoryDocument } from '@gitdex/contracts';
import {
  PortError,
  type ContentCandidate,
  type ContentPlan,
  type ContentScope,
  type UnsearchableCount,
  type FileContent,
  type FileSummary,
  type FileWrite,
  type FolderCount,
  type FolderScope,
  type IndexCallOptions,
  type IndexStats,
  type IndexStore,
  type ReadLookup,
  type ReadLookupResult,
  type Snapshot,
  type SuggestCandidate,
  type SuggestQuery,
  type VisibleEntry,
} from '@gitdex/ports';
import * as contentSearch from './content-search';
import { toPortError } from './errors';
import * as writes from './file-writes';
import { configureConnection, ensureSchema } from './schema';
import { prepareStatements, type FileBodyRow, type FileRow, type Statements } from './statements';
import { prepareSuggestStatements, suggest, type SuggestStatements } from './suggest';
import { folderRange } from './text-order';
import { withRawBytes } from './raw-bytes';

export interface SqliteIndexStoreOptions {
  /** Database file, created if missing; ':memory:' for a throw-away index. */
  file: string;
  /**
   * Suggestion terms in more files than this are scored by lookups on the candidates of
   * the rarer terms instead of by summing their postings (exact either way). Default 2,048.
   */
  suggestFrequentTermFiles?: number;
}

/** listFolders never answers more folders than this. */
export const MAX_FOLDERS = 10_000;

function depthOf(folder: string): number {
  return folder === '' ? 0 : folder.split('/').length;
}

function summaryOf(row: FileRow): FileSummary {
  const summary = JSON.parse(row.summary) as FileSummary;
  if (row.retired_gen !== null) summary.retiredAtGeneration = row.retired_gen;
  return summary;
}

function documentOf(row: FileBodyRow): FileDocument {
  return {
    ...summaryOf(row),
    content: row.content,
    tokens: JSON.parse(row.tokens) as string[],
    trigrams: JSON.parse(row.trigrams) as string[],
  };
}

/**
 * The index port on one SQLite file (better-sqlite3): the embedded adapter for a single
 * process. better-sqlite3 is synchronous; the methods stay async to honour the port and
 * turn every failure into a rejected PortError.
 */
export class SqliteIndexStore implements IndexStore {
  private readonly file: string;
  private readonly db: Database.Database;
  private statements: Statements | undefined;
  private suggestStatements: SuggestStatements | undefined;
  private contentStatements: contentSearch.ContentStatements | undefined;
  private readonly frequentTermFiles: number;

  constructor(options: SqliteIndexStoreOptions) {
    if (!options || typeof options.file !== 'string' || options.file === '') {
      throw new PortError('INVALID', 'SqliteIndexStore needs options.file (a path, or ":memory:")');
    }
    this.file = options.file;
    this.frequentTermFiles = options.suggestFrequentTermFiles ?? 2048;
    try {
      this.db = new Database(options.file);
      configureConnection(this.db);
    } catch (error) {
      // A file that cannot be opened (missing folder, not a database) is a configuration error.
      const mapped = toPortError(error, this.file, 'open');
      throw mapped.code === 'INTERNAL' ? new PortError('INVALID', mapped.message, { cause: error }) : mapped;
    }
  }

  /** Runs one call: creates the schema on first use, maps failures to PortError. */
  /**
   * A read for a caller that may give up: refused with the signal's reason once it is
   * aborted. Each read is one synchronous run of statements (nothing can abort in between),
   * so a caller's loop of reads stops at its next read.
   */
  private read<T>(action: string, options: IndexCallOptions | undefined, body: (st: Statements) => T): Promise<T> {
    if (options?.signal?.aborted) return Promise.reject(options.signal.reason as Error);
    return this.run(action, body);
  }

  private run<T>(action: string, body: (st: Statements) => T): Promise<T> {
    if (!this.db.open) {
      return Promise.reject(new PortError('UNAVAILABLE', `SQLite index ${this.file} is closed (${action})`));
    }
    try {
      if (!this.statements) {
        ensureSchema(this.db);
        this.statements = prepareStatements(this.db);
        this.suggestStatements = prepareSuggestStatements(this.db);
        this.contentStatements = contentSearch.prepareContentStatements(this.db);
      }
      return Promise.resolve(body(this.statements));
    } catch (error) {
      return Promise.reject(toPortError(error, this.file, action));
    }
  }

  private scope(st: Statements, repositoryId: number, ref: string): number | undefined {
    return st.scopeId.get({ repositoryId, ref }) as number | undefined;
  }

  async ensureReady(): Promise<void> {
    await this.run('ensureReady', () => undefined);
  }

  async ping(): Promise<boolean> {
    try {
      return this.db.open && this.db.prepare('SELECT 1').pluck().get() === 1;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
    this.statements = undefined;
    this.suggestStatements = undefined;
    this.contentStatements = undefined;
  }

  // ── repositories and ref states ──────────────────────────────────────────

  getRepository(repositoryId: number, options?: IndexCallOptions): Promise<RepositoryDocument | null> {
    return this.read('getRepository', options, (st) => parseOrNull<RepositoryDocument>(st.getRepository.get({ repositoryId })));
  }

  findRepositoryByName(fullName: string, options?: IndexCallOptions): Promise<RepositoryDocument | null> {
    return this.read('findRepositoryByName', options, (st) => parseOrNull<RepositoryDocument>(st.findRepository.get({ name: fullName.toLowerCase() })));
  }

  listRepositories(options?: IndexCallOptions): Promise<RepositoryDocument[]> {
    return this.read('listRepositories', options, (st) => (st.listRepositories.all() as string[]).map((doc) => JSON.parse(doc) as RepositoryDocument));
  }

  putRepository(repository: RepositoryDocument): Promise<void> {
    return this.run('putRepository', (st) => {
      st.putRepository.run({ repositoryId: repository.repositoryId, name: repository.fullNameLower, doc: JSON.stringify(repository) });
    });
  }

  deleteRepository(repositoryId: number): Promise<void> {
    return this.run('deleteRepository', (st) =>
      this.db.transaction(() => {
        for (const s of st.scopesOfRepository.all({ repositoryId }) as number[]) writes.deleteScope(st, s);
        st.deleteRefStatesOf.run({ repositoryId });
        st.deleteRepository.run({ repositoryId });
      })(),
    );
  }

  getRefState(repositoryId: number, ref: string, options?: IndexCallOptions): Promise<RefState | null> {
    return this.read('getRefState', options, (st) => parseOrNull<RefState>(st.getRefState.get({ repositoryId, ref })));
  }

  listRefStates(repositoryId?: number, options?: IndexCallOptions): Promise<RefState[]> {
    return this.read('listRefStates', options, (st) => {
      const docs = (repositoryId === undefined ? st.listRefStates.all() : st.listRefStatesOf.all({ repositoryId })) as string[];
      return docs.map((doc) => JSON.parse(doc) as RefState);
    });
  }

  /** One synchronous run of the three lookups: nothing to save here, but the port asks for it. */
  lookupForRead(request: ReadLookup, options?: IndexCallOptions): Promise<ReadLookupResult> {
    return this.read('lookupForRead', options, (st) => {
      const { fullName, repositoryId, versions } = request;
      const repository = parseOrNull<RepositoryDocument>(st.findRepository.get({ name: fullName.toLowerCase() }));
      const refStates = (st.listRefStatesOf.all({ repositoryId }) as string[]).map((doc) => JSON.parse(doc) as RefState);
      if (!versions) return { repository, refStates, versions: null };
      const s = this.scope(st, repositoryId, versions.ref);
      const rows = s === undefined || versions.limit <= 0 ? [] : (st.fileVersions.all({ s, path: versions.path, since: versions.since, limit: versions.limit }) as FileBodyRow[]);
      return { repository, refStates, versions: rows.map((row) => withRawBytes(documentOf(row), row.fid, st.raw)) };
    });
  }

  putRefState(state: RefState): Promise<void> {
    return this.run('putRefState', (st) => {
      st.putRefState.run({ repositoryId: state.repositoryId, ref: state.ref, doc: JSON.stringify(state) });
    });
  }

  deleteRef(repositoryId: number, ref: string): Promise<void> {
    return this.run('deleteRef', (st) =>
      this.db.transaction(() => {
        const s = this.scope(st, repositoryId, ref);
        if (s !== undefined) writes.deleteScope(st, s);
        st.deleteRefState.run({ repositoryId, ref });
      })(),
    );
  }

  // ── file writes ──────────────────────────────────────────────────────────

  writeFiles(fileWrites: FileWrite[]): Promise<void> {
    return this.run('writeFiles', (st) =>
      this.db.transaction(() => {
        for (const write of fileWrites) {
          if (write.type === 'put') writes.putFile(st, write.document);
          else writes.retireFile(st, write);
        }
      })(),
    );
  }

  discardAfter(snapshot: Snapshot): Promise<void> {
    return this.run('discardAfter', (st) =>
      this.db.transaction(() => {
        const s = this.scope(st, snapshot.repositoryId, snapshot.ref);
        if (s !== undefined) writes.discardAfter(st, s, snapshot.generation);
      })(),
    );
  }

  pruneRetired(repositoryId: number, ref: string, generation: number): Promise<void> {
    return this.run('pruneRetired', (st) =>
      this.db.transaction(() => {
        const s = this.scope(st, repositoryId, ref);
        if (s !== undefined) writes.pruneRetired(st, s, generation);
      })(),
    );
  }

  /** Every committed write is already visible to the next query. */
  refresh(): Promise<void> {
    return this.run('refresh', () => undefined);
  }

  // ── reads ────────────────────────────────────────────────────────────────

  visibleEntries(snapshot: Snapshot, afterPath: string | null, limit: number, options?: IndexCallOptions): Promise<VisibleEntry[]> {
    return this.read('visibleEntries', options, (st) => {
      const s = this.scope(st, snapshot.repositoryId, snapshot.ref);
      if (s === undefined || limit <= 0) return [];
      return st.visibleEntries.all({ s, g: snapshot.generation, after: afterPath ?? '', limit }) as VisibleEntry[];
    });
  }

  lookupEntries(snapshot: Snapshot, paths: string[], options?: IndexCallOptions): Promise<VisibleEntry[]> {
    return this.read('lookupEntries', options, (st) => {
      const s = this.scope(st, snapshot.repositoryId, snapshot.ref);
      if (s === undefined || paths.length === 0) return [];
      return st.lookupEntries.all({ s, g: snapshot.generation, paths: JSON.stringify(paths) }) as VisibleEntry[];
    });
  }

  getFile(snapshot: Snapshot, path: string, options?: IndexCallOptions): Promise<FileDocument | null> {
    return this.read('getFile', options, (st) => {
      const s = this.scope(st, snapshot.repositoryId, snapshot.ref);
      if (s === undefined) return null;
      const row = st.getFile.get({ s, g: snapshot.generation, path }) as FileBodyRow | undefined;
      return row ? withRawBytes(documentOf(row), row.fid, st.raw) : null;
    });
  }

  visibleFiles(snapshot: Snapshot, afterPath: string | null, limit: number, maxSize: number, options?: IndexCallOptions): Promise<FileDocument[]> {
    return this.read('visibleFiles', options, (st) => {
      const s = this.scope(st, snapshot.repositoryId, snapshot.ref);
      if (s === undefined || limit <= 0) return [];
      const rows = st.visibleFiles.all({ s, g: snapshot.generation, after: afterPath ?? '', maxSize, limit }) as FileBodyRow[];
      return rows.map((row) => withRawBytes(documentOf(row), row.fid, st.raw));
    });
  }

  listFolders(scope: FolderScope, options?: IndexCallOptions): Promise<FolderCount[]> {
    return this.read('listFolders', options, (st) => {
      const s = this.scope(st, scope.repositoryId, scope.ref);
      if (s === undefined || scope.depth <= 0) return [];
      const params = { s, g: scope.generation, maxDepth: depthOf(scope.folder) + scope.depth, cap: MAX_FOLDERS };
      const rows = scope.folder === '' ? st.rootFolders.all(params) : st.subFolders.all({ ...params, ...folderRange(scope.folder) });
      return rows as FolderCount[];
    });
  }

  listFiles(scope: FolderScope, afterPath: string | null, limit: number, options?: IndexCallOptions): Promise<{ files: FileSummary[]; total: number }> {
    return this.read('listFiles', options, (st) => {
      const s = this.scope(st, scope.repositoryId, scope.ref);
      if (s === undefined) return { files: [], total: 0 };
      const params = { s, g: scope.generation, maxDepth: depthOf(scope.folder) + scope.depth };
      const page = { ...params, after: afterPath ?? '', limit: Math.max(0, limit) };
      if (scope.folder === '') {
        const total = st.rootFilesTotal.get(params) as number;
        const files = limit > 0 ? (st.rootFilesPage.all(page) as FileRow[]) : [];
        return { files: files.map(summaryOf), total };
      }
      const range = folderRange(scope.folder);
      const total = st.subFilesTotal.get({ ...params, ...range }) as number;
      const files = limit > 0 ? (st.subFilesPage.all({ ...page, ...range }) as FileRow[]) : [];
      return { files: files.map(summaryOf), total };
    });
  }

  stats(snapshot: Snapshot, options?: IndexCallOptions): Promise<IndexStats> {
    return this.read('stats', options, (st) => {
      const result: IndexStats = { fileCount: 0, languages: {}, categories: {}, totalBytes: 0 };
      const s = this.scope(st, snapshot.repositoryId, snapshot.ref);
      if (s === undefined) return result;
      const rows = st.stats.all({ s, g: snapshot.generation }) as { language: string | null; category: string; files: number; bytes: number }[];
      for (const row of rows) {
        result.fileCount += row.files;
        result.totalBytes += row.bytes;
        result.categories[row.category] = (result.categories[row.category] ?? 0) + row.files;
        if (row.language !== null) result.languages[row.language] = (result.languages[row.language] ?? 0) + row.files;
      }
      return result;
    });
  }

  /**
   * Exact score: +1 per distinct query trigram in the document's trigrams, +100 when the
   * name equals, +50 when the lower-cased path starts with the query path, +10 per distinct
   * query token in the document's tokens. Only scores > 0; score desc, then path.
   */
  suggestCandidates(snapshot: Snapshot, query: SuggestQuery, options?: IndexCallOptions): Promise<SuggestCandidate[]> {
    return this.read('suggestCandidates', options, (st) => {
      const s = this.scope(st, snapshot.repositoryId, snapshot.ref);
      if (s === undefined || query.limit <= 0) return [];
      if (query.trigrams.length === 0 && query.tokens.length === 0 && query.nameLower === '' && query.pathLower === '') return [];
      return suggest(this.suggestStatements as SuggestStatements, s, snapshot.generation, query, this.frequentTermFiles);
    });
  }

  findByBlobSha(snapshot: Snapshot, blobSha: string, limit: number, options?: IndexCallOptions): Promise<string[]> {
    return this.read('findByBlobSha', options, (st) => {
      const s = this.scope(st, snapshot.repositoryId, snapshot.ref);
      if (s === undefined || limit <= 0) return [];
      return st.findByBlobSha.all({ s, g: snapshot.generation, blobSha, limit }) as string[];
    });
  }

  findRetired(snapshot: Snapshot, path: string, options?: IndexCallOptions): Promise<FileSummary | null> {
    return this.read('findRetired', options, (st) => {
      const s = this.scope(st, snapshot.repositoryId, snapshot.ref);
      if (s === undefined) return null;
      const row = st.findRetired.get({ s, g: snapshot.generation, path }) as FileRow | undefined;
      return row ? summaryOf(row) : null;
    });
  }

  retiredPaths(snapshot: Snapshot, limit: number, options?: IndexCallOptions): Promise<string[]> {
    return this.read('retiredPaths', options, (st) => {
      const s = this.scope(st, snapshot.repositoryId, snapshot.ref);
      return s === undefined || limit <= 0 ? [] : (st.retiredPaths.all({ s, g: snapshot.generation, limit }) as string[]);
    });
  }

  snapshotsWithPath(snapshots: Snapshot[], path: string, options?: IndexCallOptions): Promise<Snapshot[]> {
    return this.read('snapshotsWithPath', options, (st) => {
      if (snapshots.length === 0) return [];
      const list = snapshots.map(({ repositoryId, ref, generation }) => ({ repositoryId, ref, generation }));
      const hits = st.snapshotsWithPath.all({ snapshots: JSON.stringify(list), path }) as number[];
      return hits.map((index) => snapshots[index] as Snapshot);
    });
  }

  // ── search_code ──────────────────────────────────────────────────────────

  searchCandidates(snapshot: Snapshot, plan: ContentPlan, scope: ContentScope): Promise<ContentCandidate[]> {
    return this.run('searchCandidates', (st) => {
      const s = this.scope(st, snapshot.repositoryId, snapshot.ref);
      if (s === undefined) return [];
      return contentSearch.searchCandidates(this.contentStatements as contentSearch.ContentStatements, s, snapshot.generation, plan, scope);
    });
  }

  unsearchableFiles(snapshot: Snapshot, scope: ContentScope): Promise<ContentCandidate[]> {
    return this.run('unsearchableFiles', (st) => {
      const s = this.scope(st, snapshot.repositoryId, snapshot.ref);
      if (s === undefined) return [];
      return contentSearch.unsearchableFiles(this.contentStatements as contentSearch.ContentStatements, s, snapshot.generation, scope);
    });
  }

  countUnsearchable(snapshot: Snapshot, scope: Pick<ContentScope, 'language' | 'includeGenerated' | 'signal'>): Promise<UnsearchableCount> {
    return this.run('countUnsearchable', (st) => {
      const s = this.scope(st, snapshot.repositoryId, snapshot.ref);
      if (s === undefined) return { binary: 0, tooLarge: 0 };
      return contentSearch.countUnsearchable(this.contentStatements as contentSearch.ContentStatements, s, snapshot.generation, scope);
    });
  }

  readContents(snapshot: Snapshot, paths: string[], signal?: AbortSignal): Promise<FileContent[]> {
    return this.run('readContents', (st) => {
      const s = this.scope(st, snapshot.repositoryId, snapshot.ref);
      if (s === undefined) return [];
      return contentSearch.readContents(this.contentStatements as contentSearch.ContentStatements, s, snapshot.generation, paths, signal);
    });
  }
}

function parseOrNull<T>(doc: unknown): T | null {
  return typeof doc === 'string' ? (JSON.parse(doc) as T) : null;
}
