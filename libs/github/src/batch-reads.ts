import { createHash } from 'node:crypto';
import { PortError, type BatchReads, type SourceChangedFile, type SourceCommitInfo, type SourceComparison, type SourceFile, type SourceRepository } from '@gitdex/ports';
import type { GitHubClients } from './client';
import { toPortError, waitFromHeaders } from './errors';
import { assertRepositoryName } from './name-guard';

/**
 * Files asked for in one GraphQL query. 300 is the most GitHub's compare lists, so every change
 * compare can describe is read with one query; a query GitHub cannot answer in its time limit
 * (HTTP 502, most often a large answer) is split in halves and asked again, down to one file.
 */
export const FILES_PER_QUERY = 300;

/** GitHub lists at most this many files in a comparison and gives no total: a full list may have been cut. */
const COMPARE_FILE_CAP = 300;

const STATUSES = new Set<SourceChangedFile['status']>(['added', 'removed', 'modified', 'renamed', 'copied', 'changed', 'unchanged']);

interface CompareActor {
  name?: string;
  email?: string;
  date?: string;
}

interface CompareCommit {
  sha: string;
  commit: { tree: { sha: string }; author?: CompareActor | null; committer?: CompareActor | null; message: string };
  parents: { sha: string }[];
}

/** A listed commit's metadata in history's form (dates in UTC). */
function commitInfo(c: CompareCommit): SourceCommitInfo {
  const person = (a: CompareActor | null | undefined) => ({ name: a?.name ?? '', email: a?.email ?? '', date: new Date(a?.date ?? 0).toISOString().replace(/\.\d{3}Z$/, 'Z') });
  return { sha: c.sha, parents: c.parents.map((p) => p.sha), author: person(c.commit.author), committer: person(c.commit.committer), message: c.commit.message };
}

interface GraphQLFile {
  mode: number;
  oid: string;
  type: string;
  size: number;
  object: { text?: string | null; isBinary?: boolean | null; isTruncated?: boolean; byteSize?: number } | null;
}

interface GraphQLRepository {
  databaseId: number | null;
  nameWithOwner: string;
  isPrivate: boolean;
  isArchived: boolean;
  url: string;
  defaultBranchRef: { name: string } | null;
  commit: Record<string, GraphQLFile | null> | null;
}

interface GraphQLFailure {
  errors?: { type?: string; message?: string; path?: (string | number)[] }[];
  data?: { repository?: GraphQLRepository | null } | null;
  headers?: Record<string, string | number | undefined>;
  response?: { headers?: Record<string, string | number | undefined>; data?: unknown };
  status?: number;
  message?: string;
}

const blobSha = (bytes: Buffer) => createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');

/**
 * GitHub's text of a blob when it is the file's exact bytes: GraphQL gives text as a JSON string,
 * so invalid UTF-8, a BOM or a cut answer would come back changed. The sha decides: text that
 * hashes to the blob's id is its bytes, anything else is read from the REST blob instead.
 */
function exactContent(file: GraphQLFile): Buffer | undefined {
  const blob = file.object;
  if (!blob || blob.isBinary || blob.isTruncated || typeof blob.text !== 'string') return undefined;
  const bytes = Buffer.from(blob.text, 'utf8');
  return blobSha(bytes) === file.oid ? bytes : undefined;
}

const TYPES = new Set(['blob', 'tree', 'commit']);

function query(count: number): string {
  const fields = Array.from({ length: count }, (_, i) => `f${i}: file(path: $p${i}) { mode oid type size object { ... on Blob { text isBinary isTruncated byteSize } } }`);
  const paths = Array.from({ length: count }, (_, i) => `$p${i}: String!`).join(', ');
  return `query($owner: String!, $name: String!, $oid: GitObjectID!${paths ? `, ${paths}` : ''}) {
  repository(owner: $owner, name: $name) {
    databaseId nameWithOwner isPrivate isArchived url defaultBranchRef { name }
    commit: object(oid: $oid) { ... on Commit { ${fields.join(' ')} } }
  }
}`;
}

/** Maps a GraphQL failure (HTTP, or errors[] in a 200 answer) to the decision the indexer needs. */
export function graphqlError(error: unknown, action: string): PortError {
  const e = (error ?? {}) as GraphQLFailure;
  const errors = e.errors ?? ((e.response?.data ?? {}) as GraphQLFailure).errors ?? [];
  const headers = e.headers ?? e.response?.headers;
  if (errors.some((x) => x.type === 'RATE_LIMITED')) {
    const wait = waitFromHeaders({ ...headers, 'x-ratelimit-remaining': '0' });
    return new PortError('RATE_LIMITED', `GitHub ${action}: GraphQL rate limit exceeded`, { retriable: true, retryAfterMs: wait ?? 60_000, cause: error });
  }
  if (errors.length > 0 && e.status === undefined) {
    // A query GitHub refused (a bad field, a limit) is a defect here, not something time fixes.
    return new PortError('INVALID', `GitHub ${action}: ${errors.map((x) => x.message ?? x.type ?? 'error').join('; ')}`, { retriable: false, cause: error });
  }
  return toPortError(error, action);
}

