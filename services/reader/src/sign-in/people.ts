/** Who signed in, as GitHub knows them. */
export interface SignedInPerson {
  /** GitHub's numeric user id: stable across renames, unlike the login. */
  userId: number;
  login: string;
}

/**
 * What sign-in needs of the permission mirror: who a GitHub token belongs to (their readable
 * repositories resolved and stored as it learns it), and what a person may read now.
 */
export interface SignInPeople {
  /** Called once GitHub gave a person's token, before any gitdex token is issued. */
  signedIn(githubToken: string): Promise<SignedInPerson>;
  /** Ids of the private repositories the person may read now; null when the mirror no longer knows them (their tokens stop working). */
  readable(userId: number): Promise<ReadonlySet<number> | null>;
}
