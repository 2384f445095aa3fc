/**
 * compare of a 10-file push and blame of a 2,000-line file through MCP (in-memory SDK client,
 * SQLite index and history recorded by the indexer from the GitHub stand-in), beside the git CLI
 * on the stand-in's own repository, in one run. blame is timed cold (a fresh reader each round:
 * no commit, index or blame kept in memory; with the version blames the indexer stored, and with
 * them hidden, which is the reader computing every version as before) and warm (one reader), then
 * after each of several one-commit pushes (the first blame of the new head, and what the push cost
 * the indexer). The indexer's own cost of version blames is timed apart (the backfill's and one
 * push's computed again over the stored history), with the bytes they take. Run:
 *   npx tsx --tsconfig test/tsconfig.json bench/history/compare-blame.ts
 * On Elasticsearch (ELASTICSEARCH_URL, indices under a prefix of their own, deleted at the end):
 *   BENCH_BACKEND=elasticsearch npx tsx --tsconfig test/tsconfig.json bench/history/compare-blame.ts
 */
import { execFileSync } from 'node:child_process';
import Database from 'better-sqlite3';
import type { CommitRecord, HistoryStore } from '@gitdex/ports';
import { storeVersionBlames } from '../../services/indexer/src/history/version-blames';
import { join } from 'node:path';
import { GitHubSource } from '@gitdex/github';
import { DEFAULT_INDEX_REF_OPTIONS, indexRef } from '@gitdex/indexer';
import { resolveDeps } from '../../services/reader/src/deps';
import { SqliteHistory, SqliteIndexStore } from '@gitdex/sqlite';
import { ElasticsearchHistory, ElasticsearchIndexStore } from '@gitdex/elasticsearch';
import type { IndexStore } from '@gitdex/ports';
import { commitFiles, createRepo, makeTempRoot, removeTempRoot } from '../../test/github-standin/fixture-repos';
import { createGitHubStandIn } from '../../test/github-standin/server';
import { connectInMemory } from '../../services/reader/test/support/mcp-client';
import { repositoryDocumentOf } from '../../test/support/repository-document';

const RUNS = Number(process.env.RUNS ?? 40);
let seed = 7;
const rand = (): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0), (seed >>> 8) / 0x1000000);

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

