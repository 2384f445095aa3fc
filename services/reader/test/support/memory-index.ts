import { selects } from '../../../../test/conformance/index-store.cases-content';
import { type FileDocument, type RefState, type RepositoryDocument } from '@gitdex/contracts';
import { contentTerms, depthOf } from '@gitdex/terms';
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
  type IndexStats,
  type IndexStore,
  type ReadLookup,
  type ReadLookupResult,
  type Snapshot,
  type SuggestCandidate,
  type SuggestQuery,
  type VisibleEntry,
} from '@gitdex/ports';

/**
 * An IndexStore held in memory, following the port's documented semantics: a version
 * is visible at generation G when fromGeneration <= G and it is not retired at or before G.
 * For the reader's tests until the SQLite adapter lands; not a conformance reference.
 */
export class MemoryIndexStore implements IndexStore {
  private readonly repositories = new Map<number, RepositoryDocument>();
  private readonly refStates = new Map<string, RefState>();
  /** key: repositoryId \0 ref \0 path \0 fromGeneration */
  private readonly files = new Map<string, FileDocument>();
  /** Makes every call fail as an unreachable engine would. */
  unavailable = false;
  /** Counts calls by method, for tests of how many round trips a tool makes. */
  readonly calls = new Map<string, number>();

  private touch(method: string): void {
    this.calls.set(method, (this.calls.get(method) ?? 0) + 1);
    if (this.unavailable) throw new PortError('UNAVAILABLE', 'index engine unreachable (test)');
  }

  async ensureReady(): Promise<void> {}
  async ping(): Promise<boolean> {
    return !this.unavailable;
  }
  async close(): Promise<void> {}

  async getRepository(repositoryId: number): Promise<RepositoryDocument | null> {
    this.touch('getRepository');
    return this.repositories.get(repositoryId) ?? null;
  }
  async findRepositoryByName(fullName: string): Promise<RepositoryDocument | null> {
    this.touch('findRepositoryByName');
    const lower = fullName.toLowerCase();
    return [...this.repositories.values()].find((r) => r.fullNameLower === lower) ?? null;
  }
  async listRepositories(): Promise<RepositoryDocument[]> {
    this.touch('listRepositories');
    return [...this.repositories.values()].sort((a, b) => cmp(a.fullNameLower, b.fullNameLower));
  }
  async putRepository(repository: RepositoryDocument): Promise<void> {
    this.touch('putRepository');
    this.repositories.set(repository.repositoryId, structuredClone(repository));
  }
  async deleteRepository(repositoryId: number): Promise<void> {
    this.touch('deleteRepository');
    this.repositories.delete(repositoryId);
    for (const [key, state] of this.refStates) if (state.repositoryId === repositoryId) this.refStates.delete(key);
    for (const [key, doc] of this.files) if (doc.repositoryId === repositoryId) this.files.delete(key);
  }

  async getRefState(repositoryId: number, ref: string): Promise<RefState | null> {
    this.touch('getRefState');
    return this.refStates.get(`${repositoryId}\0${ref}`) ?? null;
  }
  async listRefStates(repositoryId?: number): Promise<RefState[]> {
    this.touch('listRefStates');
    return [...this.refStates.values()].filter((s) => repositoryId === undefined || s.repositoryId === repositoryId).sort((a, b) => a.repositoryId - b.repositoryId || cmp(a.ref, b.ref));
  }
  async lookupForRead(request: ReadLookup): Promise<ReadLookupResult> {
    this.touch('lookupForRead');
    const lower = request.fullName.toLowerCase();
    const repository = [...this.repositories.values()].find((r) => r.fullNameLower === lower) ?? null;
    const refStates = [...this.refStates.values()].filter((s) => s.repositoryId === request.repositoryId).sort((a, b) => cmp(a.ref, b.ref));
    const asked = request.versions;
    if (!asked) return { repository, refStates, versions: null };
    const versions = [...this.files.values()]
      .filter((d) => d.repositoryId === request.repositoryId && d.ref === asked.ref && d.path === asked.path && (d.retiredAtGeneration ?? Infinity) > asked.since)
      .sort((a, b) => b.fromGeneration - a.fromGeneration)
      .slice(0, Math.max(0, asked.limit));
    return { repository, refStates, versions: structuredClone(versions) };
  }
  async putRefState(state: RefState): Promise<void> {
    this.touch('putRefState');
    this.refStates.set(`${state.repositoryId}\0${state.ref}`, structuredClone(state));
  }
  async deleteRef(repositoryId: number, ref: string): Promise<void> {
    this.touch('deleteRef');
    this.refStates.delete(`${repositoryId}\0${ref}`);
    for (const [key, doc] of this.files) if (doc.repositoryId === repositoryId && doc.ref === ref) this.files.delete(key);
  }

