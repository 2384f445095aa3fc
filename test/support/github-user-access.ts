// GitHubUserAccess over fetch, for the sign-in tests until the permission mirror's own GitHub
// adapter is merged: GET /user and every page of GET /user/repos with the person's token.
import { GitHubTokenRefused, type GitHubUserAccess } from '@gitdex/reader';

export function gitHubUserAccess(apiUrl: string): GitHubUserAccess {
  const get = async (path: string, token: string) => {
    const response = await fetch(`${apiUrl}${path}`, { headers: { authorization: `Bearer ${token}`, accept: 'application/vnd.github+json' } });
    if (response.status === 401) throw new GitHubTokenRefused();
    if (!response.ok) throw new Error(`GET ${path}: ${response.status}`);
    return response.json() as Promise<unknown>;
  };
  return {
    async whoAmI(token) {
      const user = (await get('/user', token)) as { id: number; login: string };
      return { userId: user.id, login: user.login };
    },
    async readableRepositoryIds(token) {
      const ids: number[] = [];
      for (let page = 1; ; page += 1) {
        const repos = (await get(`/user/repos?per_page=100&page=${page}`, token)) as { id: number }[];
        ids.push(...repos.map((repo) => repo.id));
        if (repos.length < 100) return ids;
      }
    },
  };
}
