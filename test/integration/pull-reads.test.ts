// Reading and searching a pull request's head through the tool path, on both index adapters,
// with the ref states written through the index port as the indexer writes them. Each pull
// request head is stored whole here, its underlay shadowing every path, so these answers hold
// whether or not an adapter layers the underlay in (pull-reads-underlay.test.ts needs it to).
import type { ListFilesOutput, ReadFileOutput, RefState, RepositoriesStateOutput, RepositoryOverviewOutput, SearchCodeOutput } from '@gitdex/contracts';
import type { IndexStore } from '@gitdex/ports';
import { resolveDeps, type ReaderDeps } from '@gitdex/reader';
import { seedRepository } from '../../services/reader/test/support/documents';
import { indexBackends, toolRunner } from '../support/tool-backends';

jest.setTimeout(180_000);

const REPO = 'acme/app';
const ID = 41;
const MAIN_FILES = {
  'README.md': '# App\n',
  'src/app.ts': "export const version = 'main';\n",
  'src/util.ts': 'export const helper = 1;\n',
  'docs/old.md': 'old notes\n',
};
/** pull/7 changes src/app.ts, adds src/new.ts and deletes docs/old.md. */
const PULL_7_FILES = {
  'README.md': '# App\n',
  'src/app.ts': "export const version = 'pull-7';\n",
  'src/util.ts': 'export const helper = 1;\n',
  'src/new.ts': "export const added = 'pull-7';\n",
};
const PULL_8_FILES = { ...MAIN_FILES, 'src/app.ts': "export const version = 'pull-8';\n" };

function pull(number: number, headSha: string, state: 'open' | 'closed', updatedAt: string): NonNullable<RefState['pull']> {
  return { number, title: `Change ${number}`, state, merged: false, draft: number === 7, author: 'octocat', baseRef: 'main', headSha, updatedAt, closedAt: state === 'closed' ? updatedAt : null };
}

async function seed(index: IndexStore): Promise<void> {
  await index.ensureReady();
  const main = await seedRepository(index, { id: ID, fullName: REPO, files: MAIN_FILES });
  const seven = await seedRepository(index, { id: ID, fullName: REPO, ref: 'refs/pull/7/head', commitLabel: 'pull 7', files: PULL_7_FILES });
  const shadowed = [...new Set([...Object.keys(MAIN_FILES), ...Object.keys(PULL_7_FILES)])].sort();
  await index.putRefState({
    ...seven.state,
    pull: pull(7, seven.state.commitSha!, 'open', '2026-01-05T00:00:00.000Z'),
    underlay: { ref: main.state.ref, generation: main.state.generation, shadowed },
  });
  // Closed within retention: readable, searchable, not listed as open.
  const eight = await seedRepository(index, { id: ID, fullName: REPO, ref: 'refs/pull/8/head', commitLabel: 'pull 8', files: PULL_8_FILES });
  await index.putRefState({ ...eight.state, pull: pull(8, eight.state.commitSha!, 'closed', '2026-01-06T00:00:00.000Z') });
  await (index as IndexStore & { refresh?: () => Promise<void> }).refresh?.();
}

const BACKENDS = indexBackends('pullreads');

