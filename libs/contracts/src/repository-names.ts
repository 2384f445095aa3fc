import { z } from 'zod';

/**
 * GitHub's rules for the two parts of owner/name, checked wherever a name comes in (a tool
 * argument, a URL, a published site, an event, the CLI) and again before a request path is
 * built from it. A name GitHub never allows cannot name a repository, and "." or ".." would
 * turn `/repos/{owner}/{name}` into another endpoint once the client normalises the path.
 */
export const MAX_OWNER_CHARS = 39;
export const MAX_REPOSITORY_CHARS = 100;

/** Letters, digits and hyphens, not first and never two in a row (GitHub's rule for user and organisation names). */
const OWNER = /^[A-Za-z0-9](?:-?[A-Za-z0-9])*-?$/;
const REPOSITORY = /^[A-Za-z0-9._-]+$/;

/** Why `owner` is no GitHub owner, or null when it may be one. */
export function ownerProblem(owner: string): string | null {
  if (owner.length === 0) return 'the owner is empty';
  if (owner.length > MAX_OWNER_CHARS) return `the owner has ${owner.length} characters; GitHub allows at most ${MAX_OWNER_CHARS}`;
  if (!OWNER.test(owner)) return 'an owner has only letters, digits and single hyphens, and does not start with a hyphen';
  return null;
}

/** Why `name` is no GitHub repository name, or null when it may be one. */
export function repositoryPartProblem(name: string): string | null {
  if (name.length === 0) return 'the repository name is empty';
  if (name.length > MAX_REPOSITORY_CHARS) return `the repository name has ${name.length} characters; GitHub allows at most ${MAX_REPOSITORY_CHARS}`;
  if (name === '.' || name === '..') return `"${name}" is not a repository name`;
  if (!REPOSITORY.test(name)) return 'a repository name has only letters, digits, ".", "_" and "-"';
  return null;
}

/** Why `fullName` is not owner/name as GitHub allows it, or null when it is. */
export function repositoryNameProblem(fullName: string): string | null {
  const slash = fullName.indexOf('/');
  if (slash < 0 || fullName.indexOf('/', slash + 1) >= 0) return 'owner/name has exactly one "/"';
  return ownerProblem(fullName.slice(0, slash)) ?? repositoryPartProblem(fullName.slice(slash + 1));
}

export function isRepositoryName(fullName: string): boolean {
  return repositoryNameProblem(fullName) === null;
}

/** owner/name as GitHub allows it; the message says what is wrong. */
export const RepositoryNameSchema = z.string().superRefine((value, context) => {
  const problem = repositoryNameProblem(value);
  if (problem !== null) context.addIssue({ code: 'custom', message: `owner/name: ${problem}` });
});
