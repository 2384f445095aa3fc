import { join } from 'node:path';
import type { GitdexEvent, ReadFileOutput } from '@gitdex/contracts';
import { GitHubSource } from '@gitdex/github';
import { DEFAULT_INDEX_REF_OPTIONS, handleEvent, RefSelection, type HandleEventDeps } from '@gitdex/indexer';
import { callTool, resolveDeps } from '@gitdex/reader';
import { SqliteIndexStore } from '@gitdex/sqlite';
import { commitFiles, createRepo, createTag, fixtureGit, makeTempRoot, removeTempRoot } from '../github-standin/fixture-repos';
import { createGitHubStandIn, type GitHubStandIn } from '../github-standin/server';

describe('tags selected by GITDEX_INDEXED_REFS full-ref globs', () => {
  let root: string;
  let standIn: GitHubStandIn;
  let index: SqliteIndexStore;
  let deps: HandleEventDeps;
  let repositoryId: number;
  let dir: string;
  const shas: string[] = [];
  let n = 0;
  const event = (extra: Record<string, unknown>): GitdexEvent =>
    ({ eventId: `e-${(n += 1)}`, repository: { id: repositoryId, fullName: 'acme/tagged' }, receivedAt: new Date().toISOString(), ...extra }) as GitdexEvent;

  beforeAll(async () => {
    root = await makeTempRoot('gitdex-tags-');
    const repo = await createRepo(root, 'acme', 'tagged', { VERSION: 'one\n' });
    dir = repo.dir;
    shas.push(repo.sha!);
    await createTag(dir, 'v1.0', 'HEAD', { message: 'Release 1.0' }); // annotated
    shas.push(await commitFiles(dir, { VERSION: 'two\n' }, 'two'));
    await createTag(dir, 'v2.0'); // lightweight
    await createTag(dir, 'nightly'); // not selected
    standIn = await createGitHubStandIn({ root, rateLimit: { limit: 1_000_000 } });
    repositoryId = await standIn.repoId('acme', 'tagged');
    index = new SqliteIndexStore({ file: join(root, 'index.sqlite') });
    await index.ensureReady();
    deps = { index, source: new GitHubSource({ baseUrl: standIn.url }), options: DEFAULT_INDEX_REF_OPTIONS, now: () => new Date(), refs: new RefSelection(['default', 'refs/tags/v*']) };
  });

  afterAll(async () => {
    await index?.close();
    await standIn?.close();
    if (root) await removeTempRoot(root);
  });

  const refs = async () => Object.fromEntries((await index.listRefStates(repositoryId)).map((s) => [s.ref, s.commitSha]));

  it('a backfill indexes the default branch and the selected tags, annotated tags peeled to their commit', async () => {
    await handleEvent(deps, event({ kind: 'backfill', reason: 'cli' }));
    expect(await refs()).toEqual({ 'refs/heads/main': shas[1], 'refs/tags/v1.0': shas[0], 'refs/tags/v2.0': shas[1] });
    const reader = resolveDeps({ index });
    const v1 = await callTool(reader, 'read_file', { repository: 'acme/tagged', path: 'VERSION', ref: 'v1.0' }, null, { transport: 'memory' });
    expect(v1.structured as ReadFileOutput).toMatchObject({ ref: 'refs/tags/v1.0', content: 'one', freshness: { commit: shas[0] } });
    const full = await callTool(reader, 'read_file', { repository: 'acme/tagged', path: 'VERSION', ref: 'refs/tags/v2.0' }, null, { transport: 'memory' });
    expect((full.structured as ReadFileOutput).content).toBe('two');
  });

  it('follows tag create, push and delete events', async () => {
    shas.push(await commitFiles(dir, { VERSION: 'three\n' }, 'three'));
    await createTag(dir, 'v3.0', 'HEAD', { message: 'Release 3.0' });
    await handleEvent(deps, event({ kind: 'backfill', reason: 'tag_created', ref: 'refs/tags/v3.0' }));
    expect((await refs())['refs/tags/v3.0']).toBe(shas[2]);
    // A tag moved (force-pushed) to another commit.
    await fixtureGit(dir, ['tag', '-f', 'v2.0', shas[0]!]);
    await handleEvent(deps, event({ kind: 'push', ref: 'refs/tags/v2.0', before: shas[1], after: shas[0], created: false, deleted: false, forced: true }));
    expect((await refs())['refs/tags/v2.0']).toBe(shas[0]);
    // Deleted on GitHub: the purge drops it; a tag the globs do not select never enters.
    await fixtureGit(dir, ['tag', '-d', 'v1.0']);
    await handleEvent(deps, event({ kind: 'purge', reason: 'tag_deleted', ref: 'refs/tags/v1.0' }));
    await handleEvent(deps, event({ kind: 'backfill', reason: 'tag_created', ref: 'refs/tags/nightly' }));
    expect(Object.keys(await refs()).sort()).toEqual(['refs/heads/main', 'refs/tags/v2.0', 'refs/tags/v3.0']);
  });
});
