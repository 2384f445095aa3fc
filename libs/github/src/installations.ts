import type { Octokit } from '@octokit/rest';

/** One installation of the App, as `gitdex backfill` and `status` name it. */
export interface AppInstallation {
  id: number;
  account: string;
  /** 'all' or 'selected' repositories. */
  repositorySelection: string;
}

interface RawInstallation {
  id: number;
  account?: { login?: string } | null;
  repository_selection?: string;
}

function toInstallation(raw: RawInstallation): AppInstallation {
  return { id: raw.id, account: raw.account?.login ?? String(raw.id), repositorySelection: raw.repository_selection ?? 'all' };
}

/** An installation is found again only after this long: a re-installed App gets a new id. */
const REMEMBER_MS = 10 * 60 * 1000;

/**
 * Which installation of the App can read a repository, asked with the App's JWT where an
 * event did not say (the CLI, the reader's lookups, events queued without one). Answers are
 * remembered for a while, so a backfill of 300 repositories asks once per repository, not
 * once per request; installation tokens themselves are cached by auth-app until shortly
 * before they expire.
 */
export class InstallationResolver {
  private readonly byName = new Map<string, { id: number | null; at: number }>();
  private readonly byId = new Map<number, number>();
  private listed: { installations: AppInstallation[]; at: number } | null = null;

  constructor(
    private readonly app: () => Octokit,
    private readonly now: () => number = Date.now,
  ) {}

  /** GET /repos/{owner}/{repo}/installation; null when the App is not installed where it can see the repository. */
  async forRepository(owner: string, repo: string): Promise<number | null> {
    const key = `${owner}/${repo}`.toLowerCase();
    const known = this.byName.get(key);
    if (known && this.now() - known.at < REMEMBER_MS) return known.id;
    let id: number | null;
    try {
      const { data } = await this.app().request('GET /repos/{owner}/{repo}/installation', { owner, repo });
      id = (data as RawInstallation).id;
    } catch (error) {
      if ((error as { status?: number }).status !== 404) throw error;
      id = null;
    }
    this.byName.set(key, { id, at: this.now() });
    return id;
  }

  /** GET /orgs/{org}/installation (GitHub answers for a user account at /users/{username}/installation). */
  async forAccount(account: string): Promise<AppInstallation | null> {
    const asks = [() => this.app().request('GET /orgs/{org}/installation', { org: account }), () => this.app().request('GET /users/{username}/installation', { username: account })];
    for (const ask of asks) {
      try {
        const { data } = await ask();
        return toInstallation(data as RawInstallation);
      } catch (error) {
        if ((error as { status?: number }).status !== 404) throw error;
      }
    }
    return null;
  }

  /** GET /app/installations, every page. */
  async list(): Promise<AppInstallation[]> {
    if (this.listed && this.now() - this.listed.at < REMEMBER_MS) return this.listed.installations;
    const client = this.app();
    const raw = (await client.paginate('GET /app/installations', { per_page: 100 })) as RawInstallation[];
    const installations = raw.map(toInstallation);
    this.listed = { installations, at: this.now() };
    return installations;
  }

  /** What a repository read found, so its later reads go to the same installation without asking. */
  remember(repositoryId: number, installationId: number): void {
    this.byId.set(repositoryId, installationId);
  }

  known(repositoryId: number): number | undefined {
    return this.byId.get(repositoryId);
  }
}
