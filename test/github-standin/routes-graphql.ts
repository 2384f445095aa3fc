// POST /graphql: GitHub's GraphQL API for the subset in graphql-schema.ts, answered from the real
// repositories, with GitHub's answer shapes: errors[] beside data (HTTP 200) for bad queries,
// missing repositories and an exhausted point budget; 401 without credentials; 502 when the
// answer would be too large (GitHub's answer when a query runs past its time limit).
import express, { Router, type Request, type Response } from 'express';
import { graphql, GraphQLError, type ExecutionResult } from 'graphql';
import { authMiddleware } from './auth';
import { urlsOf, type StandInContext } from './context';
import { faultMiddleware } from './faults';
import { isoWithOffset, readCommit, type CommitInfo } from './git-objects';
import { logCommits } from './git-log';
import { commitCounts } from './git-diff';
import { entriesAt, objectTypes, readBlobs, readTrees, type PathEntry } from './graphql-git';
import { STANDIN_GRAPHQL_SCHEMA } from './graphql-schema';
import { requestId, sendError } from './http';
import { RateLimiter } from './rate-limit';
import { loadRepoFacts } from './repo-json';
import type { RepoHandle } from './repo-store';
import { ROUTES } from './route-patterns';

/** Blob.text holds at most this many bytes; past it isTruncated is true. */
export const GRAPHQL_TEXT_LIMIT_BYTES = 512 * 1024;
/** Answers larger than this get GitHub's 502 (its time limit, modelled as a size: the work grows with the bytes). */
export const GRAPHQL_MAX_ANSWER_BYTES = 10 * 1024 * 1024;
const DOCS = 'https://docs.github.com/graphql';

/** Batches the calls one tick makes into one load (every file of a query in one git process). */
class Batch<K, V> {
  private pending = new Map<K, { resolve: (v: V | undefined) => void; reject: (e: unknown) => void }[]>();

  constructor(private readonly load: (keys: K[]) => Promise<Map<K, V>>) {}

  get(key: K): Promise<V | undefined> {
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) setImmediate(() => void this.flush());
      const waiting = this.pending.get(key) ?? [];
      waiting.push({ resolve, reject });
      this.pending.set(key, waiting);
    });
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = new Map();
    try {
      const values = await this.load([...batch.keys()]);
      for (const [key, waiting] of batch) for (const w of waiting) w.resolve(values.get(key));
    } catch (error) {
      for (const waiting of batch.values()) for (const w of waiting) w.reject(error);
    }
  }
}

/** git's own test for binary content: a NUL byte in the first 8,000 bytes. */
const looksBinary = (bytes: Buffer) => bytes.subarray(0, 8000).includes(0);

function blobNode(loadBlob: (sha: string) => Promise<Buffer | undefined>, sha: string, size: number) {
  const bytes = () => loadBlob(sha).then((b) => b ?? Buffer.alloc(0));
  return {
    __typename: 'Blob',
    oid: sha,
    abbreviatedOid: sha.slice(0, 7),
    byteSize: size,
    isBinary: async () => looksBinary(await bytes()),
    isTruncated: size > GRAPHQL_TEXT_LIMIT_BYTES,
    // Decoded as UTF-8 the way a JSON string must be: invalid sequences become U+FFFD and a BOM is
    // dropped, so text is not always the file's bytes (a client checks it against the oid).
    text: async () => {
      const b = await bytes();
      return looksBinary(b) ? null : new TextDecoder('utf-8').decode(b.subarray(0, GRAPHQL_TEXT_LIMIT_BYTES));
    },
  };
}

