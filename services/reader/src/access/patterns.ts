import type { RepositoryDocument } from '@gitdex/contracts';
import type { Principal } from '../principal';

/**
 * Whether a repository pattern names a repository: "*" (every one), "owner/*" (every one of
 * an owner) or "owner/name"; case-insensitive, as GitHub names are.
 */
export function patternMatches(pattern: string, fullName: string): boolean {
  const p = pattern.trim().toLowerCase();
  const name = fullName.toLowerCase();
  if (p === '*') return true;
  const slash = p.indexOf('/');
  if (slash <= 0) return false;
  if (p.slice(slash + 1) === '*') return name.startsWith(p.slice(0, slash + 1)) && name.indexOf('/', slash + 1) < 0 && name.length > slash + 1;
  return p === name;
}

/** The patterns of private repositories a principal may read (`principal.repositories`); none for anonymous callers. */
export function readablePatterns(principal: Principal | null): string[] {
  const patterns = principal?.repositories;
  return Array.isArray(patterns) ? patterns.filter((p): p is string => typeof p === 'string') : [];
}

/**
 * The access hook for scoped tokens: public repositories for everyone, private ones for the
 * principals whose patterns name them. The same rule as the default `publicOnly` for a
 * principal without patterns, so a token never reads less than an anonymous caller.
 */
export function scopedAccess(repository: RepositoryDocument, principal: Principal | null): boolean {
  if (!repository.private) return true;
  return readablePatterns(principal).some((pattern) => patternMatches(pattern, repository.fullName));
}
