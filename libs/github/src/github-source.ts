import { Readable } from 'node:stream';
import type { PullRequestInfo } from '@gitdex/contracts';
import { PortError, type BatchReads, type HistorySource, type Source, type SourceCommit, type SourceRepository, type SourceTree, type TreeEntry } from '@gitdex/ports';
import { GitHubBatchReads } from './batch-reads';
import { GitHubHistoryReads } from './history-reads';
import { GitHubClients, type GitHubClientOptions } from './client';
import { ConditionalHeads } from './conditional-heads';
import { toPortError } from './errors';
import type { AppInstallation } from './installations';
import { assertRepositoryName, assertRequestNames } from './name-guard';
import { streamGet, type StreamGetResponse } from './stream-get';

interface ListedRepository {
  id: number;
  full_name: string;
  default_branch: string;
  private: boolean;
  archived?: boolean;
  html_url: string;
}

function toSourceRepository(repo: ListedRepository): SourceRepository {
  return { id: repo.id, fullName: repo.full_name, defaultBranch: repo.default_branch, private: repo.private, archived: repo.archived ?? false, htmlUrl: repo.html_url };
}

interface ListedPull {
  number: number;
  title: string;
  state: string;
  merged?: boolean | null;
  draft?: boolean;
  user: { login: string } | null;
  base: { ref: string };
  head: { sha: string };
  updated_at: string;
  closed_at: string | null;
}

function toPullRequestInfo(pull: ListedPull): PullRequestInfo {
  return {
    number: pull.number,
    title: pull.title.slice(0, 1024),
    state: pull.state === 'closed' ? 'closed' : 'open',
    merged: pull.merged ?? false,
    draft: pull.draft ?? false,
    author: pull.user?.login ?? null,
    baseRef: pull.base.ref,
    headSha: pull.head.sha,
    updatedAt: new Date(pull.updated_at).toISOString(),
    closedAt: pull.closed_at === null ? null : new Date(pull.closed_at).toISOString(),
  };
}

function split(repository: SourceRepository): { owner: string; repo: string } {
  return assertRepositoryName(repository.fullName);
}

/** The source port over GitHub's REST API; it translates, the indexer decides. */
export class GitHubSource implements Source {
  private readonly clients: GitHubClients;
  /** ETags of branch heads: the reconciler's re-reads are conditional. */
  readonly conditionalHeads = new ConditionalHeads();

  /** Only with a GitHub App: an installation's whole repository list. */
  readonly installationRepositories?: (installationId: number) => Promise<SourceRepository[]>;

  /** Compare and GraphQL reads; GitHub answers GraphQL only to a token or an app, so none without. */
  readonly batchReads?: BatchReads;

  /** Commit logs (GraphQL), commit files (REST) and blobs by id (GraphQL): GraphQL needs credentials, as above. */
  readonly history?: HistorySource;

  constructor(private readonly options: GitHubClientOptions) {
    this.clients = new GitHubClients(options);
    if (options.app) this.installationRepositories = async (installationId) => (await this.listRepositories({ installationId })) ?? [];
    if (options.token || options.app) this.batchReads = new GitHubBatchReads(this.clients, (repository, given) => this.installationOf(repository, given));
    if (options.token || options.app)
      this.history = new GitHubHistoryReads(
        this.clients,
        (repository, sha, installationId) => this.blob(repository, sha, installationId),
        (repository, given) => this.installationOf(repository, given),
      );
  }

  /**
   * The installation whose token reads a repository: the one the caller gave, else (with a
   * GitHub App) the one found before or asked for with the App's JWT. Without an App there is
   * no installation and the personal token (or nothing) is used.
   */
  private async installationOf(repository: { id?: number; fullName: string }, given: number | undefined): Promise<number | undefined> {
    const resolver = this.clients.installations;
    if (given || !resolver) return given;
    const known = repository.id === undefined ? undefined : resolver.known(repository.id);
    if (known) return known;
    const { owner, repo } = assertRepositoryName(repository.fullName);
    try {
      const found = await resolver.forRepository(owner, repo);
      if (found && repository.id !== undefined) resolver.remember(repository.id, found);
      return found ?? undefined;
    } catch (error) {
      throw toPortError(error, `installation of ${repository.fullName}`);
    }
  }