  async writeFiles(writes: FileWrite[]): Promise<void> {
    this.touch('writeFiles');
    for (const write of writes) {
      if (write.type === 'put') {
        const d = write.document;
        this.files.set(`${d.repositoryId}\0${d.ref}\0${d.path}\0${d.fromGeneration}`, structuredClone(d));
      } else {
        const doc = this.files.get(`${write.repositoryId}\0${write.ref}\0${write.path}\0${write.fromGeneration}`);
        if (doc) doc.retiredAtGeneration = write.atGeneration;
      }
    }
  }
  async discardAfter(snapshot: Snapshot): Promise<void> {
    this.touch('discardAfter');
    for (const [key, doc] of this.files) {
      if (doc.repositoryId !== snapshot.repositoryId || doc.ref !== snapshot.ref) continue;
      if (doc.fromGeneration > snapshot.generation) this.files.delete(key);
      else if (doc.retiredAtGeneration !== undefined && doc.retiredAtGeneration > snapshot.generation) delete doc.retiredAtGeneration;
    }
  }
  async pruneRetired(repositoryId: number, ref: string, generation: number): Promise<void> {
    this.touch('pruneRetired');
    for (const [key, doc] of this.files) {
      if (doc.repositoryId === repositoryId && doc.ref === ref && doc.retiredAtGeneration !== undefined && doc.retiredAtGeneration <= generation) {
        this.files.delete(key);
      }
    }
  }
  async refresh(): Promise<void> {}

  private visible(snapshot: Snapshot): FileDocument[] {
    const result: FileDocument[] = [];
    for (const doc of this.files.values()) {
      if (doc.repositoryId !== snapshot.repositoryId || doc.ref !== snapshot.ref) continue;
      if (doc.fromGeneration > snapshot.generation) continue;
      if (doc.retiredAtGeneration !== undefined && doc.retiredAtGeneration <= snapshot.generation) continue;
      result.push(doc);
    }
    return result.sort((a, b) => cmp(a.path, b.path));
  }

  private inScope(doc: FileDocument, scope: FolderScope): boolean {
    return doc.ancestors.includes(scope.folder) && depthOf(doc.path) - depthOf(scope.folder) <= scope.depth;
  }