/** GitHub's compare and GraphQL APIs: what changed, and the changed files' bytes, in two requests. */
/** Finds the installation that reads a repository when the caller names none. */
export type InstallationOf = (repository: { id?: number; fullName: string }, given: number | undefined) => Promise<number | undefined>;

export class GitHubBatchReads implements BatchReads {
  constructor(
    private readonly clients: GitHubClients,
    /** The installation that reads a repository when the caller names none (a GitHub App alone). */
    private readonly installationOf: InstallationOf = (_repository, given) => Promise.resolve(given),
  ) {}

  async compare(repository: SourceRepository, base: string, head: string, installationId?: number): Promise<SourceComparison> {
    const { owner, repo } = assertRepositoryName(repository.fullName);
    try {
      const { data } = await this.clients.forInstallation(await this.installationOf(repository, installationId)).rest.repos.compareCommits({ owner, repo, base, head, per_page: 250 });
      const commits = data.commits as CompareCommit[];
      const last = commits.at(-1);
      const headCommit =
        data.total_commits === commits.length && last
          ? { sha: last.sha, treeSha: last.commit.tree.sha, committedAt: last.commit.committer?.date ?? new Date(0).toISOString(), parentShas: last.parents.map((p) => p.sha) }
          : null;
      const files = (data.files ?? []).map((f) => ({
        path: f.filename,
        status: STATUSES.has(f.status) ? f.status : 'modified',
        ...(f.previous_filename ? { previousPath: f.previous_filename } : {}),
        additions: f.additions,
        deletions: f.deletions,
        ...(f.sha ? { sha: f.sha } : {}),
      }));
      const listed = data.total_commits === commits.length ? { commits: commits.map(commitInfo) } : {};
      return { status: data.status, head: headCommit, files, complete: files.length < COMPARE_FILE_CAP, ...listed };
    } catch (error) {
      throw toPortError(error, `compare ${base}...${head} of ${repository.fullName}`);
    }
  }

  async files(repository: SourceRepository, commitSha: string, paths: readonly string[], installationId?: number): Promise<{ repository: SourceRepository | null; files: Map<string, SourceFile> }> {
    const files = new Map<string, SourceFile>();
    let current: SourceRepository | null | undefined;
    const batches: string[][] = [];
    for (let i = 0; i < paths.length || batches.length === 0; i += FILES_PER_QUERY) batches.push(paths.slice(i, i + FILES_PER_QUERY));
    for (const batch of batches) {
      const answer = await this.ask(repository, commitSha, batch, installationId);
      current ??= answer.repository;
      for (const [path, file] of answer.files) files.set(path, file);
    }
    return { repository: current ?? null, files };
  }

  private async ask(
    repository: SourceRepository,
    commitSha: string,
    paths: readonly string[],
    installationId?: number,
  ): Promise<{ repository: SourceRepository | null; files: Map<string, SourceFile> }> {
    const { owner, repo } = assertRepositoryName(repository.fullName);
    const action = `files of ${repository.fullName}@${commitSha}`;
    const variables: Record<string, string> = { owner, name: repo, oid: commitSha };
    paths.forEach((path, i) => (variables[`p${i}`] = path));
    let data: { repository: GraphQLRepository | null };
    try {
      // No retries inside the client: a 502 is answered below by asking for half as much.
      data = await this.clients
        .forInstallation(await this.installationOf(repository, installationId))
        .graphql<{ repository: GraphQLRepository | null }>(query(paths.length), { ...variables, request: { retries: 0 } });
    } catch (error) {
      const e = error as GraphQLFailure;
      if (e.errors?.every((x) => x.type === 'NOT_FOUND' && x.path?.[0] === 'repository') && !e.data?.repository) return { repository: null, files: new Map() };
      if (e.status === 502 && paths.length > 1) {
        const half = Math.ceil(paths.length / 2);
        const [a, b] = [await this.ask(repository, commitSha, paths.slice(0, half), installationId), await this.ask(repository, commitSha, paths.slice(half), installationId)];
        return { repository: a.repository, files: new Map([...a.files, ...b.files]) };
      }
      throw graphqlError(error, action);
    }
    const found = data.repository;
    if (!found || found.databaseId === null) return { repository: null, files: new Map() };
    if (!found.commit) throw new PortError('NOT_FOUND', `GitHub ${action}: no such commit`, { retriable: false });
    const files = new Map<string, SourceFile>();
    paths.forEach((path, i) => {
      const file = found.commit?.[`f${i}`];
      if (!file || !TYPES.has(file.type)) return;
      const content = file.type === 'blob' ? exactContent(file) : undefined;
      files.set(path, { path, mode: file.mode.toString(8).padStart(6, '0'), type: file.type as SourceFile['type'], sha: file.oid, size: file.size, ...(content ? { content } : {}) });
    });
    const current: SourceRepository = {
      id: found.databaseId,
      fullName: found.nameWithOwner,
      defaultBranch: found.defaultBranchRef?.name ?? repository.defaultBranch,
      private: found.isPrivate,
      archived: found.isArchived,
      htmlUrl: found.url,
    };
    return { repository: current, files };
  }
}