describe.each(BACKENDS)('pull requests through the tools, on %s', (_name, make) => {
  let index: IndexStore;
  let deps: ReaderDeps;
  beforeAll(async () => {
    index = make();
    await seed(index);
    deps = resolveDeps({ index });
  });
  afterAll(async () => {
    await index?.close();
  });

  const run = toolRunner(() => deps);
  const content = async (args: Record<string, unknown>) => {
    const out = await run('read_file', { repository: REPO, ...args });
    expect(out.text).not.toMatch(/^(No file|Ref )/);
    return (out.structured as ReadFileOutput).content;
  };

  test('read_file at pull/N, refs/pull/N/head and PR URLs reads the head; main is unchanged', async () => {
    expect(await content({ path: 'src/app.ts', ref: 'pull/7' })).toBe("export const version = 'pull-7';");
    expect(await content({ path: 'src/app.ts', ref: 'refs/pull/7/head' })).toBe("export const version = 'pull-7';");
    expect(await content({ path: `https://github.com/${REPO}/pull/7/files/src/new.ts` })).toBe("export const added = 'pull-7';");
    expect(await content({ path: `https://github.com/${REPO}/blob/refs/pull/7/head/src/app.ts` })).toBe("export const version = 'pull-7';");
    expect(await content({ path: 'src/app.ts' })).toBe("export const version = 'main';");
    // A pull request's URL as the repository: that pull request, unless ref says otherwise.
    expect(((await run('read_file', { repository: `https://github.com/${REPO}/pull/7`, path: 'src/app.ts' })).structured as ReadFileOutput).content).toBe("export const version = 'pull-7';");
    expect(((await run('read_file', { repository: `https://github.com/${REPO}/pull/7`, path: 'src/app.ts', ref: 'main' })).structured as ReadFileOutput).content).toBe(
      "export const version = 'main';",
    );
    // Closed, within retention: still readable.
    expect(await content({ path: 'src/app.ts', ref: 'pull/8' })).toBe("export const version = 'pull-8';");
    const read = (await run('read_file', { repository: REPO, path: 'src/util.ts', ref: 'pull/7' })).structured as ReadFileOutput;
    const seven = await index.getRefState(ID, 'refs/pull/7/head');
    expect(read.freshness.commit).toBe(seven?.commitSha);
  });

  test("list_files at a pull request lists its head's tree, the deleted file gone", async () => {
    const root = (await run('list_files', { repository: REPO, ref: 'pull/7', depth: 3 })).structured as ListFilesOutput;
    expect(root.entries.filter((e) => e.type === 'file').map((e) => e.path)).toEqual(['README.md', 'src/app.ts', 'src/new.ts', 'src/util.ts']);
    const src = (await run('list_files', { repository: REPO, folder: `https://github.com/${REPO}/pull/7/files/src` })).structured as ListFilesOutput;
    expect(src.entries.map((e) => e.path)).toEqual(['src/app.ts', 'src/new.ts', 'src/util.ts']);
    const gone = await run('read_file', { repository: REPO, path: 'docs/old.md', ref: 'pull/7' });
    expect(gone.isError).toBe(true);
    expect(gone.text).toContain('No file docs/old.md in acme/app at pull/7');
  });

  test('an unknown pull request answers like an unknown ref, listing the indexed refs', async () => {
    for (const args of [{ ref: 'pull/99' }, { path: `https://github.com/${REPO}/pull/99/files/README.md` }]) {
      const out = await run('read_file', { repository: REPO, path: 'README.md', ...args });
      expect(out.isError).toBe(true);
      expect(out.text).toMatch(/Ref pull\/99 is not indexed for acme\/app\..* Indexed refs: .*main.*pull\/7.*pull\/8/);
    }
  });

  test('search_code over refs ["main", "pull/*"] searches each, and each hit names its ref', async () => {
    const out = await run('search_code', { repository: REPO, query: 'version', refs: ['main', 'pull/*'] });
    const found = out.structured as SearchCodeOutput;
    expect(found.repositories.map((r) => r.ref)).toEqual(['refs/heads/main', 'refs/pull/7/head', 'refs/pull/8/head']);
    expect(found.files.map((f) => `${f.ref} ${f.path} ${f.matches[0]?.text}`).sort()).toEqual([
      "refs/heads/main src/app.ts export const version = 'main';",
      "refs/pull/7/head src/app.ts export const version = 'pull-7';",
      "refs/pull/8/head src/app.ts export const version = 'pull-8';",
    ]);
    expect(out.text).toContain('acme/app at pull/7 src/app.ts');
    // Pages of a search of several refs: each file once, the cursor pinned to every ref's commit.
    const pages: string[] = [];
    let cursor: string | null | undefined;
    do {
      const page = (await run('search_code', { repository: REPO, query: 'version', refs: ['main', 'pull/*'], limit: 1, ...(cursor ? { cursor } : {}) })).structured as SearchCodeOutput;
      pages.push(...page.files.map((f) => f.ref));
      cursor = page.next_cursor;
    } while (cursor);
    expect(pages.sort()).toEqual(['refs/heads/main', 'refs/pull/7/head', 'refs/pull/8/head']);
    // Without refs, the default branch alone, as before.
    const plain = (await run('search_code', { repository: REPO, query: 'version' })).structured as SearchCodeOutput;
    expect(plain.files.map((f) => f.ref)).toEqual(['refs/heads/main']);
    // pull/7 alone: what git grep finds at its head (src/new.ts added there).
    const added = (await run('search_code', { repository: REPO, query: "'pull-7'", refs: ['pull/7'] })).structured as SearchCodeOutput;
    expect(added.files.map((f) => f.path).sort()).toEqual(['src/app.ts', 'src/new.ts']);
  });

  test('search_code refs: unknown names, empty globs and too many are clear errors', async () => {
    const unknown = await run('search_code', { repository: REPO, query: 'x', refs: ['main', 'pull/99'] });
    expect(unknown.text).toMatch(/Ref pull\/99 is not indexed/);
    const none = await run('search_code', { repository: REPO, query: 'x', refs: ['release/*'] });
    expect(none.text).toMatch(/refs: release\/\* match no indexed ref of acme\/app\. Indexed refs: main/);
    const alone = await run('search_code', { query: 'x', refs: ['main'] });
    expect(alone.text).toMatch(/^refs: only with repository/);
    const both = await run('search_code', { repository: REPO, query: 'x', ref: 'main', refs: ['main'] });
    expect(both.text).toMatch(/^ref and refs: give one of them/);
    const many = await run('search_code', { repository: REPO, query: 'x', refs: Array.from({ length: 21 }, (_, i) => `b${i}`) });
    expect(many.text).toMatch(/refs: at most 20/);
  });

  test('repository_overview and repositories_state list the open pull requests, not the closed one', async () => {
    const overview = (await run('repository_overview', { repository: REPO })).structured as RepositoryOverviewOutput;
    expect(overview.pull_requests).toEqual([
      expect.objectContaining({ number: 7, ref: 'pull/7', title: 'Change 7', author: 'octocat', draft: true, base_ref: 'main', updated_at: '2026-01-05T00:00:00.000Z', indexed: true }),
    ]);
    expect(overview.pull_requests_omitted).toBe(0);
    const text = (await run('repository_overview', { repository: REPO })).text;
    expect(text).toContain('pull/7 Change 7 (octocat, draft) into main');
    // The overview of the pull request itself: its head's files.
    const atPull = (await run('repository_overview', { repository: REPO, ref: 'pull/7' })).structured as RepositoryOverviewOutput;
    expect([atPull.ref, atPull.file_count]).toEqual(['refs/pull/7/head', 4]);
    const byUrl = (await run('repository_overview', { repository: `https://github.com/${REPO}/pull/7/files` })).structured as RepositoryOverviewOutput;
    expect(byUrl.ref).toBe('refs/pull/7/head');
    const state = (await run('repositories_state', { repositories: [REPO] })).structured as RepositoriesStateOutput;
    const repo = state.repositories[0]!;
    expect(repo.pull_requests.map((p) => p.ref)).toEqual(['pull/7']);
    expect(repo.other_refs).toEqual([]);
    expect(repo.message).toContain('1 open pull request (pull/7)');
  });
});
