import { createHash } from 'node:crypto';
import type { CommitFileStatus, HistorySource, SourceCommitFile, SourceCommitInfo, SourceCommitVersions, SourceRepository, TreeEntry } from '@gitdex/ports';
import { graphqlError, type InstallationOf } from './batch-reads';
import type { GitHubClients } from './client';
import { toPortError } from './errors';
import { assertRepositoryName } from './name-guard';
import { PATH_VERSIONS_MAX_FILES, pathVersionsQuery, readPathVersions, type PathVersionsAnswer } from './path-versions';

/** GitHub's largest page of a GraphQL connection. */
const LOG_PAGE = 100;
/** Blobs asked for in one GraphQL query; a 502 (GitHub's time limit, most often a large answer) halves it. */
const BLOBS_PER_QUERY = 100;
/** GitHub's commit endpoint lists at most this many files on its first page. */
const COMMIT_FILE_CAP = 300;

interface GraphQLActor {
  name: string | null;
  email: string | null;
  date: string | null;
}

interface GraphQLLogCommit {
  oid: string;
  message: string;
  author: GraphQLActor | null;
  committer: GraphQLActor | null;
  parents: { nodes: { oid: string }[] };
  tree?: { oid: string } | null;
  changedFilesIfAvailable?: number | null;
  additions?: number;
  deletions?: number;
}

interface GraphQLBlob {
  oid?: string;
  byteSize?: number;
  text?: string | null;
  isBinary?: boolean | null;
  isTruncated?: boolean;
}

/**
 * A page of the log; with counts, each commit's tree and change counts too (what a backfill diffs
 * trees against). GitHub computes the counts while answering: a page it cannot finish in time
 * (a 502) is asked again without them, and its commits go to the commit endpoint.
 */
const logQuery = (counts: boolean) => `query($owner: String!, $name: String!, $oid: GitObjectID!, $first: Int!, $after: String) {
  repository(owner: $owner, name: $name) {
    object(oid: $oid) { ... on Commit { history(first: $first, after: $after) {
      pageInfo { hasNextPage endCursor }
      nodes { oid message author { name email date } committer { name email date } parents(first: 100) { nodes { oid } }${counts ? ' tree { oid } changedFilesIfAvailable additions deletions' : ''} }
    } } }
  }
}`;

function blobsQuery(count: number): string {
  const fields = Array.from({ length: count }, (_, i) => `b${i}: object(oid: $o${i}) { ... on Blob { oid byteSize text isBinary isTruncated } }`);
  const vars = Array.from({ length: count }, (_, i) => `$o${i}: GitObjectID!`).join(', ');
  return `query($owner: String!, $name: String!, ${vars}) { repository(owner: $owner, name: $name) { ${fields.join(' ')} } }`;
}

/** Trees asked in one GraphQL query; a 502 (too large an answer) halves it. */
const TREES_PER_QUERY = 100;

interface GraphQLTreeEntry {
  name: string;
  oid: string;
  mode: number;
  type: string;
}

function treesQuery(count: number): string {
  const entries = 'entries { name oid mode type }';
  const fields = Array.from({ length: count }, (_, i) => `t${i}: object(oid: $o${i}) { ... on Tree { ${entries} } ... on Commit { tree { ${entries} } } }`);
  const vars = Array.from({ length: count }, (_, i) => `$o${i}: GitObjectID!`).join(', ');
  return `query($owner: String!, $name: String!, ${vars}) { repository(owner: $owner, name: $name) { ${fields.join(' ')} } }`;
}

const gitBlobSha = (bytes: Buffer) => createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');

/** GitHub gives dates with the person's offset; history stores them in UTC (git log --date=iso-strict-local in UTC). */
function person(actor: GraphQLActor | null): SourceCommitInfo['author'] {
  const date = actor?.date ? new Date(actor.date).toISOString().replace(/\.\d{3}Z$/, 'Z') : new Date(0).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return { name: actor?.name ?? '', email: actor?.email ?? '', date };
}

/** GitHub's words for a change, as history keeps them: a copy adds a file, a mode change modifies it. */
function statusOf(status: string): CommitFileStatus | null {
  if (status === 'added' || status === 'copied') return 'added';
  if (status === 'removed' || status === 'renamed') return status;
  if (status === 'modified' || status === 'changed') return 'modified';
  return null;
}

interface RestCommitFile {
  filename: string;
  previous_filename?: string;
  status: string;
  additions: number;
  deletions: number;
  sha?: string | null;
}