  async repository(repositoryId: number, installationId?: number): Promise<SourceRepository | null> {
    const resolver = this.clients.installations;
    const given = installationId ?? resolver?.known(repositoryId);
    if (given || !resolver) return this.repositoryWith(repositoryId, given);
    // By id GitHub has no installation lookup: each installation of the App is asked in turn
    // (one request with a single installation), and the one that answers is remembered.
    let installations: AppInstallation[];
    try {
      installations = await resolver.list();
    } catch (error) {
      throw toPortError(error, `installations of the App (for repository ${repositoryId})`);
    }
    for (const installation of installations) {
      const found = await this.repositoryWith(repositoryId, installation.id);
      if (found) {
        resolver.remember(repositoryId, installation.id);
        return found;
      }
    }
    return null;
  }

  private async repositoryWith(repositoryId: number, installationId: number | undefined): Promise<SourceRepository | null> {
    try {
      const response = await this.clients.forInstallation(installationId).request('GET /repositories/{repository_id}', { repository_id: repositoryId });
      const repo = response.data as { id: number; full_name: string; default_branch: string; private: boolean; archived?: boolean; html_url: string };
      return { id: repo.id, fullName: repo.full_name, defaultBranch: repo.default_branch, private: repo.private, archived: repo.archived ?? false, htmlUrl: repo.html_url };
    } catch (error) {
      const mapped = toPortError(error, `repository ${repositoryId}`);
      if (mapped.code === 'NOT_FOUND') return null;
      throw mapped;
    }
  }

  async repositoryByName(fullName: string, installationId?: number): Promise<SourceRepository | null> {
    const { owner, repo } = assertRepositoryName(fullName);
    const installation = await this.installationOf({ fullName }, installationId);
    // With only an App, what no installation can see does not exist for gitdex: it indexes what
    // the App was granted (an unauthenticated read would find public repositories elsewhere, at 60 an hour).
    if (this.clients.installations && !installation && !this.options.token) return null;
    try {
      const { data } = await this.clients.forInstallation(installation).rest.repos.get({ owner, repo });
      if (installation) this.clients.installations?.remember(data.id, installation);
      return { id: data.id, fullName: data.full_name, defaultBranch: data.default_branch, private: data.private, archived: data.archived, htmlUrl: data.html_url };
    } catch (error) {
      const mapped = toPortError(error, `repository ${fullName}`);
      if (mapped.code === 'NOT_FOUND') return null;
      throw mapped;
    }
  }

  notModifiedAnswers(): number {
    return this.conditionalHeads.notModified;
  }

  /** The App's installations (GET /app/installations); null without App credentials. */
  async appInstallations(): Promise<AppInstallation[] | null> {
    const resolver = this.clients.installations;
    if (!resolver) return null;
    try {
      return await resolver.list();
    } catch (error) {
      throw toPortError(error, 'installations of the App');
    }
  }

  /** The App's installation on an organisation or user account; null when it is not installed there. */
  async accountInstallation(account: string): Promise<AppInstallation | null> {
    const resolver = this.clients.installations;
    if (!resolver) throw new PortError('INVALID', 'finding an installation by account needs GitHub App credentials (GITHUB_APP_ID, GITHUB_APP_PRIVATE_KEY)');
    assertRequestNames({ owner: account });
    try {
      return await resolver.forAccount(account);
    } catch (error) {
      throw toPortError(error, `installation on ${account}`);
    }
  }

