// Express route patterns of the API; request counters are keyed "<METHOD> <pattern>".
export const ROUTES = {
  rateLimit: '/rate_limit',
  repo: '/repos/:owner/:repo',
  repoById: '/repositories/:id',
  branches: '/repos/:owner/:repo/branches',
  branch: '/repos/:owner/:repo/branches/*branch',
  commits: '/repos/:owner/:repo/commits',
  commit: '/repos/:owner/:repo/commits/*ref',
  compare: '/repos/:owner/:repo/compare/*basehead',
  pulls: '/repos/:owner/:repo/pulls',
  pull: '/repos/:owner/:repo/pulls/:number',
  gitRef: '/repos/:owner/:repo/git/ref/*ref',
  matchingRefs: '/repos/:owner/:repo/git/matching-refs/*ref',
  gitCommit: '/repos/:owner/:repo/git/commits/:sha',
  tree: '/repos/:owner/:repo/git/trees/*tree_sha',
  blob: '/repos/:owner/:repo/git/blobs/:sha',
  tarball: '/repos/:owner/:repo/tarball{/*ref}',
  zipball: '/repos/:owner/:repo/zipball{/*ref}',
  codeload: '/_codeload/:owner/:repo/:format/:sha',
  userRepos: '/users/:owner/repos',
  authenticatedUserRepos: '/user/repos',
  orgRepos: '/orgs/:owner/repos',
  repoInstallation: '/repos/:owner/:repo/installation',
  appInstallations: '/app/installations',
  orgInstallation: '/orgs/:owner/installation',
  userInstallation: '/users/:owner/installation',
  accessTokens: '/app/installations/:installation_id/access_tokens',
  installationRepos: '/installation/repositories',
  graphql: '/graphql',
} as const;

export type RouteName = keyof typeof ROUTES;

/** Counter key for a route, e.g. routeKey('blob') === 'GET /repos/:owner/:repo/git/blobs/:sha'. */
export function routeKey(name: RouteName, method = 'GET'): string {
  return `${method} ${ROUTES[name]}`;
}
