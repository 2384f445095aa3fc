// GitHub's compare and GraphQL as the stand-in serves them for a push: GitHub's shapes, limits and
// error forms, and the GitHub adapter's reading of them (what is retried, what is split, what fails).
import { GitHubSource } from '@gitdex/github';
import { PortError, type SourceRepository } from '@gitdex/ports';
import { commitFiles, createRepo, forcePush, headSha, makeTempRoot, removeTempRoot, renamePath, type FileChanges } from '../github-standin/fixture-repos';
import { GRAPHQL_TEXT_LIMIT_BYTES } from '../github-standin/routes-graphql';
import { createGitHubStandIn, type GitHubStandIn } from '../github-standin/server';

const TOKEN = 'graphql-token';

describe('compare and GraphQL at the GitHub stand-in', () => {
  let root: string;
  let standIn: GitHubStandIn;
  let source: GitHubSource;
  let repository: SourceRepository;
  let dir: string;
  let base: string;

  const post = async (body: unknown, token: string | null = TOKEN) => {
    const response = await fetch(`${standIn.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    return { status: response.status, headers: response.headers, body: (await response.json()) as { data?: unknown; errors?: { type?: string; message: string; path?: unknown[] }[] } };
  };

  beforeAll(async () => {
    root = await makeTempRoot();
    const repo = await createRepo(root, 'acme', 'gq', { 'src/a.ts': 'export const a = 1;\n', 'old/name.txt': 'renamed content\n' });
    dir = repo.dir;
    base = await headSha(dir);
    standIn = await createGitHubStandIn({ root, token: TOKEN, rateLimit: { limit: 1000 } });
    source = new GitHubSource({ baseUrl: standIn.url, token: TOKEN, maxInlineWaitSeconds: 0 });
    repository = { id: await standIn.repoId('acme', 'gq'), fullName: 'acme/gq', defaultBranch: 'main', private: false, archived: false, htmlUrl: '' };
  });
  afterAll(async () => {
    await standIn.close();
    await removeTempRoot(root);
  });
  beforeEach(() => {
    standIn.faults.clear();
    standIn.requests.reset();
  });

  it('compares like GitHub: renames with their previous name, at most 300 files, 404 for unrelated histories', async () => {
    const renamed = await renamePath(dir, 'old/name.txt', 'new/name.txt');
    expect(await source.batchReads!.compare(repository, base, 'main')).toEqual({
      status: 'ahead',
      complete: true,
      head: expect.objectContaining({ sha: renamed, parentShas: [base] }),
      files: [{ path: 'new/name.txt', status: 'renamed', previousPath: 'old/name.txt', additions: 0, deletions: 0, sha: expect.stringMatching(/^[0-9a-f]{40}$/) }],
      // The commits from the merge base, for history: free with the compare a push already makes.
      commits: [expect.objectContaining({ sha: renamed, parents: [base], message: 'Rename old/name.txt to new/name.txt' })],
    });
    const many: FileChanges = {};
    for (let i = 0; i < 310; i += 1) many[`many/f${i}.txt`] = `${i}\n`;
    const head = await commitFiles(dir, { ...many, 'src/a.ts': 'export const a = 2;\n' }, 'many');
    const comparison = await source.batchReads!.compare(repository, renamed, 'main');
    expect(comparison).toMatchObject({ status: 'ahead', complete: false, head: { sha: head } });
    expect(comparison.files).toHaveLength(300);
    expect(await source.batchReads!.compare(repository, head, base)).toMatchObject({ status: 'behind', head: null });
    await forcePush(dir, 'unrelated', { 'x.txt': 'x\n' });
    expect(await source.batchReads!.compare(repository, base, 'unrelated').catch((e: unknown) => e)).toMatchObject({ code: 'NOT_FOUND' });
    expect(standIn.requests.counts()).toEqual({ 'GET /repos/:owner/:repo/compare/*basehead': 4 });
  });

  it("answers the files of a commit with GitHub's types; text that is not the file's bytes is left to the blob", async () => {
    const files: FileChanges = {
      'text.md': '# title\n',
      'latin1.txt': Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]),
      'bom.txt': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('bom\n')]),
      'zero.bin': Buffer.from([1, 0, 2]),
      'tool.sh': { content: '#!/bin/sh\n', executable: true },
      link: { symlink: 'text.md' },
    };
    const head = await commitFiles(dir, files, 'kinds');
    const read = await source.batchReads!.files(repository, head, [...Object.keys(files), 'missing.txt', 'src']);
    expect(read.repository).toMatchObject({ id: repository.id, fullName: 'acme/gq', defaultBranch: 'main', private: false });
    const got = Object.fromEntries([...read.files].map(([path, f]) => [path, { mode: f.mode, type: f.type, content: f.content?.toString('utf8') ?? null }]));
    expect(got).toEqual({
      'text.md': { mode: '100644', type: 'blob', content: '# title\n' },
      'latin1.txt': { mode: '100644', type: 'blob', content: null },
      'bom.txt': { mode: '100644', type: 'blob', content: null },
      'zero.bin': { mode: '100644', type: 'blob', content: null },
      'tool.sh': { mode: '100755', type: 'blob', content: '#!/bin/sh\n' },
      link: { mode: '120000', type: 'blob', content: 'text.md' },
      src: { mode: '040000', type: 'tree', content: null },
    });
    expect(standIn.requests.counts()).toEqual({ 'POST /graphql': 1 });
    const raw = await post({
      query: `{ repository(owner: "acme", name: "gq") { object(oid: "${head}") { ... on Commit { file(path: "zero.bin") { object { ... on Blob { text isBinary byteSize } } } } } } }`,
    });
    expect(raw.body).toEqual({ data: { repository: { object: { file: { object: { text: null, isBinary: true, byteSize: 3 } } } } } });
    expect(raw.headers.get('x-ratelimit-resource')).toBe('graphql');
  });

  it("refuses what GitHub refuses, in GitHub's shapes", async () => {
    expect((await post({ query: '{ rateLimit { cost } }' }, null)).status).toBe(401);
    const unknownField = await post({ query: '{ repository(owner: "acme", name: "gq") { secrets } }' });
    expect(unknownField.status).toBe(200);
    expect(unknownField.body.errors?.[0]?.message).toMatch(/secrets/);
    const missing = await post({ query: '{ repository(owner: "acme", name: "nope") { databaseId } }' });
    expect(missing.body).toMatchObject({ data: { repository: null }, errors: [{ type: 'NOT_FOUND', path: ['repository'], message: "Could not resolve to a Repository with the name 'acme/nope'." }] });
    expect((await source.batchReads!.files({ ...repository, fullName: 'acme/nope' }, base, ['a'])).repository).toBeNull();
  });

  it('splits a query whose answer is too large (502) and reads cut text as blobs', async () => {
    const big: FileChanges = {};
    for (let i = 0; i < 24; i += 1) big[`big/f${i}.txt`] = `${i}`.padEnd(GRAPHQL_TEXT_LIMIT_BYTES + 10, 'x');
    const head = await commitFiles(dir, big, 'big');
    const read = await source.batchReads!.files(repository, head, Object.keys(big));
    expect(read.files.size).toBe(24);
    expect([...read.files.values()].every((f) => f.content === undefined && f.size === GRAPHQL_TEXT_LIMIT_BYTES + 10)).toBe(true);
    const answers = standIn.requests.list().map((e) => e.status);
    expect(answers[0]).toBe(502);
    expect(answers.filter((s) => s === 200).length).toBeGreaterThanOrEqual(2);
  });

  it('GraphQL rate limits and faults are decided like REST ones: wait, retry, or give up', async () => {
    const limited = await createGitHubStandIn({ root, token: TOKEN, rateLimit: { limit: 1 } });
    try {
      const limitedSource = new GitHubSource({ baseUrl: limited.url, token: TOKEN, maxInlineWaitSeconds: 0 });
      await limitedSource.batchReads!.files(repository, base, ['src/a.ts']);
      const error = await limitedSource.batchReads!.files(repository, base, ['src/a.ts']).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PortError);
      expect(error).toMatchObject({ code: 'RATE_LIMITED', retriable: true });
      expect((error as PortError).retryAfterMs).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
    standIn.faults.add({ type: '5xx', status: 503, count: 3, route: '/graphql' });
    expect(await source.batchReads!.files(repository, base, ['src/a.ts']).catch((e: unknown) => e)).toMatchObject({ code: 'UNAVAILABLE', retriable: true });
    standIn.faults.clear();
    standIn.faults.add({ type: 'rate_limit', kind: 'secondary', count: 1, route: '/graphql', retryAfter: 30 });
    expect(await source.batchReads!.files(repository, base, ['src/a.ts']).catch((e: unknown) => e)).toMatchObject({ code: 'RATE_LIMITED', retriable: true, retryAfterMs: 30_000 });
  });
});