  async visibleEntries(snapshot: Snapshot, afterPath: string | null, limit: number): Promise<VisibleEntry[]> {
    this.touch('visibleEntries');
    return this.visible(snapshot)
      .filter((d) => afterPath === null || cmp(d.path, afterPath) > 0)
      .slice(0, limit)
      .map((d) => ({ path: d.path, blobSha: d.blobSha, kind: d.kind, fromGeneration: d.fromGeneration }));
  }
  async lookupEntries(snapshot: Snapshot, paths: string[]): Promise<VisibleEntry[]> {
    this.touch('lookupEntries');
    const wanted = new Set(paths);
    return this.visible(snapshot)
      .filter((d) => wanted.has(d.path))
      .map((d) => ({ path: d.path, blobSha: d.blobSha, kind: d.kind, fromGeneration: d.fromGeneration }));
  }
  async getFile(snapshot: Snapshot, path: string): Promise<FileDocument | null> {
    this.touch('getFile');
    const doc = this.visible(snapshot).find((d) => d.path === path);
    return doc ? structuredClone(doc) : null;
  }
  async visibleFiles(snapshot: Snapshot, afterPath: string | null, limit: number, maxSize: number): Promise<FileDocument[]> {
    this.touch('visibleFiles');
    return this.visible(snapshot)
      .filter((d) => (afterPath === null || cmp(d.path, afterPath) > 0) && d.size <= maxSize)
      .slice(0, limit)
      .map((d) => structuredClone(d));
  }
  async listFolders(scope: FolderScope): Promise<FolderCount[]> {
    this.touch('listFolders');
    const counts = new Map<string, number>();
    const base = depthOf(scope.folder);
    for (const doc of this.visible(scope)) {
      if (!doc.ancestors.includes(scope.folder)) continue;
      for (const ancestor of doc.ancestors) {
        const level = depthOf(ancestor) - base;
        if (level < 1 || level > scope.depth) continue;
        if (!(ancestor === scope.folder || ancestor.startsWith(scope.folder === '' ? '' : `${scope.folder}/`))) continue;
        counts.set(ancestor, (counts.get(ancestor) ?? 0) + 1);
      }
    }
    return [...counts.entries()].sort((a, b) => cmp(a[0], b[0])).map(([path, fileCount]) => ({ path, fileCount }));
  }
  async listFiles(scope: FolderScope, afterPath: string | null, limit: number): Promise<{ files: FileSummary[]; total: number }> {
    this.touch('listFiles');
    const inScope = this.visible(scope).filter((d) => this.inScope(d, scope));
    const files = inScope
      .filter((d) => afterPath === null || cmp(d.path, afterPath) > 0)
      .slice(0, limit)
      .map(summary);
    return { files, total: inScope.length };
  }
  async stats(snapshot: Snapshot): Promise<IndexStats> {
    this.touch('stats');
    const languages: Record<string, number> = {};
    const categories: Record<string, number> = {};
    let totalBytes = 0;
    const docs = this.visible(snapshot);
    for (const doc of docs) {
      if (doc.language) languages[doc.language] = (languages[doc.language] ?? 0) + 1;
      categories[doc.category] = (categories[doc.category] ?? 0) + 1;
      totalBytes += doc.size;
    }
    return { fileCount: docs.length, languages, categories, totalBytes };
  }
  /** Candidate generation as an engine would do it: shared name trigrams and path tokens, path or name prefixes. */
  async suggestCandidates(snapshot: Snapshot, query: SuggestQuery): Promise<SuggestCandidate[]> {
    this.touch('suggestCandidates');
    const trigrams = new Set(query.trigrams);
    const tokens = new Set(query.tokens);
    const scored: SuggestCandidate[] = [];
    for (const doc of this.visible(snapshot)) {
      let score = 0;
      for (const gram of doc.trigrams) if (trigrams.has(gram)) score += 1;
      for (const token of doc.tokens) if (tokens.has(token)) score += 2;
      if (query.pathLower && doc.pathLower.startsWith(query.pathLower)) score += 20;
      if (query.nameLower && doc.nameLower.startsWith(query.nameLower)) score += 10;
      if (doc.nameLower === query.nameLower) score += 10;
      if (score > 0) scored.push({ path: doc.path, blobSha: doc.blobSha, score });
    }
    return scored.sort((a, b) => b.score - a.score || cmp(a.path, b.path)).slice(0, query.limit);
  }
  async findByBlobSha(snapshot: Snapshot, blobSha: string, limit: number): Promise<string[]> {
    this.touch('findByBlobSha');
    return this.visible(snapshot)
      .filter((d) => d.blobSha === blobSha)
      .slice(0, limit)
      .map((d) => d.path);
  }
  async findRetired(snapshot: Snapshot, path: string): Promise<FileSummary | null> {
    this.touch('findRetired');
    let best: FileDocument | null = null;
    for (const doc of this.files.values()) {
      if (doc.repositoryId !== snapshot.repositoryId || doc.ref !== snapshot.ref || doc.path !== path) continue;
      if (doc.retiredAtGeneration === undefined || doc.retiredAtGeneration > snapshot.generation) {
        if (doc.fromGeneration <= snapshot.generation) return null; // still visible
        continue;
      }
      if (!best || doc.fromGeneration > best.fromGeneration) best = doc;
    }
    return best ? summary(best) : null;
  }
  async retiredPaths(snapshot: Snapshot, limit: number): Promise<string[]> {
    this.touch('retiredPaths');
    const paths = new Set<string>();
    for (const doc of this.files.values()) {
      if (doc.repositoryId === snapshot.repositoryId && doc.ref === snapshot.ref && doc.retiredAtGeneration !== undefined && doc.retiredAtGeneration <= snapshot.generation) paths.add(doc.path);
    }
    return [...paths].sort(cmp).slice(0, Math.max(0, limit));
  }
  async snapshotsWithPath(snapshots: Snapshot[], path: string): Promise<Snapshot[]> {
    this.touch('snapshotsWithPath');
    return snapshots.filter((s) => this.visible(s).some((d) => d.path === path));
  }

