/**
 * What history costs and how fast list_commits answers, on SQLite and Elasticsearch, through the
 * real indexer (handleEvent) against the GitHub stand-in, in one run with history off as the baseline:
 *
 * 1. GitHub requests of a first index (backfill of every commit of a repository of `commits`
 *    commits), history off and on: the difference per backfilled commit, by route;
 *    The same first index is also run with the commit endpoint for every commit (the way before
 *    trees were diffed here), as the baseline of requests and time, and every stored commit of
 *    the two is checked equal;
 * 2. GitHub requests of pushes (one commit of one file; three commits at once), history off and on;
 * 3. index bytes history adds per commit (SQLite: dbstat pages of its tables; Elasticsearch: store
 *    bytes of its indices after a flush and a merge to one segment);
 * 4. list_commits through MCP (the SDK client on an in-memory transport, the server as gitdex
 *    serves it): the first call, then p50 over distinct calls (no path, then each of `paths` files
 *    and folders), beside `git log -n 30 [-- path]` on the local repository in the same run.
 *
 * Needs the build (`node scripts/prepare.mjs --build`); Elasticsearch for the es backend. Run:
 *   ELASTICSEARCH_URL=... node scripts/prepare.mjs -- tsx --tsconfig bench/tsconfig.json bench/measure/history.ts \
 *     [--commits 300] [--paths 40] [--backends sqlite,es]
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { Client as EsClient } from '@elastic/elasticsearch';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { GitdexEvent } from '@gitdex/contracts';
import { ElasticsearchHistory, ElasticsearchIndexStore } from '@gitdex/elasticsearch';
import { GitHubSource } from '@gitdex/github';
import { DEFAULT_INDEX_REF_OPTIONS, handleEvent, RefSelection, type HandleEventDeps } from '@gitdex/indexer';
import type { HistoryStore, IndexStore } from '@gitdex/ports';
import { connectMcpServer, resolveDeps } from '@gitdex/reader';
import { SqliteHistory, SqliteIndexStore } from '@gitdex/sqlite';
import { commitFiles, createRepo, makeTempRoot, removeTempRoot, renamePath, type FileChanges } from '../../test/github-standin/fixture-repos';
import { createGitHubStandIn } from '../../test/github-standin/server';
import { median } from './stats';

const { values } = parseArgs({ options: { commits: { type: 'string', default: '300' }, paths: { type: 'string', default: '40' }, backends: { type: 'string', default: 'sqlite,es' } } });
const COMMITS = Number(values.commits);
const PATHS = Number(values.paths);
const TOKEN = 'history-bench-token';
const MAIN = 'refs/heads/main';

const line = (i: number, n: number) => `export const value${i}_${n} = ${n}; // ${'x'.repeat(40)}\n`;

/** A repository of 200 files (~1.5 kB each) and `commits` commits of one to three files each, with a rename every 25. */
async function buildRepository(root: string): Promise<string> {
  const files: FileChanges = {};
  for (let i = 0; i < 200; i += 1) files[`src/m${i % 10}/file${i}.ts`] = Array.from({ length: 30 }, (_, n) => line(i, n)).join('');
  const repo = await createRepo(root, 'bench', 'hist', files);
  for (let c = 1; c < COMMITS; c += 1) {
    if (c % 25 === 0) {
      await renamePath(repo.dir, `src/m${c % 10}/file${c % 200}.ts`, `src/m${c % 10}/moved${c}.ts`, `Move file${c % 200}`);
      continue;
    }
    const changes: FileChanges = {};
    for (let k = 0; k < 1 + (c % 3); k += 1) {
      const i = (c * 7 + k * 13) % 200;
      changes[`src/m${i % 10}/file${i}.ts`] = Array.from({ length: 30 }, (_, n) => line(i, n === c % 30 ? n + c * 1000 : n)).join('');
    }
    await commitFiles(repo.dir, changes, `Commit ${c}\n\nTouches ${Object.keys(changes).join(', ')}.`);
  }
  return repo.dir;
}

interface Backend {
  index: IndexStore;
  history: HistoryStore & { close(): unknown };
  bytes(): Promise<number>;
  close(): Promise<void>;
}

function sqliteBackend(dir: string, name: string): Backend {
  const file = join(dir, `${name}.sqlite`);
  const index = new SqliteIndexStore({ file });
  const history = new SqliteHistory({ file });
  return {
    index,
    history,
    bytes: () => {
      const db = new Database(file, { readonly: true });
      try {
        const row = db
          .prepare(
            `SELECT SUM(pgsize) AS bytes FROM dbstat WHERE name IN ('commits', 'ref_history', 'history_blobs') OR name LIKE 'sqlite_autoindex_commits%' OR name LIKE 'sqlite_autoindex_ref_history%' OR name LIKE 'sqlite_autoindex_history_blobs%'`,
          )
          .get() as { bytes: number | null };
        return Promise.resolve(row.bytes ?? 0);
      } finally {
        db.close();
      }
    },
    close: async () => {
      history.close();
      await index.close();
    },
  };
}

