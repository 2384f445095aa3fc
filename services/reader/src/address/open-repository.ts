import type { FileDocument, RefState, RepositoryDocument } from '@gitdex/contracts';
import { visibleVersion, type FileSymbols, type OutlineVersion, type VersionsLookup } from '@gitdex/ports';
import type { Principal, ReaderDeps } from '../deps';
import { findRepository, resolveTarget, type Target } from '../target';
import { hintKey } from './read-hints';
import { parseRepositoryName } from './repository-name';

/** Versions of one file asked with a cold read's first lookups; a few cover a ref's newest and the one being indexed. */
const VERSIONS_AHEAD = 3;

/** A repository a caller may read, with what was looked up with it. */
export interface OpenedRepository {
  repository: RepositoryDocument;
  /** Its ref states, when they were fetched with it (else resolveTarget asks). */
  states?: RefState[];
  /** Versions of the file asked for, when they were fetched with it. */
  versions?: { asked: VersionsLookup; found: FileDocument[] };
  /** Versions of the file asked for with their outlines, when they were fetched with it. */
  outlines?: { asked: VersionsLookup; found: OutlineVersion[] };
}

/** A file a read fetches with its lookups: its content (read_file) or its outline (file_outline). */
export interface FileAhead {
  ref: string | undefined;
  path: string;
  with: 'content' | 'outline';
}

/**
 * findRepository, in one round trip with the repository's ref states (and the newest
 * versions of `file`, if given) when the name was read before: the repository it stood
 * for then is a guess, checked against the repository the index answers now. Every answer
 * is as fresh as the lookups made one by one; a wrong guess costs the usual lookups.
 */
export async function openRepository(deps: ReaderDeps, principal: Principal | null, input: string, file?: FileAhead): Promise<OpenedRepository> {
  const name = parseRepositoryName(input, deps.githubWebUrl);
  const key = hintKey(principal, name);
  const guess = deps.readHints.repositoryOf(key);
  if (guess) {
    const ref = file ? deps.readHints.refOf(key, file.ref) : undefined;
    const asked = file && ref !== undefined ? { ref, path: file.path, since: deps.readHints.generationOf(guess.repositoryId, ref), limit: VERSIONS_AHEAD } : undefined;
    const ahead = asked ? (file?.with === 'outline' ? { outlines: asked } : { versions: asked }) : {};
    const answer = await deps.index.lookupForRead({ fullName: name, repositoryId: guess.repositoryId, ...ahead });
    const repository = answer.repository;
    if (repository?.repositoryId === guess.repositoryId && deps.access(repository, principal)) {
      deps.readHints.learnRepository(key, repository);
      return {
        repository,
        states: answer.refStates,
        ...(asked && answer.versions ? { versions: { asked, found: answer.versions } } : {}),
        ...(asked && answer.outlines ? { outlines: { asked, found: answer.outlines } } : {}),
      };
    }
    // The name went or moved, or this caller may no longer read it: findRepository says which (the answer is reused).
    deps.readHints.forgetRepository(key);
  }
  const repository = await findRepository(deps, principal, input);
  deps.readHints.learnRepository(key, repository);
  return { repository };
}

/**
 * resolveTarget on what was opened, and the file asked for (its document, or its outline as
 * fileSymbols answers it) when its fetched versions decide it (undefined: ask getFile or fileSymbols).
 */
export async function openTarget(
  deps: ReaderDeps,
  opened: OpenedRepository,
  refInput: string | undefined,
  known?: RefState[],
): Promise<{ target: Target; file: FileDocument | null | undefined; outline: FileSymbols | null | undefined }> {
  const target = await resolveTarget(deps, opened.repository, refInput, known ?? opened.states);
  deps.readHints.learnRead(refInput, target.snapshot);
  const file = pickVersion(target, opened.versions);
  const version = pickVersion(target, opened.outlines);
  if (!version) return { target, file, outline: version };
  // fileSymbols answers files only: a symlink or submodule there is no file to outline.
  const { kind, fromGeneration: _from, retiredAtGeneration: _retired, ...outline } = version;
  return { target, file, outline: kind === 'file' ? outline : null };
}

/** The version of the path visible in the target, when the fetched versions decide it. */
function pickVersion<T extends FileDocument | OutlineVersion>(target: Target, versions: { asked: VersionsLookup; found: T[] } | undefined): T | null | undefined {
  const picked = versions && versions.asked.ref === target.snapshot.ref ? visibleVersion(versions.found, target.snapshot.generation, versions.asked) : undefined;
  // A layered ref's own versions hold only what it changed: a path it lacks is its underlay's to answer.
  return picked === null && target.snapshot.underlay ? undefined : picked;
}
