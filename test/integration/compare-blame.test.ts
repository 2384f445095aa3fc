/**
 * compare and blame through the tool table, on both index backends, from history the indexer
 * recorded from the GitHub stand-in: equal to `git diff -M base...head` and `git blame` on the
 * stand-in's own repository, over pushes of several commits with edits, a rename with edits,
 * a deletion, a binary file and a merge (blamed from the blames kept before it). A fresh reader
 * (nothing in memory) blames from the version blames the indexer stored, after a push and after
 * a backfill, reading no blob. One stand-in and one indexing per backend serve every case.
 */
import { execFileSync } from 'node:child_process';
import { Client } from '@elastic/elasticsearch';
import { ElasticsearchHistory, ElasticsearchIndexStore } from '@gitdex/elasticsearch';
import { GitHubSource } from '@gitdex/github';
import { DEFAULT_INDEX_REF_OPTIONS, indexRef } from '@gitdex/indexer';
import type { HistoryReads, HistoryStore, IndexStore } from '@gitdex/ports';
import { resolveDeps } from '@gitdex/reader';
import { SqliteHistory, SqliteIndexStore } from '@gitdex/sqlite';
import { join } from 'node:path';
import { commitFiles, createBranch, createRepo, fixtureGit, makeTempRoot, removeTempRoot, resetBranch, type FixtureRepo } from '../github-standin/fixture-repos';
import { createGitHubStandIn, type GitHubStandIn } from '../github-standin/server';
import { toolRunner } from '../support/tool-backends';
import { repositoryDocumentOf } from '../support/repository-document';

const MAIN = 'refs/heads/main';
const lines = (n: number, tag: string): string => Array.from({ length: n }, (_, i) => (i % 9 === 8 ? '}' : `${tag} line ${i}`)).join('\n') + '\n';