  async searchCandidates(snapshot: Snapshot, plan: ContentPlan, scope: ContentScope): Promise<ContentCandidate[]> {
    this.touch('searchCandidates');
    scope.signal?.throwIfAborted();
    return this.scoped(snapshot, scope)
      .filter((d) => d.content !== null && d.kind === 'file' && selects(plan, new Set(contentTerms(d.content))))
      .slice(0, Math.max(0, scope.limit))
      .map(candidateOf);
  }

  async unsearchableFiles(snapshot: Snapshot, scope: ContentScope): Promise<ContentCandidate[]> {
    this.touch('unsearchableFiles');
    return this.scoped(snapshot, scope)
      .filter((d) => d.kind === 'file' && (d.flags.binary || d.flags.tooLarge))
      .slice(0, Math.max(0, scope.limit))
      .map(candidateOf);
  }

  async countUnsearchable(snapshot: Snapshot, scope: Pick<ContentScope, 'language' | 'includeGenerated' | 'signal'>): Promise<UnsearchableCount> {
    this.touch('countUnsearchable');
    scope.signal?.throwIfAborted();
    const files = this.scoped(snapshot, { ...scope, afterPath: null, limit: 0 }).filter((d) => d.kind === 'file');
    return { binary: files.filter((d) => d.flags.binary).length, tooLarge: files.filter((d) => !d.flags.binary && d.flags.tooLarge).length };
  }

  async readContents(snapshot: Snapshot, paths: string[], signal?: AbortSignal): Promise<FileContent[]> {
    this.touch('readContents');
    signal?.throwIfAborted();
    const wanted = new Set(paths);
    return this.visible(snapshot)
      .filter((d) => wanted.has(d.path))
      .map((d) => ({ path: d.path, content: d.content }));
  }

  private scoped(snapshot: Snapshot, scope: ContentScope): FileDocument[] {
    return this.visible(snapshot)
      .filter((d) => scope.afterPath === null || cmp(d.path, scope.afterPath) > 0)
      .filter((d) => scope.language === undefined || d.language === scope.language)
      .filter((d) => scope.includeGenerated || (!d.flags.vendored && !d.flags.generated));
  }
}

function summary(doc: FileDocument): FileSummary {
  const { content: _content, tokens: _tokens, trigrams: _trigrams, ...rest } = doc;
  return structuredClone(rest);
}

/** Code-point order, as SQLite (BINARY) and Elasticsearch keyword sorts give it. */
function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function candidateOf(d: FileDocument): ContentCandidate {
  return { path: d.path, blobSha: d.blobSha, language: d.language, flags: d.flags, size: d.size };
}
