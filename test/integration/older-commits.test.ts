import { join } from 'node:path';
import type { ReadFileOutput, ListFilesOutput } from '@gitdex/contracts';
import { GitHubSource } from '@gitdex/github';
import { DEFAULT_INDEX_REF_OPTIONS, indexRef } from '@gitdex/indexer';
import { callTool, resolveDeps, type ReaderDeps } from '@gitdex/reader';
import { SqliteIndexStore } from '@gitdex/sqlite';
import { commitFiles, createRepo, makeTempRoot, removeTempRoot } from '../github-standin/fixture-repos';
import { createGitHubStandIn, type GitHubStandIn } from '../github-standin/server';
import { repositoryDocumentOf } from '../support/repository-document';

const MAIN = 'refs/heads/main';

describe('older commits the index still holds are readable by sha, prefix and main~N', () => {
  let root: string;
  let standIn: GitHubStandIn;
  let index: SqliteIndexStore;
  let deps: ReaderDeps;
  const shas: string[] = [];

  beforeAll(async () => {
    root = await makeTempRoot('gitdex-older-');
    const repo = await createRepo(root, 'acme', 'history', { VERSION: 'v0\n', 'keep.txt': 'same\n' });
    standIn = await createGitHubStandIn({ root, rateLimit: { limit: 1_000_000 } });
    index = new SqliteIndexStore({ file: join(root, 'index.sqlite') });
    await index.ensureReady();
    const source = new GitHubSource({ baseUrl: standIn.url });
    const repository = (await source.repositoryByName('acme/history'))!;
    await index.putRepository(repositoryDocumentOf(repository));
    // Commits v0..v5, each indexed as it is pushed; two older commits are retained besides the newest.
    const options = { ...DEFAULT_INDEX_REF_OPTIONS, retainedGenerations: 2 };
    for (let version = 0; version <= 5; version += 1) {
      const sha = version === 0 ? repo.sha! : await commitFiles(repo.dir, { VERSION: `v${version}\n`, [`added-in-v${version}.txt`]: 'x\n' }, `v${version}`);
      shas.push(sha);
      const head = (await source.head(repository, 'main'))!;
      expect(head.sha).toBe(sha);
      await indexRef({ index, source, options, now: () => new Date() }, { repository, ref: MAIN, head });
    }
    deps = resolveDeps({ index });
  });

  afterAll(async () => {
    await index?.close();
    await standIn?.close();
    if (root) await removeTempRoot(root);
  });

  const run = async (name: 'read_file' | 'list_files', args: Record<string, unknown>): Promise<{ isError: boolean; structured?: unknown; text: string }> => {
    try {
      const answer = await callTool(deps, name, args, null, { transport: 'memory' });
      return { isError: false, structured: answer.structured, text: answer.text };
    } catch (error) {
      return { isError: true, text: (error as Error).message };
    }
  };
  const read = async (ref: string) => run('read_file', { repository: 'acme/history', path: 'VERSION', ref });

  it('keeps the newest commit and the configured number of older ones in the ref state', async () => {
    const state = (await index.getRefState((await index.findRepositoryByName('acme/history'))!.repositoryId, MAIN))!;
    expect(state.history?.map((c) => c.commitSha)).toEqual([shas[5], shas[4], shas[3]]);
    expect(state.history?.[0]?.parentShas).toEqual([shas[4]]);
  });

  it('reads an older commit by full sha and by a 7-digit prefix, and says so in its freshness', async () => {
    for (const ref of [shas[3]!, shas[3]!.slice(0, 7)]) {
      const out = await read(ref);
      expect(out.isError).toBeFalsy();
      const file = out.structured as ReadFileOutput;
      expect(file.content).toBe('v3');
      expect(file.freshness).toMatchObject({ commit: shas[3], older_commit: true, ref_head: shas[5] });
      expect(file.url).toContain(shas[3]);
    }
    const newest = (await read(shas[5]!.slice(0, 8))).structured as ReadFileOutput;
    expect(newest.content).toBe('v5');
    expect(newest.freshness.older_commit).toBeUndefined();
  });

  it("resolves main~N along first parents within what is held, and lists an older commit's files as they were", async () => {
    expect(((await read('main~2')).structured as ReadFileOutput).content).toBe('v3');
    expect(((await read('main~1')).structured as ReadFileOutput).content).toBe('v4');
    expect(((await read(`${shas[4]!.slice(0, 10)}~1`)).structured as ReadFileOutput).content).toBe('v3');
    const listing = (await run('list_files', { repository: 'acme/history', ref: 'main~2' })).structured as ListFilesOutput;
    expect(listing.entries.map((e) => e.path)).toEqual(['VERSION', 'added-in-v1.txt', 'added-in-v2.txt', 'added-in-v3.txt', 'keep.txt']);
    expect(listing.freshness).toMatchObject({ commit: shas[3], older_commit: true });
  });

  it('answers a commit beyond retention with the commits it holds', async () => {
    const beyond = await read('main~3');
    expect(beyond.isError).toBe(true);
    expect(beyond.text).toMatch(/main~3 reaches past what gitdex holds/);
    expect(beyond.text).toContain(shas[3]!.slice(0, 12));
    const old = await read(shas[1]!.slice(0, 9));
    expect(old.isError).toBe(true);
    expect(old.text).toMatch(/not held/);
    for (const held of [shas[5], shas[4], shas[3]]) expect(old.text).toContain(held!.slice(0, 12));
  });
});
