import { dirname } from 'node:path';
import { commitFiles, createRepo } from '../github-standin/fixture-repos';
import { repositoryFromFolder } from '../support/copy-tree';
import { gitHead } from '../support/git-truth';
import { expectIndexEqualsGit } from '../support/index-truth';
import { startPipeline, type Pipeline } from '../support/pipeline';

const MAIN = 'refs/heads/main';

describe('indexer on a real, large repository', () => {
  let p: Pipeline;
  beforeAll(async () => {
    p = await startPipeline();
  });
  afterAll(() => p.close());

  it('indexes the TypeScript compiler package from one streamed tarball, then a one-file push touches only that file', async () => {
    const source = dirname(require.resolve('typescript/package.json'));
    const large = await repositoryFromFolder(p.root, 'big', 'typescript', source);
    const id = await p.standIn.repoId('big', 'typescript');
    const started = Date.now();
    await p.standIn.push('big', 'typescript', { ref: MAIN });
    await p.waitForCommit(id, MAIN, large.sha, 180_000);
    const fullMs = Date.now() - started;
    await expectIndexEqualsGit(p.index, id, MAIN, large.dir, { contentSample: 200 });

    const small = await createRepo(p.root, 'big', 'small', { 'README.md': '# small\n', 'src/a.ts': 'export {};\n' });
    const smallId = await p.standIn.repoId('big', 'small');
    await p.standIn.push('big', 'small', { ref: MAIN });
    await p.waitForCommit(smallId, MAIN, small.sha!);

    const timeOnePush = async (owner: string, name: string, dir: string, repositoryId: number) => {
      const sha = await commitFiles(dir, { 'lib/gitdex-note.md': `changed ${Date.now()}\n` }, 'one file');
      p.standIn.requests.reset();
      const t0 = Date.now();
      await p.standIn.push(owner, name, { ref: MAIN });
      await p.waitForCommit(repositoryId, MAIN, sha);
      return { ms: Date.now() - t0, counts: p.standIn.requests.counts() };
    };
    const onLarge = await timeOnePush('big', 'typescript', large.dir, id);
    const onSmall = await timeOnePush('big', 'small', small.dir, smallId);
    await expectIndexEqualsGit(p.index, id, MAIN, large.dir, { contentSample: 20 });
    const sum = (counts: Record<string, number>, part: string) =>
      Object.entries(counts)
        .filter(([k]) => k.includes(part))
        .reduce((s, [, n]) => s + n, 0);
    // The cost of a push follows what changed, not the repository: no tarball, one blob, the trees on the path.
    expect(sum(onLarge.counts, 'tarball')).toBe(0);
    expect(sum(onLarge.counts, 'blobs')).toBe(1);
    expect(sum(onLarge.counts, 'trees')).toBeLessThanOrEqual(4);

    const state = (await p.index.getRefState(id, MAIN))!;
    process.stdout.write(
      `large repository: ${state.fileCount} files fully indexed in ${fullMs} ms (${Math.round((state.fileCount / fullMs) * 1000)} files/s); one-file push ${onLarge.ms} ms on it vs ${onSmall.ms} ms on a 2-file repository\n`,
    );
    expect(gitHead(large.dir, 'main')).toBe(state.commitSha);
  });
});
