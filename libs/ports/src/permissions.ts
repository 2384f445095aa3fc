/** What the permission mirror knows of one signed-in GitHub person. */
export interface PersonPermissions {
  /** GitHub's numeric user id: stable across renames, unlike the login. */
  userId: number;
  login: string;
  /** Ids of the repositories GitHub says this person can read (at least read), indexed or not. */
  repositoryIds: number[];
  /** ISO time the set was last resolved from GitHub (a webhook's grant or withdrawal does not move it). */
  refreshedAt: string;
}

/**
 * The permission mirror's state, shared by every reader replica (SQLite embedded,
 * Elasticsearch in the cluster). Grants and withdrawals are atomic per person, so a
 * webhook's change and a refresh never lose each other's write half-way.
 */
export interface PermissionStore {
  getPerson(userId: number): Promise<PersonPermissions | null>;
  /** Replaces the person's whole set (sign-in and refresh). */
  putPerson(person: PersonPermissions): Promise<void>;
  /** Adds one repository to a known person; false (and nothing written) for a person the mirror does not know. */
  grant(userId: number, repositoryId: number): Promise<boolean>;
  /** Drops one repository from a person; false when the person or the grant was not there. */
  withdraw(userId: number, repositoryId: number): Promise<boolean>;
  /** The people whose set holds the repository, at most `limit`. */
  holders(repositoryId: number, limit: number): Promise<number[]>;
  /** People refreshed before `before` (ISO), oldest first, at most `limit`. */
  dueForRefresh(before: string, limit: number): Promise<number[]>;
  /** Everyone the mirror knows, by login, at most `limit` (for the operator's view). */
  listPeople(limit: number): Promise<PersonPermissions[]>;
  /** Forgets the person; false when unknown. */
  removePerson(userId: number): Promise<boolean>;
}
