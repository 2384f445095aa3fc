import { createRepo } from '../github-standin/fixture-repos';
import { gitHead } from '../support/git-truth';
import { startPipeline, type Pipeline } from '../support/pipeline';

const MAIN = 'refs/heads/main';

/**
 * The confirmed attack of issue 17: a pushed .gitmodules of "path = x", spaces, "y" made the
 * line pattern quadratic (80,000 spaces: 8.5 s; 1 MiB: about 20 minutes of a blocked event
 * loop). It must index like any repository, and cost a bounded number of tree reads.
 */
describe('indexer: a hostile .gitmodules', () => {
  let p: Pipeline;

  beforeAll(async () => {
    p = await startPipeline({});
  });
  afterAll(() => p.close());

  it('indexes a repository whose .gitmodules is 1 MiB of backtracking bait and 50,000 path lines', async () => {
    const bait = `[submodule "x"]\n\tpath = x${' '.repeat(1 << 20)}y\n`;
    const lines = Array.from({ length: 50_000 }, (_, i) => `\tpath = vendor/m${i}\n`).join('');
    const repo = await createRepo(p.root, 'acme', 'hostile-gitmodules', { '.gitmodules': bait + lines, 'README.md': '# hi\n' });
    const id = await p.standIn.repoId('acme', 'hostile-gitmodules');
    p.standIn.requests.reset();
    await p.standIn.push('acme', 'hostile-gitmodules', { ref: MAIN });
    // The default wait is far shorter than the minutes the old pattern took.
    await p.waitForCommit(id, MAIN, gitHead(repo.dir, 'main'));
    const state = (await p.index.getRefState(id, MAIN))!;
    const snapshot = { repositoryId: id, ref: MAIN, generation: state.generation };
    expect(await p.index.getFile(snapshot, 'README.md')).toMatchObject({ content: '# hi\n' });
    // Submodule lookups read each tree once: the root and nothing else (no vendor/ folder exists).
    const trees = Object.entries(p.standIn.requests.counts())
      .filter(([k]) => k.includes('trees'))
      .reduce((s, [, n]) => s + n, 0);
    expect(trees).toBeLessThanOrEqual(2);
  });
});
