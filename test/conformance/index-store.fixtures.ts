/**
 * Fixture builder and reference model for the IndexStore conformance suite. Documents
 * are derived with the same @gitdex/contracts helpers the indexer uses, so adapters are
 * tested on the exact terms they will see in production. The model functions compute
 * what every adapter must answer, straight from the documents.
 */
import { createHash } from 'node:crypto';
import { type FileDocument, type RefState, type RepositoryDocument } from '@gitdex/contracts';
import { ancestorsOf, depthOf, extensionOf, folderOf, nameOf, pathTokens, trigramsOf } from '@gitdex/terms';
import type { FileWrite, FolderCount, FolderScope, Snapshot, SuggestCandidate, SuggestQuery } from '@gitdex/ports';

export const MAIN = 'refs/heads/main';

const LANGUAGES: Record<string, string> = { ts: 'TypeScript', js: 'JavaScript', md: 'Markdown', json: 'JSON', py: 'Python' };
const CATEGORIES: Record<string, FileDocument['category']> = { ts: 'code', js: 'code', py: 'code', md: 'documentation', json: 'data' };

/** Git's blob sha of a text. */
export function blobShaOf(content: string): string {
  const bytes = Buffer.from(content, 'utf8');
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

export interface FileOptions extends Partial<FileDocument> {
  repositoryId: number;
  path: string;
}

/** A valid FileDocument for a path, every derived field computed by the contracts helpers. */
export function makeFile(options: FileOptions): FileDocument {
  const { path } = options;
  const name = nameOf(path);
  const extension = extensionOf(name);
  const content = options.content === undefined ? `// ${path}\n` : options.content;
  const doc: FileDocument = {
    repositoryId: options.repositoryId,
    ref: MAIN,
    path,
    folder: folderOf(path),
    name,
    extension,
    language: LANGUAGES[extension] ?? null,
    category: CATEGORIES[extension] ?? 'other',
    kind: 'file',
    size: content === null ? 0 : Buffer.byteLength(content),
    lineCount: content === null ? null : content.split('\n').length,
    blobSha: blobShaOf(content ?? path),
    commitSha: 'c'.repeat(40),
    flags: { binary: false, vendored: false, generated: false, tooLarge: false },
    content,
    ancestors: ancestorsOf(path),
    depth: depthOf(path),
    nameLower: name.toLowerCase(),
    pathLower: path.toLowerCase(),
    tokens: pathTokens(path),
    trigrams: trigramsOf(name),
    fromGeneration: 1,
  };
  return { ...doc, ...options, content };
}

export function makeRepository(repositoryId: number, fullName: string, overrides: Partial<RepositoryDocument> = {}): RepositoryDocument {
  return {
    repositoryId,
    fullName,
    fullNameLower: fullName.toLowerCase(),
    defaultBranch: 'main',
    private: false,
    archived: false,
    htmlUrl: `https://github.com/${fullName}`,
    installationId: null,
    updatedAt: '2025-01-02T03:04:05.000Z',
    backfillRequestedAt: null,
    ...overrides,
  };
}

export function makeRefState(repositoryId: number, ref: string, overrides: Partial<RefState> = {}): RefState {
  return {
    repositoryId,
    ref,
    commitSha: 'a'.repeat(40),
    treeSha: 'b'.repeat(40),
    generation: 1,
    indexedAt: '2025-01-02T03:04:05.000Z',
    committedAt: '2025-01-02T03:00:00.000Z',
    fileCount: 0,
    status: 'ready',
    lastError: null,
    attempts: 0,
    pendingCommitSha: null,
    pendingSince: null,
    sourceReceivedAt: null,
    ...overrides,
  };
}

export const put = (document: FileDocument): FileWrite => ({ type: 'put', document });

export function retire(doc: FileDocument, atGeneration: number): FileWrite {
  return { type: 'retire', repositoryId: doc.repositoryId, ref: doc.ref, path: doc.path, fromGeneration: doc.fromGeneration, atGeneration };
}

/** What a model store holds after the same retirements: the docs with retiredAtGeneration applied. */
export function retired(doc: FileDocument, atGeneration: number): FileDocument {
  return { ...doc, retiredAtGeneration: atGeneration };
}

// ── reference model ─────────────────────────────────────────────────────────

/** Code point order (= UTF-8 byte order), not JS UTF-16 order. */
export function compareCodePoints(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

export function sortedPaths(paths: Iterable<string>): string[] {
  return [...paths].sort(compareCodePoints);
}

function visibleAt(doc: FileDocument, repositoryId: number, ref: string, generation: number): boolean {
  return doc.repositoryId === repositoryId && doc.ref === ref && doc.fromGeneration <= generation && (doc.retiredAtGeneration === undefined || doc.retiredAtGeneration > generation);
}

/** Its own versions at its generation, plus the underlay's at its generation for paths it does not shadow. */
export function isVisible(doc: FileDocument, snapshot: Snapshot): boolean {
  if (visibleAt(doc, snapshot.repositoryId, snapshot.ref, snapshot.generation)) return true;
  const under = snapshot.underlay;
  return under !== undefined && !under.shadowed.includes(doc.path) && visibleAt(doc, snapshot.repositoryId, under.ref, under.generation);
}

export function visible(docs: FileDocument[], snapshot: Snapshot): FileDocument[] {
  return docs.filter((doc) => isVisible(doc, snapshot)).sort((a, b) => compareCodePoints(a.path, b.path));
}

function isUnder(path: string, folder: string): boolean {
  return folder === '' || path.startsWith(`${folder}/`);
}

export function expectedFolders(docs: FileDocument[], scope: FolderScope): FolderCount[] {
  const maxDepth = depthOf(scope.folder) + scope.depth;
  const counts = new Map<string, number>();
  for (const doc of visible(docs, scope)) {
    for (const folder of doc.ancestors) {
      if (folder === scope.folder || !isUnder(folder, scope.folder) || depthOf(folder) > maxDepth) continue;
      counts.set(folder, (counts.get(folder) ?? 0) + 1);
    }
  }
  return sortedPaths(counts.keys()).map((path) => ({ path, fileCount: counts.get(path) as number }));
}

export function expectedFiles(docs: FileDocument[], scope: FolderScope): string[] {
  const maxDepth = depthOf(scope.folder) + scope.depth;
  return visible(docs, scope)
    .filter((doc) => isUnder(doc.path, scope.folder) && doc.depth <= maxDepth)
    .map((doc) => doc.path);
}

/** The suggestion query the reader would build for a typed path. */
export function suggestQuery(typed: string, limit = 10): SuggestQuery {
  const name = nameOf(typed);
  return { pathLower: typed.toLowerCase(), nameLower: name.toLowerCase(), tokens: pathTokens(typed), trigrams: trigramsOf(name), limit };
}

export function expectedScore(doc: FileDocument, query: SuggestQuery): number {
  const trigrams = new Set(doc.trigrams);
  const tokens = new Set(doc.tokens);
  let score = 0;
  for (const gram of new Set(query.trigrams)) if (trigrams.has(gram)) score += 1;
  if (query.nameLower !== '' && doc.nameLower === query.nameLower) score += 100;
  if (query.pathLower !== '' && doc.pathLower.startsWith(query.pathLower)) score += 50;
  for (const token of new Set(query.tokens)) if (tokens.has(token)) score += 10;
  return score;
}

export function expectedSuggestions(docs: FileDocument[], snapshot: Snapshot, query: SuggestQuery): SuggestCandidate[] {
  return visible(docs, snapshot)
    .map((doc) => ({ path: doc.path, blobSha: doc.blobSha, score: expectedScore(doc, query) }))
    .filter((candidate) => candidate.score > 0)
    .sort((a, b) => b.score - a.score || compareCodePoints(a.path, b.path))
    .slice(0, query.limit);
}