function git(dir: string, args: string[]): string {
  return execFileSync('git', args, { cwd: dir, env: { PATH: process.env.PATH ?? '', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', LC_ALL: 'C' }, maxBuffer: 64 << 20 }).toString('utf8');
}

/** git diff -M base...head as compare's files: path, previous_path, status and the hunks. */
function gitFiles(dir: string, base: string, head: string, context: number, ...pathspec: string[]): { path: string; previous_path?: string; status: string; patch?: string }[] {
  const names = { A: 'added', D: 'removed', M: 'modified', R: 'renamed' } as Record<string, string>;
  const statuses = git(dir, ['diff', '-M', '--name-status', '-z', `${base}...${head}`, '--', ...pathspec])
    .split('\u0000')
    .filter(Boolean);
  const sections = git(dir, ['diff', '-M', `-U${context}`, `${base}...${head}`, '--', ...pathspec])
    .split(/^diff --git /m)
    .slice(1);
  const files = [];
  for (let i = 0, n = 0; i < statuses.length; n++) {
    const code = statuses[i++]!;
    const previous = code.startsWith('R') ? statuses[i++] : undefined;
    const path = statuses[i++]!;
    const section = sections[n]!;
    const at = section.indexOf('\n@@');
    const binary = /^Binary files .* differ$/m.test(section);
    files.push({ path, ...(previous ? { previous_path: previous } : {}), status: names[code[0]!]!, ...(binary ? {} : { patch: at === -1 ? '' : section.slice(at + 1) }) });
  }
  return files;
}

/** git blame as one commit sha per line. */
function gitBlame(dir: string, rev: string, path: string): string[] {
  return git(dir, ['blame', '--line-porcelain', rev, '--', path])
    .split('\n')
    .filter((l) => /^[0-9a-f]{40} \d+ \d+/.test(l))
    .map((l) => l.slice(0, 40));
}

/** A reader's view of the store as a new object (so a fresh memo and commit cache), counting what it reads. */
function freshReads(history: HistoryStore): { reads: HistoryReads; counts: { blobReads: number; blamesRead: number } } {
  const counts = { blobReads: 0, blamesRead: 0 };
  const reads: HistoryReads = {
    getRefHistory: (...args) => history.getRefHistory(...args),
    getCommits: (...args) => history.getCommits(...args),
    readHistoryBlobs: (...args) => {
      counts.blobReads++;
      return history.readHistoryBlobs(...args);
    },
    getVersionBlames: async (...args) => {
      const found = await history.getVersionBlames(...args);
      counts.blamesRead += found.length;
      return found;
    },
  };
  return { reads, counts };
}

interface Backend {
  index: IndexStore;
  history: HistoryStore;
  close(): Promise<void>;
}

const prefix = `cmpblame${Date.now().toString(36)}`;
const backends: [string, (root: string) => Promise<Backend>][] = [
  [
    'SQLite',
    async (root) => {
      const index = new SqliteIndexStore({ file: join(root, 'index.sqlite') });
      const history = new SqliteHistory({ file: join(root, 'history.sqlite') });
      return { index, history, close: async () => index.close() };
    },
  ],
  [
    'Elasticsearch',
    async () => {
      const index = new ElasticsearchIndexStore({ node: process.env.ELASTICSEARCH_URL as string, indexPrefix: prefix });
      const history = new ElasticsearchHistory(index.client, { indexPrefix: prefix });
      return { index, history, close: async () => index.close() };
    },
  ],
];

afterAll(async () => {
  const admin = new Client({ node: process.env.ELASTICSEARCH_URL as string });
  await admin.indices.delete({ index: `${prefix}-*`, expand_wildcards: 'all', ignore_unavailable: true, allow_no_indices: true });
  await admin.indices.deleteIndexTemplate({ name: `${prefix}-*` }).catch(() => undefined);
  await admin.close();
});

describe.each(backends)('compare and blame equal git (%s)', (_name, open) => {
  let root: string;
  let standIn: GitHubStandIn;
  let backend: Backend;
  let repo: FixtureRepo;
  let run: ReturnType<typeof toolRunner>;
  let push: () => Promise<void>;
  let deep: FixtureRepo;
  const pushes: string[] = [];
  /** A fresh reader's blame, per line the commit sha, and what it read. */
  const coldBlame = async (repository: string, path: string) => {
    const { reads, counts } = freshReads(backend.history);
    const answer = await toolRunner(() => resolveDeps({ index: backend.index, history: reads }))('blame', { repository, path });
    if (answer.isError) throw new Error(answer.text);
    const out = answer.structured as { ranges: { start_line: number; end_line: number; commit: { sha: string } }[] };
    return { perLine: out.ranges.flatMap((r) => Array.from({ length: r.end_line - r.start_line + 1 }, () => r.commit.sha)), counts };
  };

  beforeAll(async () => {
    root = await makeTempRoot('gitdex-cmpblame-');
    repo = await createRepo(root, 'acme', 'story', {
      'src/app.ts': lines(60, 'app'),
      'old/name.txt': lines(30, 'name'),
      'README.md': '# story\n',
      'logo.bin': Buffer.from([0, 1, 2, 3]),
    });
    // Recorded by a backfill: several commits before the first index.
    deep = await createRepo(root, 'acme', 'deep', { 'src/deep.ts': lines(80, 'deep'), 'other.md': '# other\n' });
    for (let i = 1; i <= 4; i++) {
      const before = await fixtureGit(deep.dir, ['show', 'HEAD:src/deep.ts']).then((b) => b.toString('utf8'));
      await commitFiles(deep.dir, { 'src/deep.ts': before.replace(`deep line ${i * 15}\n`, `deep line ${i * 15} edit ${i}\nadded ${i}\n`) }, `deep edit ${i}`);
    }
    standIn = await createGitHubStandIn({ root, rateLimit: { limit: 1_000_000 } });
    backend = await open(root);
    await backend.index.ensureReady();
    await backend.history.ensureHistoryReady();
    const source = new GitHubSource({ baseUrl: standIn.url, token: 'history-reads' });
    const repository = (await source.repositoryByName('acme/story'))!;
    await backend.index.putRepository(repositoryDocumentOf(repository));
    const deps = {
      index: backend.index,
      source,
      options: DEFAULT_INDEX_REF_OPTIONS,
      now: () => new Date(),
      history: { store: backend.history, options: { depth: 500, maxBlobBytes: 1 << 20, concurrency: 4 } },
    };
    push = async (): Promise<void> => {
      const head = (await source.head(repository, 'main'))!;
      await indexRef(deps, { repository, ref: MAIN, head });
      pushes.push(head.sha);
    };
    const deepRepository = (await source.repositoryByName('acme/deep'))!;
    await backend.index.putRepository(repositoryDocumentOf(deepRepository));
    await indexRef(deps, { repository: deepRepository, ref: MAIN, head: (await source.head(deepRepository, 'main'))! });
    await push();
    // One push of three commits: edits, a rename with edits, a deletion, a new file, a binary change.
    const app1 = lines(60, 'app').replace('app line 10\n', 'app line 10 edited\n').replace('app line 40\n', 'app line 40\nnew line after 40\n');
    await commitFiles(repo.dir, { 'src/app.ts': app1 }, 'edit app');
    await commitFiles(repo.dir, { 'old/name.txt': null, 'new/name.txt': lines(30, 'name').replace('name line 3\n', 'name line 3 renamed\n') }, 'move name.txt with an edit');
    await commitFiles(repo.dir, { 'README.md': null, 'docs/guide.md': lines(12, 'guide'), 'logo.bin': Buffer.from([0, 9, 9]) }, 'docs');
    await push();
    await commitFiles(repo.dir, { 'src/app.ts': app1.replace('app line 20\n', '').replace('app line 50\n', 'app line 50 again\n') }, 'more app');
    await push();
    run = toolRunner(() => resolveDeps({ index: backend.index, history: backend.history }));
  });

  afterAll(async () => {
    await backend?.close();
    await standIn?.close();
    if (root) await removeTempRoot(root);
  });

  const files = async (args: Record<string, unknown>) => {
    const answer = await run('compare', { repository: 'acme/story', ...args });
    if (answer.isError) throw new Error(answer.text);
    const out = answer.structured as { files: { path: string; previous_path?: string; status: string; patch?: string }[] };
    return out.files.map((f) => ({ path: f.path, ...(f.previous_path ? { previous_path: f.previous_path } : {}), status: f.status, ...(f.patch !== undefined ? { patch: f.patch } : {}) }));
  };

  it('compares a push of several commits as git diff -M base...head does', async () => {
    expect(await files({ base: pushes[0], head: 'main' })).toEqual(gitFiles(repo.dir, pushes[0]!, 'main', 3));
    expect(await files({ base: 'main~1', head: 'main', context_lines: 0 })).toEqual(gitFiles(repo.dir, 'main~1', 'main', 0));
    expect(await files({ base: pushes[0]!.slice(0, 8), head: pushes[1], path: 'new' })).toEqual(gitFiles(repo.dir, pushes[0]!, pushes[1]!, 3, 'new'));
  });

  it('counts the changed files in words', async () => {
    const one = await run('compare', { repository: 'acme/story', base: 'main~1', head: 'main' });
    expect(one.text.split('\n')[0]).toMatch(/, 1 file changed$/);
    expect(one.text).toContain('(1 of 1 file from file 1;');
    const several = await run('compare', { repository: 'acme/story', base: pushes[0], head: pushes[1] });
    expect(several.text.split('\n')[0]).toMatch(new RegExp(`, ${gitFiles(repo.dir, pushes[0]!, pushes[1]!, 3).length} files changed$`));
  });

  it('blames every line on the commit git blame names, across the rename', async () => {
    for (const path of ['src/app.ts', 'new/name.txt']) {
      const answer = await run('blame', { repository: 'acme/story', path });
      if (answer.isError) throw new Error(answer.text);
      const out = answer.structured as { ranges: { start_line: number; end_line: number; commit: { sha: string } }[] };
      const perLine = out.ranges.flatMap((r) => Array.from({ length: r.end_line - r.start_line + 1 }, () => r.commit.sha));
      expect({ path, perLine }).toEqual({ path, perLine: gitBlame(repo.dir, 'main', path) });
    }
    const some = await run('blame', { repository: 'acme/story', path: 'src/app.ts', start_line: 9, end_line: 12 });
    expect(some.structured).toMatchObject({ ranges: [{ start_line: 9 }, { start_line: 11, end_line: 11 }, { end_line: 12 }] });
  });

  it('blames from the stored version blames in a fresh reader, after a push and after a backfill, equal to git and reading no blob', async () => {
    for (const [repository, dir, path] of [
      ['acme/story', repo.dir, 'src/app.ts'],
      ['acme/story', repo.dir, 'new/name.txt'],
      ['acme/deep', deep.dir, 'src/deep.ts'],
    ] as const) {
      const cold = await coldBlame(repository, path);
      expect({ path, perLine: cold.perLine }).toEqual({ path, perLine: gitBlame(dir, 'main', path) });
      expect({ path, ...cold.counts }).toEqual({ path, blobReads: 0, blamesRead: 1 });
    }
  });

  it('blames a merge and a push of several commits as git does, building on the blames kept from before', async () => {
    const blamed = async (path: string): Promise<string[]> => {
      const answer = await run('blame', { repository: 'acme/story', path });
      if (answer.isError) throw new Error(answer.text);
      const out = answer.structured as { ranges: { start_line: number; end_line: number; commit: { sha: string } }[] };
      return out.ranges.flatMap((r) => Array.from({ length: r.end_line - r.start_line + 1 }, () => r.commit.sha));
    };
    const app = await fixtureGit(repo.dir, ['show', 'main:src/app.ts']).then((b) => b.toString('utf8'));
    // Kept in memory from the case above: the next blames start from them.
    expect(await blamed('src/app.ts')).toEqual(gitBlame(repo.dir, 'main', 'src/app.ts'));
    await createBranch(repo.dir, 'side', 'main');
    const sideApp = app.replace('app line 2\n', 'app line 2 on side\n');
    await commitFiles(repo.dir, { 'src/app.ts': sideApp }, 'side edits the top', { branch: 'side' });
    await commitFiles(repo.dir, { 'src/app.ts': sideApp.replace('app line 5\n', 'app line 5 on side\n'), 'docs/guide.md': lines(14, 'guide') }, 'side again', { branch: 'side' });
    await commitFiles(repo.dir, { 'src/app.ts': app.replace('app line 55\n', 'app line 55 on main\n') }, 'main edits the bottom');
    await fixtureGit(repo.dir, ['merge', '--no-ff', '--no-edit', '-q', 'side'], undefined, {
      GIT_AUTHOR_NAME: 'Merger',
      GIT_AUTHOR_EMAIL: 'm@example.com',
      GIT_COMMITTER_NAME: 'Merger',
      GIT_COMMITTER_EMAIL: 'm@example.com',
    });
    await push();
    for (const path of ['src/app.ts', 'new/name.txt', 'docs/guide.md']) expect({ path, lines: await blamed(path) }).toEqual({ path, lines: gitBlame(repo.dir, 'main', path) });
    // The merge's version was stored by the indexer too.
    const cold = await coldBlame('acme/story', 'src/app.ts');
    expect({ perLine: cold.perLine, ...cold.counts }).toEqual({ perLine: gitBlame(repo.dir, 'main', 'src/app.ts'), blobReads: 0, blamesRead: 1 });
  });

  it('after a force push that rewrites history, answers as git does on the rewritten branch', async () => {
    await resetBranch(repo.dir, 'main', pushes[1]!);
    await commitFiles(repo.dir, { 'src/app.ts': lines(61, 'app'), 'new/name.txt': null }, 'rewrite');
    await push();
    expect(await files({ base: pushes[0], head: 'main' })).toEqual(gitFiles(repo.dir, pushes[0]!, 'main', 3));
    const answer = await run('blame', { repository: 'acme/story', path: 'src/app.ts' });
    const out = answer.structured as { ranges: { start_line: number; end_line: number; commit: { sha: string } }[] };
    const perLine = out.ranges.flatMap((r) => Array.from({ length: r.end_line - r.start_line + 1 }, () => r.commit.sha));
    expect(perLine).toEqual(gitBlame(repo.dir, 'main', 'src/app.ts'));
    // The rewritten history has other held keys: a fresh reader reads their stored blames, equal to git.
    const cold = await coldBlame('acme/story', 'src/app.ts');
    expect({ perLine: cold.perLine, ...cold.counts }).toEqual({ perLine: gitBlame(repo.dir, 'main', 'src/app.ts'), blobReads: 0, blamesRead: 1 });
  });

  it('answers a missing file and an unknown base as a caller error', async () => {
    expect((await run('blame', { repository: 'acme/story', path: 'nope.ts' })).isError).toBe(true);
    expect((await run('compare', { repository: 'acme/story', base: 'no-such-branch', head: 'main' })).isError).toBe(true);
  });
});