/**
 * History reads over GitHub: the log in GraphQL pages of 100 (one point each), a commit's files
 * from the REST commit endpoint (GraphQL has no list of a commit's changed files), the files of
 * several commits at named paths in one GraphQL query (a push's commits), and blobs by
 * id in GraphQL batches, each checked against its sha and read from REST only when its text is
 * not its bytes (binary, cut, not UTF-8).
 */
export class GitHubHistoryReads implements HistorySource {
  constructor(
    private readonly clients: GitHubClients,
    private readonly restBlob: (repository: SourceRepository, sha: string, installationId?: number) => Promise<Buffer>,
    /** The installation that reads a repository when the caller names none (a GitHub App alone). */
    private readonly installationOf: InstallationOf = (_repository, given) => Promise.resolve(given),
  ) {}

  async commitLog(repository: SourceRepository, head: string, options: { limit: number; known?: ReadonlySet<string>; installationId?: number }): Promise<SourceCommitInfo[]> {
    const { owner, repo } = assertRepositoryName(repository.fullName);
    const out: SourceCommitInfo[] = [];
    let after: string | null = null;
    while (out.length < options.limit) {
      const first = Math.min(LOG_PAGE, options.limit - out.length);
      type LogPage = { repository: { object: { history?: { pageInfo: { hasNextPage: boolean; endCursor: string | null }; nodes: GraphQLLogCommit[] } } | null } | null };
      let data: LogPage;
      try {
        const client = this.clients.forInstallation(await this.installationOf(repository, options.installationId));
        const variables = { owner, name: repo, oid: head, first, after };
        data = await client.graphql<LogPage>(logQuery(true), { ...variables, request: { retries: 0 } }).catch((error: unknown) => {
          if ((error as { status?: number }).status === 502) return client.graphql<LogPage>(logQuery(false), variables);
          throw error;
        });
      } catch (error) {
        throw graphqlError(error, `history of ${repository.fullName}@${head}`);
      }
      const history = data.repository?.object?.history;
      if (!history) break;
      const page = history.nodes.map((c) => ({
        sha: c.oid,
        parents: c.parents.nodes.map((p) => p.oid),
        author: person(c.author),
        committer: person(c.committer),
        message: c.message,
        ...(c.tree ? { tree: c.tree.oid } : {}),
        ...(c.additions !== undefined && c.deletions !== undefined ? { counts: { changedFiles: c.changedFilesIfAvailable ?? null, additions: c.additions, deletions: c.deletions } } : {}),
      }));
      out.push(...page);
      const allKnown = options.known !== undefined && page.every((c) => options.known?.has(c.sha));
      if (!history.pageInfo.hasNextPage || allKnown) break;
      after = history.pageInfo.endCursor;
    }
    return out;
  }

  async commitFiles(repository: SourceRepository, sha: string, installationId?: number): Promise<{ files: SourceCommitFile[]; complete: boolean }> {
    const { owner, repo } = assertRepositoryName(repository.fullName);
    try {
      const { data } = await this.clients.forInstallation(await this.installationOf(repository, installationId)).rest.repos.getCommit({ owner, repo, ref: sha, per_page: COMMIT_FILE_CAP });
      const listed = (data.files ?? []) as RestCommitFile[];
      const files: SourceCommitFile[] = [];
      for (const f of listed) {
        const status = statusOf(f.status);
        if (!status) continue;
        files.push({ path: f.filename, previousPath: status === 'renamed' ? (f.previous_filename ?? null) : null, status, additions: f.additions, deletions: f.deletions, sha: f.sha ?? '' });
      }
      return { files, complete: listed.length < COMMIT_FILE_CAP };
    } catch (error) {
      throw toPortError(error, `commit ${sha} of ${repository.fullName}`);
    }
  }

  async blobs(repository: SourceRepository, shas: readonly string[], options: { maxBytes: number; installationId?: number }): Promise<Map<string, Buffer>> {
    const out = new Map<string, Buffer>();
    const inexact: string[] = [];
    const wanted = [...new Set(shas)];
    for (let i = 0; i < wanted.length; i += BLOBS_PER_QUERY) {
      const batch = await this.blobBatch(repository, wanted.slice(i, i + BLOBS_PER_QUERY), options.maxBytes, options.installationId);
      for (const [sha, bytes] of batch.exact) out.set(sha, bytes);
      inexact.push(...batch.inexact);
    }
    // Text GraphQL could not give exactly (not UTF-8, a BOM, cut) is read one by one from REST.
    for (const sha of inexact) out.set(sha, await this.restBlob(repository, sha, options.installationId));
    return out;
  }

