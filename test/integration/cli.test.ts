import { commitFiles, createRepo } from '../github-standin/fixture-repos';
import { engineEndpoints } from '../harness/engines';
import { runCliProcess } from '../support/cli-process';
import { gitHead } from '../support/git-truth';
import { expectIndexEqualsGit } from '../support/index-truth';
import { startPipeline, type Pipeline } from '../support/pipeline';

const MAIN = 'refs/heads/main';

describe('gitdex CLI against real engines', () => {
  let p: Pipeline;
  let env: Record<string, string>;

  beforeAll(async () => {
    p = await startPipeline({ maxAttempts: 2 });
    env = {
      KAFKA_BROKERS: engineEndpoints().kafkaBrokers,
      ELASTICSEARCH_URL: engineEndpoints().elasticsearchUrl,
      ELASTICSEARCH_INDEX_PREFIX: p.indexPrefix,
      KAFKA_TOPIC: p.topic,
      GITHUB_API_URL: p.standIn.url,
    };
  });
  afterAll(() => p.close());

  it('index: backfills a repository with progress, and says so; status shows it', async () => {
    const repo = await createRepo(p.root, 'cli', 'backfilled', Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`src/f${i}.ts`, `export const f${i} = ${i};\n`])));
    const result = await runCliProcess(['index', 'cli/backfilled'], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/refs\/heads\/main: indexed [0-9a-f]{12} \(30 files, tarball/);
    expect(result.stderr).toMatch(/cli\/backfilled .*30\/30 files/);
    const id = await p.standIn.repoId('cli', 'backfilled');
    await expectIndexEqualsGit(p.index, id, MAIN, repo.dir);

    const again = await runCliProcess(['index', 'cli/backfilled'], env);
    expect(again.stdout).toMatch(/already indexed/);

    const status = await runCliProcess(['status', '--json'], env);
    expect(status.code).toBe(0);
    const parsed = JSON.parse(status.stdout) as { refs: { repository: string; commit: string; files: number; status: string }[]; summary: { lag: number | null } };
    expect(parsed.refs).toEqual(expect.arrayContaining([expect.objectContaining({ repository: 'cli/backfilled', commit: repo.sha, files: 30, status: 'ready' })]));
    expect(typeof parsed.summary.lag).toBe('number');
    const table = await runCliProcess(['status'], env);
    expect(table.stdout).toMatch(/REPOSITORY\s+REF\s+COMMIT/);
    expect(table.stdout).toMatch(/cli\/backfilled\s+main\s+[0-9a-f]{12}\s+30/);
  });

  it('answers clearly with distinct exit codes: unknown repository 3, bad usage 2, bad configuration 2', async () => {
    const missing = await runCliProcess(['index', 'cli/missing'], env);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(/cli\/missing does not exist on GitHub/);
    expect((await runCliProcess(['index', 'not-a-name'], env)).code).toBe(2);
    // A dot segment would turn GET /repos/{owner}/{name} into another endpoint (GET /repos/../user is GET /user): refused before GitHub is asked.
    const asked = p.standIn.requests.total;
    for (const name of ['../user', 'octo/..', './x']) {
      const refused = await runCliProcess(['index', name], env);
      expect({ name, code: refused.code }).toEqual({ name, code: 2 });
      expect(refused.stderr).toMatch(/is not a GitHub owner\/name/);
    }
    expect(p.standIn.requests.total).toBe(asked);
    expect((await runCliProcess(['frobnicate'], env)).code).toBe(2);
    const badConfig = await runCliProcess(['status'], { ...env, ELASTICSEARCH_URL: 'not a url' });
    expect(badConfig.code).toBe(2);
    expect(badConfig.stderr).toMatch(/ELASTICSEARCH_URL/);
  });

  it('reconcile heals a webhook that was never delivered', async () => {
    const repo = await createRepo(p.root, 'cli', 'drifting', { 'a.txt': 'a\n' });
    const id = await p.standIn.repoId('cli', 'drifting');
    await p.standIn.push('cli', 'drifting', { ref: MAIN });
    await p.waitForCommit(id, MAIN, repo.sha!);
    const missed = await commitFiles(repo.dir, { 'b.txt': 'b\n' }, 'pushed, but GitHub never delivered the webhook');

    const result = await runCliProcess(['reconcile'], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/cli\/drifting\s+refs\/heads\/main\s+[0-9a-f]{12}\s+[0-9a-f]{12}/);
    expect(result.stdout).toMatch(/1 drifted and queued/);
    await p.waitForCommit(id, MAIN, missed);
    await expectIndexEqualsGit(p.index, id, MAIN, repo.dir);
    const quiet = await runCliProcess(['reconcile'], env);
    expect(quiet.stdout).toMatch(/0 drifted/);
  });

  it('dlq list and replay', async () => {
    const repo = await createRepo(p.root, 'cli', 'poisoned', { 'a.txt': 'a\n' });
    const id = await p.standIn.repoId('cli', 'poisoned');
    p.standIn.configure({ token: 'required-now' });
    await p.standIn.push('cli', 'poisoned', { ref: MAIN });
    await p.waitFor(async () => (await p.deadLetters.list(10)).length > 0, 'a dead letter');
    p.standIn.configure({ token: null });
    const list = await runCliProcess(['dlq', 'list'], env);
    expect(list.stdout).toMatch(/cli\/poisoned\s+push\s+1/);
    const replay = await runCliProcess(['dlq', 'replay'], env);
    expect(replay.stdout).toMatch(/Replayed 1 dead letter/);
    await p.waitForCommit(id, MAIN, gitHead(repo.dir, 'main'));
    expect((await runCliProcess(['dlq', 'list'], env)).stdout).toMatch(/No dead letters/);
  });

  it('reindex copies into new physical indices and swaps the aliases while the data stays readable', async () => {
    const before = await p.index.listRepositories();
    const result = await runCliProcess(['reindex'], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/files: copied \d+ documents from .*-files-v7 to .*-files-v7-r\d+; alias swapped/);
    expect(await p.index.listRepositories()).toEqual(before);
    const id = await p.standIn.repoId('cli', 'backfilled');
    const state = (await p.index.getRefState(id, MAIN))!;
    expect(await p.index.getFile({ repositoryId: id, ref: MAIN, generation: state.generation }, 'src/f3.ts')).toMatchObject({ content: 'export const f3 = 3;\n' });
  });
});
