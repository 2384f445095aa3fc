import type { RepositoryDocument } from '@gitdex/contracts';
import { scopedAccess } from '../access';
import type { Principal } from '../principal';
import { isPersonPrincipal } from './principal';

/**
 * The access hook for people and machines at once: public repositories for everyone; a
 * private one for a signed-in person whose mirrored set holds its id, and for a static token
 * whose patterns name it (scopedAccess). Synchronous, as the reader's hook is: the set was
 * read from the mirror when the request was authenticated.
 */
export function personAccess(repository: RepositoryDocument, principal: Principal | null): boolean {
  if (!repository.private) return true;
  if (isPersonPrincipal(principal)) return principal.readableRepositoryIds.has(repository.repositoryId);
  return scopedAccess(repository, principal);
}
