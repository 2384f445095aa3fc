import { createHash } from 'node:crypto';
import { type BlobSymbols, type FileDocument, type FileFlags, type RefState, type RepositoryDocument } from '@gitdex/contracts';
import { ancestorsOf, extensionOf, folderOf, nameOf, pathTokens, trigramsOf } from '@gitdex/terms';
import type { FileWrite, IndexStore } from '@gitdex/ports';

/** What a test says about a file: its content, or a spec for binaries, symlinks and the like. */
export type FileSpec =
  | string
  | {
      content?: string | null;
      kind?: FileDocument['kind'];
      size?: number;
      flags?: Partial<FileFlags>;
      target?: string;
      language?: string | null;
      category?: FileDocument['category'];
      /** The blob's symbols, as extraction hands them to storage. */
      symbols?: BlobSymbols;
    };

const LANGUAGES: Record<string, string> = {
  ts: 'TypeScript',
  tsx: 'TypeScript',
  js: 'JavaScript',
  py: 'Python',
  go: 'Go',
  rs: 'Rust',
  md: 'Markdown',
  json: 'JSON',
  yml: 'YAML',
};
const DOCS = new Set(['md', 'rst', 'txt', 'adoc']);
const DATA = new Set(['json', 'yml', 'yaml', 'csv', 'toml']);

export function blobShaOf(content: string): string {
  return createHash('sha1')
    .update(`blob ${Buffer.byteLength(content)}\0${content}`)
    .digest('hex');
}

export function commitSha(label: string): string {
  return createHash('sha1').update(`commit ${label}`).digest('hex');
}

/** A file document as the indexer writes it, with the derived path terms of libs/terms. */
export function fileDocument(options: { repositoryId: number; ref: string; path: string; spec: FileSpec; commit: string; generation: number }): FileDocument {
  const spec = typeof options.spec === 'string' ? { content: options.spec } : options.spec;
  const path = options.path;
  const name = nameOf(path);
  const extension = extensionOf(name);
  const content = spec.content === undefined ? '' : spec.content;
  const flags: FileFlags = { binary: false, vendored: false, generated: false, tooLarge: false, ...spec.flags };
  const kind = spec.kind ?? 'file';
  const ancestors = ancestorsOf(path);
  return {
    repositoryId: options.repositoryId,
    ref: options.ref,
    path,
    folder: folderOf(path),
    name,
    extension,
    language: spec.language !== undefined ? spec.language : (LANGUAGES[extension] ?? null),
    category: spec.category ?? (DOCS.has(extension) || name.toLowerCase().startsWith('readme') ? 'documentation' : DATA.has(extension) ? 'data' : LANGUAGES[extension] ? 'code' : 'other'),
    kind,
    size: spec.size ?? Buffer.byteLength(content ?? spec.target ?? ''),
    lineCount: content === null || flags.binary ? null : content === '' ? 0 : content.split('\n').length - (content.endsWith('\n') ? 1 : 0),
    blobSha: blobShaOf(`${kind}:${content ?? ''}:${spec.target ?? ''}:${spec.size ?? ''}`),
    commitSha: options.commit,
    flags,
    ...(spec.target !== undefined ? { target: spec.target } : {}),
    content: flags.binary || flags.tooLarge ? null : content,
    ancestors,
    depth: ancestors.length,
    nameLower: name.toLowerCase(),
    pathLower: path.toLowerCase(),
    tokens: pathTokens(path),
    trigrams: trigramsOf(name),
    fromGeneration: options.generation,
    ...(spec.symbols !== undefined ? { symbols: spec.symbols } : {}),
  };
}

export interface SeedOptions {
  id: number;
  fullName: string;
  private?: boolean;
  defaultBranch?: string;
  ref?: string;
  files: Record<string, FileSpec>;
  commitLabel?: string;
  indexedAt?: string;
}

export function repositoryDocument(options: { id: number; fullName: string; private?: boolean; defaultBranch?: string }): RepositoryDocument {
  return {
    repositoryId: options.id,
    fullName: options.fullName,
    fullNameLower: options.fullName.toLowerCase(),
    defaultBranch: options.defaultBranch ?? 'main',
    private: options.private ?? false,
    archived: false,
    htmlUrl: `https://github.com/${options.fullName}`,
    installationId: null,
    updatedAt: '2025-01-01T00:00:00.000Z',
    backfillRequestedAt: null,
  };
}

export function readyState(repositoryId: number, ref: string, commit: string, generation: number, fileCount: number, indexedAt = '2025-01-02T03:04:05.000Z'): RefState {
  return {
    repositoryId,
    ref,
    commitSha: commit,
    treeSha: commitSha(`tree ${commit}`),
    generation,
    indexedAt,
    committedAt: indexedAt,
    fileCount,
    status: 'ready',
    lastError: null,
    attempts: 0,
    pendingCommitSha: null,
    pendingSince: null,
    sourceReceivedAt: indexedAt,
  };
}

/** Writes a repository with one ref indexed at generation 1, as the indexer would. */
export async function seedRepository(index: IndexStore, options: SeedOptions): Promise<{ repository: RepositoryDocument; state: RefState }> {
  const repository = repositoryDocument(options);
  await index.putRepository(repository);
  const ref = options.ref ?? `refs/heads/${repository.defaultBranch}`;
  const commit = commitSha(options.commitLabel ?? `${options.fullName}@1`);
  const writes: FileWrite[] = Object.entries(options.files).map(([path, spec]) => ({
    type: 'put',
    document: fileDocument({ repositoryId: options.id, ref, path, spec, commit, generation: 1 }),
  }));
  for (let i = 0; i < writes.length; i += 5000) await index.writeFiles(writes.slice(i, i + 5000));
  const state = readyState(options.id, ref, commit, 1, writes.length, options.indexedAt);
  await index.putRefState(state);
  return { repository, state };
}

/**
 * Applies a commit to an indexed ref: new and changed files at the next generation,
 * retirements of changed and removed ones, then the state flip, as the indexer does.
 */
export async function pushCommit(index: IndexStore, options: { repositoryId: number; ref: string; label: string; put?: Record<string, FileSpec>; remove?: string[] }): Promise<RefState> {
  const state = await index.getRefState(options.repositoryId, options.ref);
  if (!state) throw new Error('no such ref state');
  const generation = state.generation + 1;
  const commit = commitSha(options.label);
  const snapshot = { repositoryId: options.repositoryId, ref: options.ref, generation: state.generation };
  const writes: FileWrite[] = [];
  const retire = async (path: string) => {
    const current = await index.getFile(snapshot, path);
    if (current) writes.push({ type: 'retire', repositoryId: options.repositoryId, ref: options.ref, path, fromGeneration: current.fromGeneration, atGeneration: generation });
  };
  let delta = 0;
  for (const [path, spec] of Object.entries(options.put ?? {})) {
    const existed = await index.getFile(snapshot, path);
    if (!existed) delta += 1;
    await retire(path);
    writes.push({ type: 'put', document: fileDocument({ repositoryId: options.repositoryId, ref: options.ref, path, spec, commit, generation }) });
  }
  for (const path of options.remove ?? []) {
    const existed = await index.getFile(snapshot, path);
    if (existed) delta -= 1;
    await retire(path);
  }
  await index.writeFiles(writes);
  const next: RefState = { ...state, commitSha: commit, generation, fileCount: state.fileCount + delta, pendingCommitSha: null, pendingSince: null, indexedAt: '2025-01-03T00:00:00.000Z' };
  await index.putRefState(next);
  return next;
}
