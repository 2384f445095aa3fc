import type { PermissionMirror } from '../people';

/**
 * What sign-in needs of the permission mirror: who a GitHub token belongs to (their readable
 * repositories resolved and stored as it learns it), and a person's Principal for a request
 * (null once the mirror no longer knows them: revoked, so their tokens stop working).
 */
export type SignInPeople = Pick<PermissionMirror, 'resolveOnSignIn' | 'principalFor'>;
