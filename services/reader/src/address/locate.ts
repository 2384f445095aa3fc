import type { RepositoryDocument } from '@gitdex/contracts';
import type { Principal, ReaderDeps } from '../deps';
import { shortRef } from '../freshness';
import { findRepository, resolveTarget, type Target } from '../target';
import { invalid } from '../tool-error';
import { looksLikeUrl, parseGithubUrl, splitRefAndPath } from './github-url';
import { normalizeRepoPath } from './repo-path';

/** What a tool reads: the repository's readable ref, a path in it, and lines a URL named. */
export interface Located {
  repository: RepositoryDocument;
  target: Target;
  path: string;
  startLine?: number;
  endLine?: number;
}

/**
 * Resolves repository, ref and path as a caller gave them; `path` may be a GitHub URL
 * (blob for files, tree for folders), which then also gives the ref and lines, unless
 * `ref` is passed too: arguments given explicitly win.
 */
export async function locate(
  deps: ReaderDeps,
  principal: Principal | null,
  input: { repository: string; path: string | undefined; ref: string | undefined },
  what: 'file' | 'folder' | 'query',
): Promise<Located> {
  const raw = input.path ?? '';
  const isUrl = looksLikeUrl(raw.trim());
  // Plain paths are checked before any lookup: a bad argument costs no round trip.
  const plainPath = isUrl ? '' : normalizeRepoPath(raw, what === 'file' ? 'path' : what);
  const repository = await findRepository(deps, principal, input.repository);
  if (!isUrl) {
    const target = await resolveTarget(deps, repository, input.ref);
    return { repository, target, path: plainPath };
  }

  const argument = what === 'file' ? 'path' : what;
  const location = parseGithubUrl(raw, deps.githubWebUrl);
  if (!location)
    throw invalid(
      `${argument}: not a GitHub URL of a file or folder; give a path from the repository root such as "src/index.ts", or a URL such as ${deps.githubWebUrl}/${repository.fullName}/blob/${repository.defaultBranch}/README.md`,
    );
  if (location.fullName.toLowerCase() !== repository.fullName.toLowerCase()) {
    throw invalid(`${argument}: the URL is of ${location.fullName} but repository is ${repository.fullName}; pass repository "${location.fullName}", or give the path without the URL`);
  }
  if (what === 'file' && location.kind === 'folder') throw invalid('path: that URL is a folder (tree); list it with list_files, or give a file URL (blob)');
  if (what === 'folder' && location.kind === 'file') throw invalid('folder: that URL is a file (blob); read it with read_file, or give a folder URL (tree)');
  const states = await deps.index.listRefStates(repository.repositoryId);
  const split = splitRefAndPath(
    location.rest,
    states.map((s) => shortRef(s.ref)),
  );
  const target = await resolveTarget(deps, repository, input.ref ?? split.ref, states);
  const path = normalizeRepoPath(split.path, what === 'file' ? 'path' : what);
  return {
    repository,
    target,
    path,
    ...(location.startLine !== undefined ? { startLine: location.startLine } : {}),
    ...(location.endLine !== undefined ? { endLine: location.endLine } : {}),
  };
}
