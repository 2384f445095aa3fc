export { GitHubSource } from './github-source';
export { GitHubClients, type GitHubClientOptions, type GitHubAuth } from './client';
export { toPortError, waitFromHeaders } from './errors';
export type { AppInstallation } from './installations';
export { GitHubUserAccessClient, GitHubUserTokenRefused } from './user-access';
