// A pull request through the whole pipeline on real engines: the stand-in's `pull_request`
// webhook → webhook service → Kafka → indexer → Elasticsearch; the head is searchable at
// refs/pull/N/head as `git grep` finds it there, and synchronize moves it. With PULL_ROUNDS=n
// it also prints webhook → readable times of pushes and synchronizes (the journal's figures).
import { execFileSync } from 'node:child_process';
import type { SearchCodeOutput } from '@gitdex/contracts';
import { callTool, resolveDeps } from '@gitdex/reader';
import { commitFiles, createBranch, createRepo, fixtureGit } from '../github-standin/fixture-repos';
import { gitHead } from '../support/git-truth';
import { startPipeline, type Pipeline } from '../support/pipeline';

jest.setTimeout(180_000);

const MAIN = 'refs/heads/main';
const PR = 'refs/pull/1/head';

describe('pull requests through webhook, Kafka, indexer and Elasticsearch', () => {
  let p: Pipeline;
  let dir: string;
  let id: number;

  beforeAll(async () => {
    p = await startPipeline();
    const files: Record<string, string> = {};
    for (let i = 0; i < 40; i += 1) files[`lib/part-${i}.js`] = `module.exports = ${i}; // needle ${i % 3}\n`;
    dir = (await createRepo(p.root, 'acme', 'pulled', files)).dir;
    id = await p.standIn.repoId('acme', 'pulled');
    await p.standIn.push('acme', 'pulled', { ref: MAIN });
    await p.waitForCommit(id, MAIN, gitHead(dir, 'main'));
  });
  afterAll(async () => p?.close());

  const admin = async (path: string, body: unknown = {}) => {
    const response = await fetch(`${p.standIn.url}/_admin/repos/acme/pulled/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(response.status).toBe(200);
    return (await response.json()) as { number?: number; status?: number };
  };
  const onFeature = async (changes: Record<string, string | null>, message: string) => {
    await fixtureGit(dir, ['checkout', '-q', 'feature']);
    await commitFiles(dir, changes, message);
    await fixtureGit(dir, ['checkout', '-q', 'main']);
  };
  const grep = (ref: string) =>
    execFileSync('git', ['grep', '-c', '-F', 'needle 1', ref], { cwd: dir })
      .toString()
      .trim()
      .split('\n')
      .map((line) => line.slice(ref.length + 1).split(':'))
      .map(([path, count]) => [path, Number(count)] as const)
      .sort(([a], [b]) => (a! < b! ? -1 : 1));
  const search = async (ref: string) => {
    const answer = await callTool(resolveDeps({ index: p.index }), 'search_code', { repository: 'acme/pulled', query: 'needle 1', ref, include_generated: true, limit: 100, context_lines: 0 }, null, {
      transport: 'memory',
    });
    return (answer.structured as SearchCodeOutput).files.map((f) => [f.path, f.match_count] as const).sort(([a], [b]) => (a < b ? -1 : 1));
  };

  it('opened is searchable like git grep at the head; synchronize moves it', async () => {
    await createBranch(dir, 'feature');
    await onFeature({ 'lib/part-1.js': 'module.exports = 1; // needle 1 needle 1\n', 'lib/new.js': '// needle 1\n', 'lib/part-4.js': null }, 'feature');
    expect(await admin('pulls', { head: 'feature', base: 'main', title: 'Pipeline PR' })).toMatchObject({ number: 1, status: 202 });
    await p.waitForCommit(id, PR, gitHead(dir, 'feature'));
    expect(await search(PR)).toEqual(grep(PR));
    expect(await search(MAIN)).toEqual(grep('main'));

    const rounds = Number(process.env.PULL_ROUNDS ?? 1);
    const timings = { push: [] as number[], synchronize: [] as number[] };
    for (let round = 0; round < rounds; round += 1) {
      await commitFiles(dir, { [`lib/main-${round}.js`]: `// needle 1 main ${round}\n` }, `main ${round}`);
      let started = performance.now();
      await p.standIn.push('acme', 'pulled', { ref: MAIN });
      await p.waitForCommit(id, MAIN, gitHead(dir, 'main'));
      timings.push.push(performance.now() - started);
      await onFeature({ [`lib/feature-${round}.js`]: `// needle 1 feature ${round}\n` }, `feature ${round}`);
      started = performance.now();
      await admin('pulls/1/synchronize');
      await p.waitForCommit(id, PR, gitHead(dir, 'feature'));
      timings.synchronize.push(performance.now() - started);
    }
    expect(await search(PR)).toEqual(grep(PR));
    if (rounds > 1) process.stdout.write(`webhook to readable (ms): ${JSON.stringify(timings)}\n`);
  });
});