  async treeEntries(repository: SourceRepository, oids: readonly string[], installationId?: number): Promise<Map<string, TreeEntry[]>> {
    const out = new Map<string, TreeEntry[]>();
    const wanted = [...new Set(oids)];
    for (let i = 0; i < wanted.length; i += TREES_PER_QUERY) for (const [oid, entries] of await this.treeBatch(repository, wanted.slice(i, i + TREES_PER_QUERY), installationId)) out.set(oid, entries);
    return out;
  }

  private async treeBatch(repository: SourceRepository, oids: string[], installationId?: number): Promise<Map<string, TreeEntry[]>> {
    const { owner, repo } = assertRepositoryName(repository.fullName);
    const variables: Record<string, unknown> = { owner, name: repo, request: { retries: 0 } };
    oids.forEach((oid, i) => (variables[`o${i}`] = oid));
    let data: { repository: Record<string, { entries?: GraphQLTreeEntry[] | null; tree?: { entries?: GraphQLTreeEntry[] | null } | null } | null> | null };
    try {
      data = await this.clients.forInstallation(await this.installationOf(repository, installationId)).graphql(treesQuery(oids.length), variables);
    } catch (error) {
      if ((error as { status?: number }).status === 502) {
        // A single tree too large to answer is left out: the commits that need it go to the commit endpoint.
        if (oids.length === 1) return new Map();
        const half = Math.ceil(oids.length / 2);
        return new Map([...(await this.treeBatch(repository, oids.slice(0, half), installationId)), ...(await this.treeBatch(repository, oids.slice(half), installationId))]);
      }
      throw graphqlError(error, `trees of ${repository.fullName}`);
    }
    const out = new Map<string, TreeEntry[]>();
    oids.forEach((oid, i) => {
      const node = data.repository?.[`t${i}`];
      const entries = node?.entries ?? node?.tree?.entries;
      if (!entries) return;
      out.set(
        oid,
        entries.map((e) => ({ path: e.name, mode: e.mode.toString(8).padStart(6, '0'), type: e.type === 'tree' || e.type === 'commit' ? e.type : 'blob', sha: e.oid })),
      );
    });
    return out;
  }

  async pathVersions(
    repository: SourceRepository,
    commits: readonly string[],
    paths: readonly string[],
    options: { withContent: ReadonlySet<string>; installationId?: number },
  ): Promise<Map<string, SourceCommitVersions> | null> {
    if (commits.length === 0 || commits.length * paths.length > PATH_VERSIONS_MAX_FILES) return null;
    const { owner, repo } = assertRepositoryName(repository.fullName);
    const { query, variables } = pathVersionsQuery(commits, paths, options.withContent);
    let data: PathVersionsAnswer;
    try {
      data = await this.clients.forInstallation(await this.installationOf(repository, options.installationId)).graphql(query, { owner, name: repo, ...variables, request: { retries: 0 } });
    } catch (error) {
      // Too large an answer (GitHub's time limit): the caller reads the commits one by one.
      if ((error as { status?: number }).status === 502) return null;
      throw graphqlError(error, `files of the pushed commits of ${repository.fullName}`);
    }
    return readPathVersions(data, commits, paths);
  }

  private async blobBatch(repository: SourceRepository, shas: string[], maxBytes: number, installationId?: number): Promise<{ exact: Map<string, Buffer>; inexact: string[] }> {
    const { owner, repo } = assertRepositoryName(repository.fullName);
    const variables: Record<string, unknown> = { owner, name: repo, request: { retries: 0 } };
    shas.forEach((sha, i) => (variables[`o${i}`] = sha));
    let data: { repository: Record<string, GraphQLBlob | null> | null };
    try {
      data = await this.clients.forInstallation(await this.installationOf(repository, installationId)).graphql(blobsQuery(shas.length), variables);
    } catch (error) {
      if ((error as { status?: number }).status === 502 && shas.length > 1) {
        const half = Math.ceil(shas.length / 2);
        const [a, b] = [await this.blobBatch(repository, shas.slice(0, half), maxBytes, installationId), await this.blobBatch(repository, shas.slice(half), maxBytes, installationId)];
        return { exact: new Map([...a.exact, ...b.exact]), inexact: [...a.inexact, ...b.inexact] };
      }
      throw graphqlError(error, `blobs of ${repository.fullName}`);
    }
    const exact = new Map<string, Buffer>();
    const inexact: string[] = [];
    shas.forEach((sha, i) => {
      const blob = data.repository?.[`b${i}`];
      if (!blob || blob.isBinary || (blob.byteSize ?? 0) > maxBytes) return;
      const bytes = typeof blob.text === 'string' && !blob.isTruncated ? Buffer.from(blob.text, 'utf8') : null;
      if (bytes && gitBlobSha(bytes) === sha) exact.set(sha, bytes);
      else inexact.push(sha);
    });
    return { exact, inexact };
  }
}
