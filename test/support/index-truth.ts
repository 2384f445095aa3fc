import { storedBytes } from '@gitdex/contracts';
import type { IndexStore, VisibleEntry } from '@gitdex/ports';
import { gitHead, gitLsTree, gitShow } from './git-truth';

const KIND = { '120000': 'symlink', '160000': 'submodule' } as Record<string, string>;

/** Every visible entry of a ref at its current generation. */
export async function visibleEntries(index: IndexStore, repositoryId: number, ref: string): Promise<VisibleEntry[]> {
  const state = await index.getRefState(repositoryId, ref);
  if (!state) return [];
  const snapshot = { repositoryId, ref, generation: state.generation };
  const all: VisibleEntry[] = [];
  for (let after: string | null = null; ;) {
    const page = await index.visibleEntries(snapshot, after, 1000);
    all.push(...page);
    if (page.length < 1000) return all;
    after = page[page.length - 1]!.path;
  }
}

/**
 * Asserts the index of a ref equals git at the branch head, entry by entry (path,
 * blob sha, kind) and, for a sample of text files, content by content.
 */
export async function expectIndexEqualsGit(index: IndexStore, repositoryId: number, ref: string, repoDir: string, options: { contentSample?: number } = {}): Promise<void> {
  const branch = ref.replace(/^refs\/heads\//, '');
  const state = await index.getRefState(repositoryId, ref);
  expect(state?.commitSha).toBe(gitHead(repoDir, branch));
  expect(state?.status).toBe('ready');
  const truth = gitLsTree(repoDir, branch);
  const indexed = await visibleEntries(index, repositoryId, ref);
  const got = Object.fromEntries(indexed.map((e) => [e.path, { sha: e.blobSha, kind: e.kind }]));
  const want = Object.fromEntries([...truth.values()].map((e) => [e.path, { sha: e.sha, kind: KIND[e.mode] ?? 'file' }]));
  expect(got).toEqual(want);
  expect(state?.fileCount).toBe(truth.size);
  const snapshot = { repositoryId, ref, generation: state!.generation };
  const sample = indexed.filter((e) => e.kind === 'file').slice(0, options.contentSample ?? 50);
  for (const entry of sample) {
    const doc = await index.getFile(snapshot, entry.path);
    expect(doc).not.toBeNull();
    // Every file within the size limit is stored byte for byte: text, vendored, generated, binary.
    if (doc && !doc.flags.tooLarge) expect(storedBytes(doc)?.equals(gitShow(repoDir, branch, entry.path)) ? entry.path : storedBytes(doc)).toBe(entry.path);
  }
}