  /**
   * GET /installation/repositories with the installation's token, or GET /user/repos with a
   * personal token: 100 repositories a request, following GitHub's Link header.
   */
  async listRepositories(options: { installationId?: number; until?: ReadonlySet<number> }): Promise<SourceRepository[] | null> {
    const installation = this.options.app && options.installationId ? options.installationId : undefined;
    if (!installation && !this.options.token) return null;
    const client = this.clients.forInstallation(installation);
    const route = installation ? 'GET /installation/repositories' : 'GET /user/repos';
    const unseen = new Set(options.until);
    try {
      return await client.paginate(route, { per_page: 100 }, (response, done) => {
        const page = (response.data as ListedRepository[]).map(toSourceRepository);
        for (const repo of page) unseen.delete(repo.id);
        if (options.until && unseen.size === 0) done();
        return page;
      });
    } catch (error) {
      throw toPortError(error, installation ? `repositories of installation ${installation}` : 'repositories of the token');
    }
  }

  /** Conditional: asked with the ETag of the last answer, a 304 (free on GitHub's rate limit) gives that answer again. */
  async head(repository: SourceRepository, branch: string, installationId?: number): Promise<SourceCommit | null> {
    const etag = this.conditionalHeads.etag(repository.id, branch);
    try {
      const client = this.clients.forInstallation(await this.installationOf(repository, installationId));
      const { data, headers } = await client.rest.repos.getBranch({ ...split(repository), branch, ...(etag ? { headers: { 'if-none-match': etag } } : {}) });
      const commit = {
        sha: data.commit.sha,
        treeSha: data.commit.commit.tree.sha,
        committedAt: data.commit.commit.committer?.date ?? new Date(0).toISOString(),
        parentShas: data.commit.parents.map((parent) => parent.sha),
      };
      this.conditionalHeads.remember(repository.id, branch, headers.etag, commit);
      return commit;
    } catch (error) {
      if ((error as { status?: number }).status === 304) {
        const unchanged = this.conditionalHeads.unchanged(repository.id, branch);
        if (unchanged) return unchanged;
      }
      this.conditionalHeads.forget(repository.id, branch);
      const mapped = toPortError(error, `branch ${branch} of ${repository.fullName}`);
      if (mapped.code === 'NOT_FOUND') return null;
      throw mapped;
    }
  }

