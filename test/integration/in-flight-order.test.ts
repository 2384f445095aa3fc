import { commitFiles, createRepo } from '../github-standin/fixture-repos';
import { gitHead } from '../support/git-truth';
import { expectIndexEqualsGit } from '../support/index-truth';
import { startPipeline, type Pipeline } from '../support/pipeline';

const MAIN = 'refs/heads/main';
const OWNER = 'inflight';

interface Repo {
  name: string;
  dir: string;
  id: number;
  /** Commits pushed, oldest first: a served commit's place in this list is how new it is. */
  commits: string[];
}

/**
 * Many pushes in flight through the real pipeline (webhook → Kafka → indexer → Elasticsearch)
 * while GitHub answers slowly and sometimes fails: one repository's pushes interleave with
 * those of many others, every repository ends equal to git at its newest commit, and a reader
 * polling the ref states meanwhile never sees a repository go back to an older commit.
 */
describe('in-flight events: many repositories at once, each in order', () => {
  let p: Pipeline;
  const repos: Repo[] = [];

  beforeAll(async () => {
    p = await startPipeline({ maxAttempts: 10, retryBudgetMs: 60_000 });
    for (let i = 0; i < 7; i += 1) {
      const name = i === 0 ? 'hot' : `other${i}`;
      const dir = (await createRepo(p.root, OWNER, name, { 'README.md': `# ${name}\n`, 'src/a.ts': 'export const a = 0;\n' })).dir;
      const id = await p.standIn.repoId(OWNER, name);
      repos.push({ name, dir, id, commits: [gitHead(dir, 'main')] });
    }
    await Promise.all(repos.map((r) => p.standIn.push(OWNER, r.name, { ref: MAIN })));
    for (const r of repos) await p.waitForCommit(r.id, MAIN, r.commits[0]!);
  });
  afterAll(() => p.close());

  it('interleaves one repository with many others under GitHub latency and faults: ordered, nothing lost', async () => {
    const [hot, ...others] = repos as [Repo, ...Repo[]];
    // Every API answer 100 ms late, and a few 502s along the way (retried by the indexer).
    const latency = p.standIn.faults.add({ type: 'latency', ms: 100 });
    const errors = p.standIn.faults.add({ type: '5xx', status: 502, count: 4 });

    const served = new Map<number, number[]>(repos.map((r) => [r.id, []]));
    let polling = true;
    const poller = (async () => {
      while (polling) {
        for (const r of repos) {
          const state = await p.index.getRefState(r.id, MAIN);
          // What a reader is served: the ref state's commit, whatever its status.
          const at = r.commits.indexOf(state?.commitSha ?? '');
          const seen = served.get(r.id)!;
          if (at >= 0 && seen.at(-1) !== at) seen.push(at);
        }
      }
    })();

    // Five rounds: a push of the hot repository beside pushes of two others, each round delivered
    // before the next is committed (GitHub's order for one repository), none waiting for indexing.
    for (let round = 1; round <= 5; round += 1) {
      const batch = [hot, others[(2 * round) % others.length]!, others[(2 * round + 1) % others.length]!];
      await Promise.all(
        batch.map(async (r) => {
          r.commits.push(await commitFiles(r.dir, { 'src/a.ts': `export const a = ${round};\n`, [`src/round${round}.ts`]: `export const r = ${round};\n` }, `round ${round}`));
        }),
      );
      await Promise.all(batch.map((r) => p.standIn.push(OWNER, r.name, { ref: MAIN })));
    }
    try {
      for (const r of repos) await p.waitForCommit(r.id, MAIN, r.commits.at(-1)!, 120_000);
    } finally {
      polling = false;
      await poller;
      p.standIn.faults.remove(latency.id);
      p.standIn.faults.remove(errors.id);
    }

    for (const r of repos) {
      await expectIndexEqualsGit(p.index, r.id, MAIN, r.dir);
      // Never an older commit after a newer one.
      const seen = served.get(r.id)!;
      expect(seen).toEqual([...seen].sort((a, b) => a - b));
    }
    // The hot repository was seen moving through its pushes, not only at its end.
    expect(served.get(hot.id)!.length).toBeGreaterThan(1);
    expect(await p.deadLetters.list(10)).toEqual([]);
  });
});
