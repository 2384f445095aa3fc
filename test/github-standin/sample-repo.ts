// A ready-made repository exercising the awkward cases: nested folders, a binary file, Unicode
// and spaces in paths, an executable, a symlink, a submodule (gitlink), a tag and a second branch.
import { addSubmodule, addSymlink, commitFiles, createBranch, createRepo, createTag, type FixtureRepo } from './fixture-repos';

export const SAMPLE_SUBMODULE_SHA = '0123456789abcdef0123456789abcdef01234567';
export const SAMPLE_BINARY = Buffer.from(Array.from({ length: 1500 }, (_, i) => (i * 37 + 11) % 256));

/** Regular (mode 100644) files of the sample's main branch. */
export const SAMPLE_FILES: Readonly<Record<string, string | Buffer>> = {
  'README.md': '# Hello\n',
  'src/index.ts': 'export * from "./deep/nested/module";\n',
  'src/deep/nested/module.ts': 'export const answer = 42;\n',
  'docs/with space/naïve café.md': 'Unicode and spaces\n',
  '日本語/ファイル.txt': 'こんにちは\n',
  'assets/logo.bin': SAMPLE_BINARY,
};

export interface SampleRepo extends FixtureRepo {
  /** Head of main: README.md ... plus scripts/run.sh (755), link-to-readme (symlink), vendor/lib (gitlink). */
  head: string;
  /** Head of branch feature/x: main plus feature.txt. */
  featureHead: string;
}

export async function createSampleRepo(root: string, owner: string, name: string): Promise<SampleRepo> {
  const repo = await createRepo(root, owner, name, { ...SAMPLE_FILES, 'scripts/run.sh': { content: '#!/bin/sh\necho hi\n', executable: true } });
  await addSymlink(repo.dir, 'link-to-readme', 'README.md');
  const head = await addSubmodule(repo.dir, 'vendor/lib', SAMPLE_SUBMODULE_SHA, 'https://github.com/example/lib.git');
  await createTag(repo.dir, 'v1.0', 'HEAD', { message: 'Release 1.0' });
  await createBranch(repo.dir, 'feature/x');
  const featureHead = await commitFiles(repo.dir, { 'feature.txt': 'feature\n' }, 'Feature work', { branch: 'feature/x' });
  return { ...repo, head, featureHead };
}