function repositoryNode(ctx: StandInContext, repo: RepoHandle) {
  const loadBlob = new Batch((shas: string[]) => readBlobs(repo.dir, shas));
  const loadEntry = new Batch(async (keys: string[]) => {
    const byCommit = new Map<string, string[]>();
    for (const key of keys) {
      const [commit = '', path = ''] = key.split('\0');
      byCommit.set(commit, [...(byCommit.get(commit) ?? []), path]);
    }
    const found = new Map<string, PathEntry>();
    for (const [commit, paths] of byCommit) for (const [path, entry] of await entriesAt(repo.dir, commit, paths)) found.set(`${commit}\0${path}`, entry);
    return found;
  });
  const blob = (sha: string) => loadBlob.get(sha);
  // Every tree and every commit's counts a query names, each kind in one git process.
  const loadTree = new Batch((shas: string[]) => readTrees(repo.dir, shas));
  const loadCounts = new Batch((shas: string[]) => commitCounts(repo.dir, shas));
  const loadType = new Batch((shas: string[]) => objectTypes(repo.dir, shas));
  /** A tree by oid, its entries one level down as GitHub's Tree.entries gives them. */
  const treeNode = (oid: string): Record<string, unknown> => ({
    __typename: 'Tree',
    oid,
    abbreviatedOid: oid.slice(0, 7),
    entries: async () =>
      ((await loadTree.get(oid)) ?? []).map((e) => ({
        mode: parseInt(e.mode, 8),
        name: e.name,
        path: e.name,
        oid: e.sha,
        type: e.type,
        size: 0,
        object: e.type === 'tree' ? treeNode(e.sha) : null,
      })),
  });
  const fullName = `${repo.owner}/${repo.name}`;
  const commitNode = async (oid: string) => {
    const commit = await readCommit(repo.dir, oid);
    return commit ? commitFields(commit) : null;
  };
  const commitFields = (commit: CommitInfo) => {
    const oid = commit.sha;
    // GitHub's counts are those of the commit endpoint: against the first parent, renames detected.
    const counts = async () => (await loadCounts.get(oid)) ?? { changedFiles: 0, additions: 0, deletions: 0 };
    return {
      __typename: 'Commit',
      oid,
      abbreviatedOid: oid.slice(0, 7),
      committedDate: new Date(commit.committer.epoch * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      message: commit.message.replace(/\n$/, ''),
      additions: async () => (await counts()).additions,
      deletions: async () => (await counts()).deletions,
      changedFilesIfAvailable: async () => (await counts()).changedFiles,
      author: { name: commit.author.name, email: commit.author.email, date: isoWithOffset(commit.author) },
      committer: { name: commit.committer.name, email: commit.committer.email, date: isoWithOffset(commit.committer) },
      parents: ({ first }: { first?: number }) => ({ totalCount: commit.parents.length, nodes: commit.parents.slice(0, first ?? 100).map((sha) => commitNode(sha)) }),
      // GitHub's cursor is opaque: here it is the number of commits before the page.
      history: async ({ first, after, path }: { first?: number; after?: string; path?: string }) => {
        const skip = after ? Number(Buffer.from(after, 'base64').toString('utf8')) || 0 : 0;
        const max = Math.min(100, Math.max(1, first ?? 100));
        const page = await logCommits(repo.dir, oid, { skip, max: max + 1, ...(path ? { path } : {}) });
        const nodes = page.slice(0, max).map(commitFields);
        const endCursor = Buffer.from(String(skip + nodes.length)).toString('base64');
        return { totalCount: skip + page.length, nodes, pageInfo: { hasNextPage: page.length > max, endCursor } };
      },
      tree: treeNode(commit.tree),
      file: async ({ path }: { path: string }) => {
        const entry = await loadEntry.get(`${oid}\0${path.replace(/^\/+|\/+$/g, '')}`);
        if (!entry) return null;
        return {
          mode: parseInt(entry.mode, 8),
          name: entry.path.slice(entry.path.lastIndexOf('/') + 1),
          path: entry.path,
          oid: entry.sha,
          type: entry.type,
          size: entry.size,
          object: entry.type === 'blob' ? blobNode(blob, entry.sha, entry.size) : entry.type === 'tree' ? treeNode(entry.sha) : null,
        };
      },
    };
  };
  return {
    id: Buffer.from(`010:Repository${repo.id}`).toString('base64'),
    databaseId: repo.id,
    name: repo.name,
    nameWithOwner: fullName,
    isPrivate: repo.private,
    isArchived: repo.archived,
    url: `${urlsOf(ctx).htmlUrl}/${fullName}`,
    defaultBranchRef: async () => ({ name: (await loadRepoFacts(repo)).defaultBranch, prefix: 'refs/heads/' }),
    // GitHub's object(oid:) takes full object ids only; every oid of a query is typed in one git process.
    object: async ({ oid }: { oid?: string }) => {
      if (!oid || !/^[0-9a-f]{40}$/.test(oid)) return null;
      const found = await loadType.get(oid);
      if (found?.type === 'commit') return commitNode(oid);
      if (found?.type === 'tree') return treeNode(oid);
      return found?.type === 'blob' ? blobNode(blob, oid, found.size) : null;
    },
  };
}

/** GitHub's form of a query error: message, locations and path, with a type when GitHub names one. */
function errorJson(error: GraphQLError): Record<string, unknown> {
  const type = (error.extensions as { type?: string }).type;
  return {
    ...(type ? { type } : {}),
    ...(error.path ? { path: error.path } : {}),
    ...(error.locations ? { locations: error.locations } : {}),
    message: error.message,
  };
}

export function graphqlRouter(ctx: StandInContext): Router {
  const router = Router();
  // GraphQL has its own budget on GitHub, counted in points; every query gitdex sends asks for no
  // connections, and such a query costs GitHub's minimum, one point: so one point a query, with
  // the same limit and window as the core budget.
  const points = new RateLimiter(ctx.rateLimiter.limit, ctx.rateLimiter.windowSeconds);
  const graphqlHeaders = (res: Response) => points.setHeaders(res, { ...points.snapshot(), resource: 'graphql' });

  router.post(
    ROUTES.graphql,
    authMiddleware(() => ({ token: ctx.config.token, mintedTokens: ctx.mintedTokens })),
    (_req, res, next) => {
      if (res.locals.authenticated !== true) return sendError(res, 401, 'This endpoint requires you to be authenticated.', `${DOCS}/guides/forming-calls-with-graphql#authenticating-with-graphql`);
      next();
    },
    faultMiddleware(ctx.faults, { rateLimiter: points, resetAfterSeconds: () => ctx.config.rateLimitResetSeconds, sleep: ctx.sleep }),
    express.json({ limit: '1mb' }),
    async (req: Request, res: Response) => {
      const body = (req.body ?? {}) as { query?: unknown; variables?: unknown };
      if (typeof body.query !== 'string') return sendError(res, 400, 'A query attribute must be specified and must be a string.', DOCS);
      points.limit = ctx.rateLimiter.limit;
      if (!points.consume()) {
        const snap = points.snapshot();
        points.setHeaders(res, { ...snap, remaining: 0, resource: 'graphql' });
        const who = 'installation ID 1';
        return void res.status(200).json({ errors: [{ type: 'RATE_LIMITED', message: `API rate limit already exceeded for ${who}.` }] });
      }
      graphqlHeaders(res);
      const variables = body.variables && typeof body.variables === 'object' ? (body.variables as Record<string, unknown>) : {};
      const rootValue = {
        repository: async ({ owner, name }: { owner: string; name: string }) => {
          const repo = await ctx.store.find(owner, name);
          if (!repo) throw new GraphQLError(`Could not resolve to a Repository with the name '${owner}/${name}'.`, { extensions: { type: 'NOT_FOUND' } });
          return repositoryNode(ctx, repo);
        },
        rateLimit: () => {
          const snap = points.snapshot();
          return { cost: 1, limit: snap.limit, nodeCount: 0, remaining: snap.remaining, resetAt: new Date(snap.reset * 1000).toISOString(), used: snap.used };
        },
      };
      const result: ExecutionResult = await graphql({ schema: STANDIN_GRAPHQL_SCHEMA, source: body.query, rootValue, variableValues: variables });
      const answer = { ...(result.errors ? { errors: result.errors.map(errorJson) } : {}), ...('data' in result && result.data !== undefined ? { data: result.data } : {}) };
      const text = JSON.stringify(answer);
      if (Buffer.byteLength(text) > GRAPHQL_MAX_ANSWER_BYTES) {
        const id = requestId();
        return void res.status(502).json({
          data: null,
          errors: [
            { message: `Something went wrong while executing your query. This may be the result of a timeout, or it could be a GitHub bug. Please include \`${id}\` when reporting this issue.` },
          ],
        });
      }
      res.status(200).setHeader('content-type', 'application/json; charset=utf-8');
      res.send(text);
    },
  );
  return router;
}
