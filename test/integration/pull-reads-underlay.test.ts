// A pull request stored as its changes alone, layered on its base branch (RefState.underlay):
// the tools must see the base's files it did not change, not see the ones it deleted, and
// name the pull request as the ref of every answer. This needs the adapters to read a
// snapshot's underlay (Snapshot.underlay in libs/ports), which the index side provides.
import type { FileOutlineOutput, ListFilesOutput, ReadFileOutput, SearchCodeOutput } from '@gitdex/contracts';
import type { IndexStore } from '@gitdex/ports';
import { resolveDeps, type ReaderDeps } from '@gitdex/reader';
import { seedRepository } from '../../services/reader/test/support/documents';
import { indexBackends, toolRunner } from '../support/tool-backends';

jest.setTimeout(180_000);

const REPO = 'acme/layered';
const ID = 42;

async function seed(index: IndexStore): Promise<void> {
  await index.ensureReady();
  const main = await seedRepository(index, {
    id: ID,
    fullName: REPO,
    files: { 'README.md': '# Layered\n', 'src/app.ts': "export const version = 'main';\n", 'src/util.ts': 'export const helper = 1;\n', 'docs/old.md': 'old notes\n' },
  });
  // pull/9 changes src/app.ts and deletes docs/old.md: only its change is stored under its own ref.
  const nine = await seedRepository(index, { id: ID, fullName: REPO, ref: 'refs/pull/9/head', commitLabel: 'pull 9', files: { 'src/app.ts': "export const version = 'pull-9';\n" } });
  await index.putRefState({
    ...nine.state,
    fileCount: 3,
    pull: {
      number: 9,
      title: 'Layered',
      state: 'open',
      merged: false,
      draft: false,
      author: 'octocat',
      baseRef: 'main',
      headSha: nine.state.commitSha!,
      updatedAt: '2026-01-05T00:00:00.000Z',
      closedAt: null,
    },
    underlay: { ref: main.state.ref, generation: main.state.generation, shadowed: ['docs/old.md', 'src/app.ts'] },
  });
  await (index as IndexStore & { refresh?: () => Promise<void> }).refresh?.();
}

const BACKENDS = indexBackends('pulllayer');

describe.each(BACKENDS)('a pull request layered on its base, on %s', (_name, make) => {
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

  test("reads, lists and searches the base's unchanged files at the pull request, never its deleted ones", async () => {
    // Twice each: the second read of a repository goes the read hints' one-round-trip path.
    for (let round = 0; round < 2; round += 1) {
      expect(((await run('read_file', { repository: REPO, path: 'src/util.ts', ref: 'pull/9' })).structured as ReadFileOutput).content).toBe('export const helper = 1;');
      expect(((await run('read_file', { repository: REPO, path: 'src/app.ts', ref: 'pull/9' })).structured as ReadFileOutput).content).toBe("export const version = 'pull-9';");
      const gone = await run('read_file', { repository: REPO, path: 'docs/old.md', ref: 'pull/9' });
      expect(gone.text).toContain('No file docs/old.md');
      // file_outline's lookups fetch outlines as read_file's fetch content: the same underlay rule.
      for (const path of ['src/util.ts', 'src/app.ts']) {
        const outline = (await run('file_outline', { repository: REPO, path, ref: 'pull/9' })).structured as FileOutlineOutput;
        expect([outline.ref, outline.path]).toEqual(['refs/pull/9/head', path]);
      }
      expect((await run('file_outline', { repository: REPO, path: 'docs/old.md', ref: 'pull/9' })).text).toContain('No file docs/old.md');
    }
    const listing = (await run('list_files', { repository: REPO, ref: 'pull/9', depth: 3 })).structured as ListFilesOutput;
    expect(listing.entries.filter((e) => e.type === 'file').map((e) => e.path)).toEqual(['README.md', 'src/app.ts', 'src/util.ts']);
    const found = (await run('search_code', { repository: REPO, query: 'export', refs: ['main', 'pull/*'] })).structured as SearchCodeOutput;
    expect(found.files.map((f) => `${f.ref} ${f.path}`).sort()).toEqual(['refs/heads/main src/app.ts', 'refs/heads/main src/util.ts', 'refs/pull/9/head src/app.ts', 'refs/pull/9/head src/util.ts']);
  });
});
