import { Octokit } from '@octokit/rest';
import { PortError } from '@gitdex/ports';
import { toPortError } from './errors';

/** Thrown when GitHub answers 401 to a person's token: their authorization was revoked or has expired. */
export class GitHubUserTokenRefused extends PortError {
  /** What the permission mirror looks for: the authorization ended, not an outage. */
  readonly tokenRefused = true;
  constructor() {
    super('INVALID', 'GitHub refused the user token (401): the authorization was revoked or expired; the person must sign in again', { retriable: false });
    this.name = 'GitHubUserTokenRefused';
  }
}

/** GitHub lists at most 100 repositories a page; a person in a large organisation can read thousands. */
const PER_PAGE = 100;

/**
 * What GitHub says about a person, asked with their own user token: who they are
 * (GET /user) and every repository they can read (GET /user/repos, all pages: owned,
 * collaborator and organisation-member repositories, private and public), one request per
 * hundred repositories. With a GitHub App's user token GitHub itself limits the list to
 * repositories the App is installed on.
 */
export class GitHubUserAccessClient {
  constructor(private readonly options: { baseUrl: string; userAgent?: string }) {
    if (!options.baseUrl) throw new PortError('INVALID', 'GitHubUserAccessClient: baseUrl is required');
  }

  async whoAmI(userToken: string): Promise<{ userId: number; login: string }> {
    const { data } = await this.call('GET /user', () => this.client(userToken).request('GET /user'));
    return { userId: Number(data.id), login: data.login };
  }

  async readableRepositoryIds(userToken: string): Promise<number[]> {
    const repos = await this.call('GET /user/repos', () => this.client(userToken).paginate('GET /user/repos', { per_page: PER_PAGE }));
    return repos.map((repo) => repo.id);
  }

  private client(token: string): Octokit {
    return new Octokit({ auth: token, baseUrl: this.options.baseUrl, userAgent: this.options.userAgent ?? 'gitdex', request: { retries: 0 } });
  }

  private async call<T>(route: string, body: () => Promise<T>): Promise<T> {
    try {
      return await body();
    } catch (error) {
      if ((error as { status?: number }).status === 401) throw new GitHubUserTokenRefused();
      throw toPortError(error, route);
    }
  }
}
