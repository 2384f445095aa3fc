export { PermissionMirror, type PermissionMirrorOptions, type SignedInPerson, type RevocationListener } from './mirror';
export { type GitHubUserAccess, type GitHubPerson, type GitHubTokenSource, GitHubTokenRefused, isTokenRefused } from './github-user';
export { type PersonPrincipal, personPrincipal, isPersonPrincipal } from './principal';
export { personAccess } from './access';
export { startPermissionRefresh, type RefreshLoopOptions } from './refresh-loop';
export { MemoryPermissionStore } from './memory-store';