async function time<T>(fn: () => Promise<T> | T): Promise<number> {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

async function main(): Promise<void> {
  const root = await makeTempRoot('gitdex-bench-history-');
  let big = Array.from({ length: 2000 }, (_, i) => (i % 11 === 10 ? '}' : `  const value${i} = compute(${i});`));
  const files: Record<string, string> = { 'src/big.ts': big.join('\n') + '\n' };
  for (let i = 0; i < 30; i++) files[`src/m${i}.ts`] = Array.from({ length: 80 }, (_, j) => `export const m${i}_${j} = ${j};`).join('\n') + '\n';
  const repo = await createRepo(root, 'bench', 'history', files);
  for (let c = 0; c < 60; c++) {
    big = [...big];
    for (let k = 0; k < 6; k++) big.splice(Math.floor(rand() * big.length), 1, `  const edit${c}_${k} = touched(${c});`);
    await commitFiles(repo.dir, { 'src/big.ts': big.join('\n') + '\n' }, `edit big ${c}`);
  }
  const push: Record<string, string> = {};
  for (let i = 0; i < 10; i++) push[`src/m${i}.ts`] = files[`src/m${i}.ts`]!.replace(`m${i}_10 = 10`, `m${i}_10 = 1000`).replace(`m${i}_50 = 50`, `m${i}_50 = 5000`);
  await commitFiles(repo.dir, push, 'a 10-file push');

  const standIn = await createGitHubStandIn({ root, rateLimit: { limit: 1_000_000 } });
  const onElasticsearch = process.env.BENCH_BACKEND === 'elasticsearch';
  const prefix = `bench-blame-${process.pid}`;
  const esIndex = onElasticsearch ? new ElasticsearchIndexStore({ node: process.env.ELASTICSEARCH_URL as string, indexPrefix: prefix }) : null;
  const index: IndexStore & { close(): Promise<void> | void } = esIndex ?? new SqliteIndexStore({ file: join(root, 'index.sqlite') });
  const history: HistoryStore = esIndex ? new ElasticsearchHistory(esIndex.client, { indexPrefix: prefix }) : new SqliteHistory({ file: join(root, 'history.sqlite') });
  console.log(`backend: ${onElasticsearch ? 'Elasticsearch' : 'SQLite'}`);
  await index.ensureReady();
  await history.ensureHistoryReady();
  const source = new GitHubSource({ baseUrl: standIn.url, token: 'bench' });
  const repository = (await source.repositoryByName('bench/history'))!;
  await index.putRepository(repositoryDocumentOf(repository));
  const head = (await source.head(repository, 'main'))!;
  const indexed = await time(() =>
    indexRef(
      { index, source, options: DEFAULT_INDEX_REF_OPTIONS, now: () => new Date(), history: { store: history, options: { depth: 500, maxBlobBytes: 1 << 20, concurrency: 4 } } },
      { repository, ref: 'refs/heads/main', head },
    ),
  );
  const { client, close } = await connectInMemory(resolveDeps({ index, history }));
  const callOn = async (on: typeof client, name: string, args: Record<string, unknown>): Promise<void> => {
    const result = (await on.callTool({ name, arguments: args })) as { isError?: boolean; content: { text: string }[] };
    if (result.isError) throw new Error(result.content[0]!.text);
  };
  const call = (name: string, args: Record<string, unknown>): Promise<void> => callOn(client, name, args);
  // A reader with nothing in memory: its own history store object (memory is kept per store) and index layers.
  const freshReader = (stored: boolean): ReturnType<typeof connectInMemory> =>
    connectInMemory(
      resolveDeps({
        index,
        history: {
          getRefHistory: (...a) => history.getRefHistory(...a),
          getCommits: (...a) => history.getCommits(...a),
          readHistoryBlobs: (...a) => history.readHistoryBlobs(...a),
          getVersionBlames: (...a) => (stored ? history.getVersionBlames(...a) : Promise.resolve([])),
        },
      }),
    );
  let cold: Awaited<ReturnType<typeof connectInMemory>> | undefined;
  const git = (args: string[]): void => void execFileSync('git', args, { cwd: repo.dir, maxBuffer: 64 << 20 });

  const cases: [string, () => Promise<void> | void][] = [
    ['compare (MCP)', () => call('compare', { repository: 'bench/history', base: 'main~1', head: 'main' })],
    ['git diff -M main~1...main', () => git(['diff', '-M', 'main~1...main'])],
    ['blame cold (fresh reader, MCP)', () => callOn(cold!.client, 'blame', { repository: 'bench/history', path: 'src/big.ts' })],
    ['blame cold, none stored', () => callOn(cold!.client, 'blame', { repository: 'bench/history', path: 'src/big.ts' })],
    ['blame warm (MCP)', () => call('blame', { repository: 'bench/history', path: 'src/big.ts' })],
    ['git blame --porcelain', () => git(['blame', '--porcelain', 'main', '--', 'src/big.ts'])],
  ];
  console.log(`indexed 62 commits with history in ${indexed.toFixed(0)} ms; ${RUNS} runs each, alternating`);
  const results = new Map<string, number[]>(cases.map(([name]) => [name, []]));
  const first = new Map<string, number>();
  for (let r = 0; r < RUNS; r++) {
    for (const [name, fn] of cases) {
      if (name.startsWith('blame cold')) cold = await freshReader(!name.includes('none stored'));
      const ms = await time(fn);
      if (name.startsWith('blame cold')) await cold!.close();
      if (r === 0) first.set(name, ms);
      else results.get(name)!.push(ms);
    }
  }
  for (const [name, values] of results) {
    console.log(
      `${name.padEnd(28)} first ${first.get(name)!.toFixed(1).padStart(7)} ms  p50 ${quantile(values, 0.5).toFixed(1).padStart(7)} ms  p99 ${quantile(values, 0.99).toFixed(1).padStart(7)} ms`,
    );
  }

  // One-commit pushes: the indexer's cost for each (history recorded with it) and the first blame after it.
  const pushed: number[] = [];
  const afterPush: number[] = [];
  const gitAfterPush: number[] = [];
  for (let c = 0; c < 10; c++) {
    big = [...big];
    for (let k = 0; k < 6; k++) big.splice(Math.floor(rand() * big.length), 1, `  const push${c}_${k} = touched(${c});`);
    await commitFiles(repo.dir, { 'src/big.ts': big.join('\n') + '\n' }, `push ${c}`);
    const next = (await source.head(repository, 'main'))!;
    pushed.push(
      await time(() =>
        indexRef(
          { index, source, options: DEFAULT_INDEX_REF_OPTIONS, now: () => new Date(), history: { store: history, options: { depth: 500, maxBlobBytes: 1 << 20, concurrency: 4 } } },
          { repository, ref: 'refs/heads/main', head: next },
        ),
      ),
    );
    afterPush.push(await time(() => call('blame', { repository: 'bench/history', path: 'src/big.ts' })));
    gitAfterPush.push(await time(() => git(['blame', '--porcelain', 'main', '--', 'src/big.ts'])));
  }
  const median = (v: number[]): string => quantile(v, 0.5).toFixed(1).padStart(7);

  // The indexer's cost of version blames, computed again over the stored history: every commit as a
  // backfill does (nothing stored below), and the last push's one commit (its parent's blame stored).
  const ref = (await history.getRefHistory(repository.id, 'refs/heads/main'))!;
  const held = new Map((await history.getCommits(repository.id, ref.commits)).map((c) => [c.sha, c] as [string, CommitRecord]));
  // The store as the indexer sees it, writing nothing: the stored history read, blames below hidden or not.
  const scratch = (storedBelow: boolean): HistoryStore =>
    Object.assign(Object.create(history) as HistoryStore, {
      getVersionBlames: (...a: Parameters<HistoryStore['getVersionBlames']>) => (storedBelow ? history.getVersionBlames(...a) : Promise.resolve([])),
      putVersionBlames: () => Promise.resolve(),
    });
  const backfill: number[] = [];
  const onePush: number[] = [];
  let stats: Awaited<ReturnType<typeof storeVersionBlames>> | undefined;
  for (let r = 0; r < 5; r++) {
    backfill.push(await time(async () => void (stats = await storeVersionBlames(scratch(false), repository.id, held, [...held.values()]))));
    onePush.push(await time(() => storeVersionBlames(scratch(true), repository.id, held, [held.get(ref.head)!])));
  }
  const size = esIndex ? await elasticsearchBlameBytes(esIndex, prefix) : sqliteBlameBytes(join(root, 'history.sqlite'), repository.id);
  console.log(
    `version blames of ${held.size} commits (a backfill)       p50 ${median(backfill)} ms, ${(quantile(backfill, 0.5) / held.size).toFixed(2)} ms a commit; ${stats?.stored} versions, ${stats?.skipped} skipped`,
  );
  console.log(`version blames of one pushed commit                p50 ${median(onePush)} ms`);
  console.log(`stored: ${size.n} version blames, ${size.bytes} bytes, ${(size.bytes / held.size).toFixed(0)} bytes a commit`);
  console.log(`one-commit push, indexed with history (10 pushes)  p50 ${median(pushed)} ms`);
  console.log(`first blame after a push (MCP)                     p50 ${median(afterPush)} ms`);
  console.log(`git blame --porcelain after a push                 p50 ${median(gitAfterPush)} ms`);
  await close();
  if (esIndex) await esIndex.client.indices.delete({ index: `${prefix}-*`, expand_wildcards: 'all', ignore_unavailable: true, allow_no_indices: true });
  await index.close();
  await standIn.close();
  await removeTempRoot(root);
}

/** The stored version blames: their count and the bytes of their blame field (SQLite). */
function sqliteBlameBytes(file: string, repositoryId: number): { n: number; bytes: number } {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare<[number], { n: number; bytes: number }>(`SELECT count(*) AS n, sum(length(blame)) AS bytes FROM version_blames WHERE repository_id = ?`).get(repositoryId)!;
  } finally {
    db.close();
  }
}

/** The stored version blames: their count and the store size of their index, merged to one segment (Elasticsearch). */
async function elasticsearchBlameBytes(store: ElasticsearchIndexStore, prefix: string): Promise<{ n: number; bytes: number }> {
  const index = `${prefix}-version-blames`;
  await store.client.indices.refresh({ index });
  await store.client.indices.forcemerge({ index, max_num_segments: 1, flush: true });
  const stats = await store.client.indices.stats({ index, metric: ['store', 'docs'] });
  const primaries = Object.values(stats.indices ?? {})[0]?.primaries;
  return { n: primaries?.docs?.count ?? 0, bytes: primaries?.store?.size_in_bytes ?? 0 };
}

void main();