function esBackend(prefix: string): Backend {
  const url = process.env.ELASTICSEARCH_URL as string;
  const index = new ElasticsearchIndexStore({ node: url, indexPrefix: prefix });
  const history = Object.assign(new ElasticsearchHistory(index.client, { indexPrefix: prefix }), { close: () => undefined });
  const admin = new EsClient({ node: url });
  const names = [`${prefix}-commits`, `${prefix}-ref-history`, `${prefix}-history-blobs`];
  return {
    index,
    history,
    bytes: async () => {
      await admin.indices.refresh({ index: names });
      await admin.indices.forcemerge({ index: names, max_num_segments: 1, flush: true });
      const stats = await admin.indices.stats({ index: names, metric: 'store' });
      return Object.values(stats.indices ?? {}).reduce((sum, s) => sum + (s.primaries?.store?.size_in_bytes ?? 0), 0);
    },
    close: async () => {
      await index.close();
      await admin.indices.delete({ index: `${prefix}-*`, expand_wildcards: 'all', ignore_unavailable: true, allow_no_indices: true });
      await admin.indices.deleteIndexTemplate({ name: `${prefix}-*` }).catch(() => undefined);
      await admin.close();
    },
  };
}

async function main(): Promise<void> {
  const root = await makeTempRoot('gitdex-history-bench-');
  const standIn = await createGitHubStandIn({ root, token: TOKEN, rateLimit: { limit: 10_000_000 } });
  try {
    const t0 = performance.now();
    const dir = await buildRepository(root);
    console.log(`repository: ${COMMITS} commits built in ${Math.round((performance.now() - t0) / 1000)} s`);
    const repositoryId = await standIn.repoId('bench', 'hist');
    const source = new GitHubSource({ baseUrl: standIn.url, token: TOKEN });
    const git = (...args: string[]) => execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8' });

    for (const kind of values.backends.split(',')) {
      const make = (name: string) => (kind === 'es' ? esBackend(`histbench${name}${Date.now().toString(36)}`) : sqliteBackend(root, `${name}-${Date.now().toString(36)}`));
      const off = make('off');
      const on = make('on');
      const depsOf = (b: Backend, withHistory: boolean, from: GitHubSource = source): HandleEventDeps => ({
        index: b.index,
        source: from,
        refs: new RefSelection(['default']),
        options: DEFAULT_INDEX_REF_OPTIONS,
        ...(withHistory ? { history: { store: b.history, options: { depth: 500, maxBlobBytes: 1024 * 1024, concurrency: 8 } } } : {}),
        now: () => new Date(),
      });
      await off.index.ensureReady();
      await on.index.ensureReady();
      await on.history.ensureHistoryReady();
      const envelope = { repository: { id: repositoryId, fullName: 'bench/hist' }, receivedAt: new Date().toISOString() };
      const counted = async (b: Backend, withHistory: boolean, event: GitdexEvent, from?: GitHubSource): Promise<{ counts: Record<string, number>; ms: number }> => {
        standIn.requests.reset();
        const start = performance.now();
        await handleEvent(depsOf(b, withHistory, from), event);
        return { counts: standIn.requests.counts(), ms: performance.now() - start };
      };
      const total = (c: Record<string, number>) => Object.values(c).reduce((a, b) => a + b, 0);

      const backfill = { kind: 'backfill', eventId: 'first', reason: 'cli', ...envelope } as GitdexEvent;
      const first = { off: await counted(off, false, backfill), on: await counted(on, true, backfill) };
      const held = (await on.history.getRefHistory(repositoryId, MAIN))?.commits.length ?? 0;
      console.log(`\n[${kind}] first index of ${COMMITS} commits (history held: ${held})`);
      console.log(`  history off: ${total(first.off.counts)} requests, ${Math.round(first.off.ms)} ms ${JSON.stringify(first.off.counts)}`);
      console.log(`  history on:  ${total(first.on.counts)} requests, ${Math.round(first.on.ms)} ms ${JSON.stringify(first.on.counts)}`);
      console.log(`  added per backfilled commit: ${((total(first.on.counts) - total(first.off.counts)) / held).toFixed(3)} requests`);
      // The baseline: the same first index, every commit from the commit endpoint.
      const rest = make('rest');
      await rest.index.ensureReady();
      await rest.history.ensureHistoryReady();
      const restSource = new GitHubSource({ baseUrl: standIn.url, token: TOKEN });
      const reads = restSource.history!;
      Object.assign(restSource, { history: { commitLog: reads.commitLog.bind(reads), commitFiles: reads.commitFiles.bind(reads), blobs: reads.blobs.bind(reads) } });
      const byEndpoint = await counted(rest, true, backfill, restSource);
      console.log(`  history on, commit endpoint for every commit: ${total(byEndpoint.counts)} requests, ${Math.round(byEndpoint.ms)} ms ${JSON.stringify(byEndpoint.counts)}`);
      const shas = (await on.history.getRefHistory(repositoryId, MAIN))?.commits ?? [];
      const [mine, theirs] = [await on.history.getCommits(repositoryId, shas), await rest.history.getCommits(repositoryId, shas)];
      const key = (records: typeof mine) => JSON.stringify([...records].sort((a, b) => (a.sha < b.sha ? -1 : 1)));
      if (shas.length === 0 || key(mine) !== key(theirs)) throw new Error('the commits recorded from trees differ from the commit endpoint');
      console.log(`  ${shas.length} commits recorded from trees equal to those from the commit endpoint`);
      await rest.close();
      const bytes = await on.bytes();
      console.log(`  history bytes: ${bytes} (${Math.round(bytes / held)} a commit, blobs included)`);

      let served = git('rev-parse', 'main').trim();
      const pushes: Record<string, { off: number[]; on: number[]; offMs: number[]; onMs: number[] }> = {
        'one commit': { off: [], on: [], offMs: [], onMs: [] },
        'three commits': { off: [], on: [], offMs: [], onMs: [] },
      };
      for (let round = 0; round < 5; round += 1) {
        for (const [label, count] of [
          ['one commit', 1],
          ['three commits', 3],
        ] as const) {
          let head = served;
          for (let k = 0; k < count; k += 1) head = await commitFiles(dir, { [`src/m${k}/file${k * 10 + round}.ts`]: `export const pushed = ${round * 10 + k};\n` }, `${label} ${round}.${k}`);
          const event = { kind: 'push', eventId: `p${round}${label}`, ...envelope, ref: MAIN, before: served, after: head, created: false, deleted: false, forced: false } as GitdexEvent;
          const a = await counted(off, false, event);
          const b = await counted(on, true, event);
          pushes[label]!.off.push(total(a.counts));
          pushes[label]!.on.push(total(b.counts));
          pushes[label]!.offMs.push(a.ms);
          pushes[label]!.onMs.push(b.ms);
          served = head;
        }
      }
      for (const [label, p] of Object.entries(pushes)) {
        console.log(`  push of ${label}: requests median off ${median(p.off)}, on ${median(p.on)}; handleEvent median off ${Math.round(median(p.offMs))} ms, on ${Math.round(median(p.onMs))} ms`);
      }

      // list_commits through MCP, as gitdex serves it, beside git log on the local repository.
      const deps = resolveDeps({ index: on.index, history: on.history });
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const server = await connectMcpServer(deps, serverSide, { principal: null, transport: 'memory' });
      const client = new Client({ name: 'history-bench', version: '1.0.0' });
      await client.connect(clientSide);
      const files = git('ls-tree', '-r', '--name-only', 'main').trim().split('\n');
      const paths = [undefined, 'src', ...files.filter((_, i) => i % Math.max(1, Math.floor(files.length / PATHS)) === 0).slice(0, PATHS)];
      const mcpMs: number[] = [];
      const gitMs: number[] = [];
      for (const path of paths) {
        const start = performance.now();
        const result = await client.callTool({ name: 'list_commits', arguments: { repository: 'bench/hist', ...(path ? { path } : {}) } });
        mcpMs.push(performance.now() - start);
        if (result.isError) throw new Error(`list_commits failed: ${JSON.stringify(result.content)}`);
        const listed = (result.structuredContent as { commits: { sha: string }[] }).commits.map((c) => c.sha);
        const gitStart = performance.now();
        const truth = git('log', '-n', '30', '--format=%H', 'main', '--', ...(path ? [path] : []))
          .trim()
          .split('\n')
          .filter(Boolean);
        gitMs.push(performance.now() - gitStart);
        if (JSON.stringify(listed) !== JSON.stringify(truth)) throw new Error(`list_commits ${path ?? ''} differs from git log`);
      }
      await client.close();
      await server.close();
      console.log(
        `  list_commits through MCP: first call ${mcpMs[0]!.toFixed(1)} ms; p50 of ${paths.length} distinct calls ${median(mcpMs).toFixed(2)} ms; git log p50 ${median(gitMs).toFixed(2)} ms (ratio ${(median(mcpMs) / median(gitMs)).toFixed(2)}), every answer equal to git log`,
      );
      await off.close();
      await on.close();
    }
  } finally {
    await standIn.close();
    await removeTempRoot(root);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