  async tags(repository: SourceRepository, installationId?: number): Promise<string[]> {
    try {
      const client = this.clients.forInstallation(await this.installationOf(repository, installationId));
      const refs = await client.paginate(client.rest.git.listMatchingRefs, { ...split(repository), ref: 'tags/', per_page: 100 });
      return refs.map((r) => r.ref.replace(/^refs\/tags\//, ''));
    } catch (error) {
      const mapped = toPortError(error, `tags of ${repository.fullName}`);
      if (mapped.code === 'NOT_FOUND') return [];
      throw mapped;
    }
  }

  /** GitHub's commit endpoint peels an annotated tag to its commit ("tags/<name>" names the tag, not a branch). */
  async tagHead(repository: SourceRepository, tag: string, installationId?: number): Promise<SourceCommit | null> {
    try {
      const { data } = await this.clients.forInstallation(await this.installationOf(repository, installationId)).rest.repos.getCommit({ ...split(repository), ref: `tags/${tag}` });
      return { sha: data.sha, treeSha: data.commit.tree.sha, committedAt: data.commit.committer?.date ?? new Date(0).toISOString(), parentShas: data.parents.map((parent) => parent.sha) };
    } catch (error) {
      const mapped = toPortError(error, `tag ${tag} of ${repository.fullName}`);
      if (mapped.code === 'NOT_FOUND' || (error as { status?: number }).status === 422) return null;
      throw mapped;
    }
  }

  /** A pull request's head is fetched from the base repository, where GitHub keeps refs/pull/N/head (fork heads too). */
  async commit(repository: SourceRepository, sha: string, installationId?: number): Promise<SourceCommit | null> {
    try {
      const { data } = await this.clients.forInstallation(installationId).rest.repos.getCommit({ ...split(repository), ref: sha });
      return { sha: data.sha, treeSha: data.commit.tree.sha, committedAt: data.commit.committer?.date ?? new Date(0).toISOString(), parentShas: data.parents.map((parent) => parent.sha) };
    } catch (error) {
      const mapped = toPortError(error, `commit ${sha} of ${repository.fullName}`);
      if (mapped.code === 'NOT_FOUND' || (error as { status?: number }).status === 422) return null;
      throw mapped;
    }
  }

  async openPulls(repository: SourceRepository, installationId?: number): Promise<PullRequestInfo[]> {
    try {
      const client = this.clients.forInstallation(installationId);
      const all = await client.paginate(client.rest.pulls.list, { ...split(repository), state: 'open', per_page: 100 });
      return all.map((pull) => toPullRequestInfo(pull as ListedPull));
    } catch (error) {
      throw toPortError(error, `open pull requests of ${repository.fullName}`);
    }
  }

  async pull(repository: SourceRepository, number: number, installationId?: number): Promise<PullRequestInfo | null> {
    try {
      const { data } = await this.clients.forInstallation(installationId).rest.pulls.get({ ...split(repository), pull_number: number });
      return toPullRequestInfo(data);
    } catch (error) {
      const mapped = toPortError(error, `pull request #${number} of ${repository.fullName}`);
      if (mapped.code === 'NOT_FOUND') return null;
      throw mapped;
    }
  }

  async branches(repository: SourceRepository, installationId?: number): Promise<string[]> {
    try {
      const client = this.clients.forInstallation(await this.installationOf(repository, installationId));
      const all = await client.paginate(client.rest.repos.listBranches, { ...split(repository), per_page: 100 });
      return all.map((b) => b.name);
    } catch (error) {
      throw toPortError(error, `branches of ${repository.fullName}`);
    }
  }

  async tree(repository: SourceRepository, treeSha: string, options: { recursive: boolean; installationId?: number }): Promise<SourceTree> {
    try {
      const { data } = await this.clients.forInstallation(await this.installationOf(repository, options.installationId)).rest.git.getTree({
        ...split(repository),
        tree_sha: treeSha,
        ...(options.recursive ? { recursive: '1' } : {}),
      });
      const entries: TreeEntry[] = data.tree.flatMap((e) =>
        e.path && e.sha && e.mode && (e.type === 'blob' || e.type === 'tree' || e.type === 'commit')
          ? [{ path: e.path, mode: e.mode, type: e.type, sha: e.sha, ...(typeof e.size === 'number' ? { size: e.size } : {}) }]
          : [],
      );
      return { sha: data.sha, entries, truncated: data.truncated };
    } catch (error) {
      throw toPortError(error, `tree ${treeSha} of ${repository.fullName}`);
    }
  }

  async blob(repository: SourceRepository, blobSha: string, installationId?: number): Promise<Buffer> {
    try {
      const { data } = await this.clients.forInstallation(await this.installationOf(repository, installationId)).rest.git.getBlob({ ...split(repository), file_sha: blobSha });
      return Buffer.from(data.content, data.encoding === 'base64' ? 'base64' : 'utf8');
    } catch (error) {
      throw toPortError(error, `blob ${blobSha} of ${repository.fullName}`);
    }
  }

  /** Streams the tarball as it arrives (octokit would buffer the whole archive). */
  async tarball(repository: SourceRepository, commitSha: string, installationId?: number): Promise<Readable> {
    const { owner, repo } = split(repository);
    const url = `${this.options.baseUrl.replace(/\/$/, '')}/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}/tarball/${commitSha}`;
    const action = `tarball of ${repository.fullName}@${commitSha}`;
    let response: StreamGetResponse;
    try {
      const token = await this.clients.token(await this.installationOf(repository, installationId));
      response = await streamGet(url, { headers: { accept: 'application/vnd.github+json', 'user-agent': 'gitdex-indexer', ...(token ? { authorization: `token ${token}` } : {}) } });
    } catch (error) {
      throw toPortError(error, action);
    }
    if (response.status < 200 || response.status >= 300) {
      // The status is the error the caller gets; a body that cannot be read only leaves its message empty.
      const message = await text(response.body).catch(() => '');
      throw toPortError({ status: response.status, message: message.slice(0, 200), response: { headers: response.headers } }, action);
    }
    return response.body;
  }
}

/** The start of an error answer, for the message; the rest is not waited for. */
async function text(body: Readable, max = 4096): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
    if (size >= max) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).toString('utf8');
}

export { PortError };
