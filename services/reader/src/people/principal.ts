import type { Principal } from '../principal';

/** A signed-in person as the access hook sees them: a Principal with the mirror's readable set. */
export interface PersonPrincipal extends Principal {
  /** `github:<login>`: tells people from static tokens in audit lines. */
  id: string;
  githubUserId: number;
  login: string;
  readableRepositoryIds: ReadonlySet<number>;
}

export function personPrincipal(userId: number, login: string, readable: ReadonlySet<number>): PersonPrincipal {
  return { id: `github:${login}`, githubUserId: userId, login, readableRepositoryIds: readable };
}

export function isPersonPrincipal(principal: Principal | null): principal is PersonPrincipal {
  return principal !== null && typeof principal.githubUserId === 'number' && principal.readableRepositoryIds instanceof Set;
}
