import { Readable } from 'node:stream';
import { PortError, type BatchReads, type Source, type SourceCommit, type SourceRepository, type SourceTree, type TreeEntry } from '@gitdex/ports';
import { GitHubBatchReads } from './batch-reads';
import { GitHubClients, type GitHubClientOptions } from './client';
import { toPortError } from './errors';
import { assertRepositoryName } from './name-guard';
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

function split(repository: SourceRepository): { owner: string; repo: string } {
  return assertRepositoryName(repository.fullName);
}

/** The source port over GitHub's REST API; it translates, the indexer decides. */
export class GitHubSource implements Source {
  private readonly clients: GitHubClients;
  /** Compare and GraphQL reads; GitHub answers GraphQL only to a token or an app, so none without. */
  readonly batchReads?: BatchReads;

  constructor(private readonly options: GitHubClientOptions) {
    this.clients = new GitHubClients(options);
    if (options.token || options.app) this.batchReads = new GitHubBatchReads(this.clients);
  }

  async repository(repositoryId: number, installationId?: number): Promise<SourceRepository | null> {
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
    try {
      const { data } = await this.clients.forInstallation(installationId).rest.repos.get({ owner, repo });
      return { id: data.id, fullName: data.full_name, defaultBranch: data.default_branch, private: data.private, archived: data.archived, htmlUrl: data.html_url };
    } catch (error) {
      const mapped = toPortError(error, `repository ${fullName}`);
      if (mapped.code === 'NOT_FOUND') return null;
      throw mapped;
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

  async head(repository: SourceRepository, branch: string, installationId?: number): Promise<SourceCommit | null> {
    try {
      const { data } = await this.clients.forInstallation(installationId).rest.repos.getBranch({ ...split(repository), branch });
      return {
        sha: data.commit.sha,
        treeSha: data.commit.commit.tree.sha,
        committedAt: data.commit.commit.committer?.date ?? new Date(0).toISOString(),
        parentShas: data.commit.parents.map((parent) => parent.sha),
      };
    } catch (error) {
      const mapped = toPortError(error, `branch ${branch} of ${repository.fullName}`);
      if (mapped.code === 'NOT_FOUND') return null;
      throw mapped;
    }
  }

  async tags(repository: SourceRepository, installationId?: number): Promise<string[]> {
    try {
      const client = this.clients.forInstallation(installationId);
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
      const { data } = await this.clients.forInstallation(installationId).rest.repos.getCommit({ ...split(repository), ref: `tags/${tag}` });
      return { sha: data.sha, treeSha: data.commit.tree.sha, committedAt: data.commit.committer?.date ?? new Date(0).toISOString(), parentShas: data.parents.map((parent) => parent.sha) };
    } catch (error) {
      const mapped = toPortError(error, `tag ${tag} of ${repository.fullName}`);
      if (mapped.code === 'NOT_FOUND' || (error as { status?: number }).status === 422) return null;
      throw mapped;
    }
  }

  async branches(repository: SourceRepository, installationId?: number): Promise<string[]> {
    try {
      const client = this.clients.forInstallation(installationId);
      const all = await client.paginate(client.rest.repos.listBranches, { ...split(repository), per_page: 100 });
      return all.map((b) => b.name);
    } catch (error) {
      throw toPortError(error, `branches of ${repository.fullName}`);
    }
  }

  async tree(repository: SourceRepository, treeSha: string, options: { recursive: boolean; installationId?: number }): Promise<SourceTree> {
    try {
      const { data } = await this.clients.forInstallation(options.installationId).rest.git.getTree({
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
      const { data } = await this.clients.forInstallation(installationId).rest.git.getBlob({ ...split(repository), file_sha: blobSha });
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
      const token = await this.clients.token(installationId);
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
