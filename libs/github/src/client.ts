import { PortError } from '@gitdex/ports';
import { Octokit } from '@octokit/rest';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { createAppAuth } from '@octokit/auth-app';
import { InstallationResolver } from './installations';
import { assertRequestNames } from './name-guard';

export interface GitHubAuth {
  token?: string;
  app?: { appId: number; privateKey: string };
}

export interface GitHubClientOptions extends GitHubAuth {
  /** REST API root: https://api.github.com, https://HOST/api/v3 for GitHub Enterprise Server, or the stand-in. */
  baseUrl: string;
  /** Waits GitHub asks for up to this long are taken inside the client; longer ones go back to the indexer's retry. */
  maxInlineWaitSeconds?: number;
  userAgent?: string;
  /** Reports GitHub's rate-limit headroom after every answer (for metrics and alerts). */
  onRateLimit?: (remaining: number, resource: string) => void;
}

const GitdexOctokit = Octokit.plugin(retry, throttling);

/**
 * The throttling plugin queues every GraphQL request as a write, one a second for the whole
 * process (GitHub's advice for mutations). gitdex sends no writes and its GraphQL queries are
 * reads: spacing them would cap the indexer at one push a second. Rate limits still apply.
 */
const UNSPACED = { key: () => ({ schedule: <T>(_options: unknown, task: () => Promise<T>) => task() }) };
export type GitHubClient = InstanceType<typeof GitdexOctokit>;

/**
 * One octokit per installation (or one for a token), each honouring primary and
 * secondary rate limits and retrying 5xx a few times on its own.
 */
export class GitHubClients {
  private readonly clients = new Map<number, GitHubClient>();
  private appClient: GitHubClient | null = null;
  /** Which installation reads a repository, for calls that did not say (only with a GitHub App). */
  readonly installations: InstallationResolver | null;

  constructor(private readonly options: GitHubClientOptions) {
    if (!options.baseUrl) throw new PortError('INVALID', 'GitHubClientOptions.baseUrl is required');
    this.installations = options.app ? new InstallationResolver(() => this.forApp()) : null;
  }

  /** The App itself (a JWT): only for /app and …/installation routes, which auth-app signs. */
  forApp(): GitHubClient {
    if (!this.options.app) throw new PortError('INVALID', 'GitHub App credentials (GITHUB_APP_ID, GITHUB_APP_PRIVATE_KEY) are needed to list installations');
    this.appClient ??= this.create(undefined, true);
    return this.appClient;
  }

  forInstallation(installationId?: number): GitHubClient {
    const key = this.options.app && installationId ? installationId : 0;
    let client = this.clients.get(key);
    if (!client) {
      client = this.create(key || undefined);
      this.clients.set(key, client);
    }
    return client;
  }

  /** A token for plain HTTP calls (the tarball stream); installation tokens are cached and refreshed by auth-app. */
  async token(installationId?: number): Promise<string | undefined> {
    const client = this.forInstallation(installationId);
    const auth = (await client.auth({ type: this.options.app && installationId ? 'installation' : 'token' })) as { token?: string };
    return auth.token;
  }

  private create(installationId: number | undefined, asApp = false): GitHubClient {
    const maxWait = this.options.maxInlineWaitSeconds ?? 5;
    const onLimit = (retryAfter: number, _options: unknown, _octokit: unknown, retryCount: number) => retryCount < 2 && retryAfter <= maxWait;
    const auth =
      this.options.app && (installationId || asApp)
        ? { authStrategy: createAppAuth, auth: { appId: this.options.app.appId, privateKey: this.options.app.privateKey, ...(installationId ? { installationId } : {}) } }
        : this.options.token
          ? { auth: this.options.token }
          : {};
    const client = new GitdexOctokit({
      baseUrl: this.options.baseUrl.replace(/\/$/, ''),
      userAgent: this.options.userAgent ?? 'gitdex-indexer',
      ...auth,
      log: { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined },
      // A couple of quick retries for a flaky 5xx; longer waits belong to the indexer's own backoff.
      retry: { retries: 2, retryAfterBaseValue: 200, doNotRetry: [400, 401, 403, 404, 409, 410, 422, 429] },
      throttle: { onRateLimit: onLimit, onSecondaryRateLimit: onLimit, write: UNSPACED as never },
      request: { timeout: 30_000 },
    });
    client.hook.before('request', (request) => assertRequestNames(request as unknown as Record<string, unknown>));
    const report = this.options.onRateLimit;
    if (report) {
      client.hook.after('request', (response) => {
        const remaining = Number(response.headers['x-ratelimit-remaining']);
        if (Number.isFinite(remaining)) report(remaining, String(response.headers['x-ratelimit-resource'] ?? 'core'));
      });
    }
    return client;
  }
}
