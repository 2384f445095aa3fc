import type { FileDocument, RepositoryDocument } from '@gitdex/contracts';
import type { FileSymbols } from '@gitdex/ports';
import type { Principal, ReaderDeps } from '../deps';
import { shortRef } from '../freshness';
import type { Target } from '../target';
import { invalid } from '../tool-error';
import { looksLikeUrl, parseGithubUrl, splitRefAndPath } from './github-url';
import { openRepository, openTarget, type FileAhead } from './open-repository';
import { normalizeRepoPath } from './repo-path';
import { refOfRepositoryUrl } from './repository-name';

/** What a tool reads: the repository's readable ref, a path in it, and lines a URL named. */
export interface Located {
  repository: RepositoryDocument;
  target: Target;
  path: string;
  startLine?: number;
  endLine?: number;
  /** The file at `path`, when it was fetched with the lookups (null: there is none); absent: ask getFile. */
  file?: FileDocument | null;
  /** Its outline, as fileSymbols answers it, when fetched with the lookups instead (null: no file); absent: ask fileSymbols. */
  outline?: FileSymbols | null;
}

/**
 * Resolves repository, ref and path as a caller gave them; `path` may be a GitHub URL
 * (blob for files, tree for folders), which then also gives the ref and lines, unless
 * `ref` is passed too: arguments given explicitly win. A file's content (or, with `ahead`
 * 'outline', its outline) is fetched with the lookups when they can take it.
 */
export async function locate(
  deps: ReaderDeps,
  principal: Principal | null,
  input: { repository: string; path: string | undefined; ref: string | undefined },
  what: 'file' | 'folder' | 'query',
  ahead: FileAhead['with'] | null = what === 'file' ? 'content' : null,
): Promise<Located> {
  const raw = input.path ?? '';
  // A pull request's URL given as the repository reads that pull request, unless ref says otherwise.
  const ref = input.ref ?? refOfRepositoryUrl(input.repository, deps.githubWebUrl);
  const isUrl = looksLikeUrl(raw.trim(), deps.githubWebUrl);
  // Plain paths are checked before any lookup: a bad argument costs no round trip.
  const plainPath = isUrl ? '' : normalizeRepoPath(raw, what === 'file' ? 'path' : what);
  const opened = await openRepository(deps, principal, input.repository, !isUrl && ahead !== null && plainPath !== '' ? { ref, path: plainPath, with: ahead } : undefined);
  const repository = opened.repository;
  if (!isUrl) {
    const { target, file, outline } = await openTarget(deps, opened, ref);
    return { repository, target, path: plainPath, ...(file !== undefined ? { file } : {}), ...(outline !== undefined ? { outline } : {}) };
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
  const states = opened.states ?? (await deps.index.listRefStates(repository.repositoryId));
  // Full refs too: GitHub serves a pull request's head at blob/refs/pull/N/head/<path>.
  const split =
    location.ref !== undefined
      ? { ref: location.ref, path: location.rest.join('/') }
      : splitRefAndPath(
          location.rest,
          states.flatMap((s) => [shortRef(s.ref), s.ref]),
        );
  const { target } = await openTarget(deps, opened, input.ref ?? split.ref ?? ref, states);
  const path = normalizeRepoPath(split.path, what === 'file' ? 'path' : what);
  return {
    repository,
    target,
    path,
    ...(location.startLine !== undefined ? { startLine: location.startLine } : {}),
    ...(location.endLine !== undefined ? { endLine: location.endLine } : {}),
  };
}
