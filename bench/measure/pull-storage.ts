/**
 * What open pull requests cost the index now that a pull request is stored layered on its base
 * branch (only the paths it changes), on SQLite and Elasticsearch, through the real indexer
 * (handleEvent) against the GitHub stand-in and its webhooks:
 *
 * 1. storage: a repository of `files` files (~1.7 kB each) indexed at main, then `pulls` open
 *    pull requests of `changed` changed files each (`opened`): SQLite page_count × page_size and
 *    rows, Elasticsearch store bytes after refresh + forcemerge to one segment and documents;
 * 2. cost: `rounds` times, a new pull request of `changed` files indexed at `opened`, then the
 *    same changes pushed to main: GitHub requests (the stand-in's log) and handleEvent's time.
 *
 * Needs the build (`node scripts/prepare.mjs --build`); Elasticsearch for the es backend. Run:
 *   ELASTICSEARCH_URL=... node scripts/prepare.mjs -- tsx --tsconfig bench/tsconfig.json bench/measure/pull-storage.ts \
 *     [--files 1700] [--pulls 20] [--changed 5] [--rounds 7] [--backends sqlite,es] [--no-token] [--history]
 *
 * `--history` keeps history too (GITDEX_HISTORY_DEPTH 500), so a pull request's cost includes
 * recording its commits on its base branch's.
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { Client } from '@elastic/elasticsearch';
import type { GitdexEvent } from '@gitdex/contracts';
import { ElasticsearchHistory, ElasticsearchIndexStore } from '@gitdex/elasticsearch';
import { GitHubSource } from '@gitdex/github';
import { DEFAULT_INDEX_REF_OPTIONS, handleEvent, RefSelection, type HandleEventDeps } from '@gitdex/indexer';
import type { HistoryStore, IndexStore, Snapshot } from '@gitdex/ports';
import { SqliteHistory, SqliteIndexStore } from '@gitdex/sqlite';
import { normalizeDelivery } from '@gitdex/webhook';
import { commitFiles, createBranch, createRepo, makeTempRoot, removeTempRoot, type FileChanges } from '../../test/github-standin/fixture-repos';
import { createGitHubStandIn } from '../../test/github-standin/server';
import { startWebhookReceiver } from '../../test/github-standin/webhook-receiver';
import { median } from './stats';

const { values: args } = parseArgs({
  options: {
    files: { type: 'string', default: '1700' },
    pulls: { type: 'string', default: '20' },
    changed: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '7' },
    backends: { type: 'string', default: 'sqlite,es' },
    'no-token': { type: 'boolean', default: false },
    history: { type: 'boolean', default: false },
  },
});
const FILES = Number(args.files);
const PULLS = Number(args.pulls);
const CHANGED = Number(args.changed);
const ROUNDS = Number(args.rounds);
const TOKEN = args['no-token'] ? undefined : 'ghp_benchpulls';
const SECRET = 'bench-pulls';
const ES_URL = process.env.ELASTICSEARCH_URL ?? 'http://127.0.0.1:9200';
const MAIN = 'refs/heads/main';

/** ~1.7 kB of code-like text, distinct per file. */
function fileText(i: number, salt = ''): string {
  const lines: string[] = [`// module ${i}${salt}`];
  for (let j = 0; lines.join('\n').length < 1650; j += 1) lines.push(`export const value_${i}_${j} = compute(${(i * 7919 + j * 104729) % 1_000_003}, "k${(i * 31 + j) % 977}");`);
  return `${lines.join('\n')}\n`;
}
const pathOf = (i: number) => `src/pkg-${i % 50}/dir-${i % 7}/module-${i}.ts`;
/** `changed` files spread over the repository, different for every `k`. */
function changes(k: number, label: string): FileChanges {
  const out: FileChanges = {};
  for (let j = 0; j < CHANGED; j += 1) {
    const i = (k * 13 + j * Math.floor(FILES / CHANGED)) % FILES;
    out[pathOf(i)] = fileText(i, ` changed on ${label}`);
  }
  return out;
}

/**
 * The figures count only if a layered pull request still reads as its whole head: every path of
 * the repository visible, its own changes and the base's other files with their content.
 */
async function checkReads(index: IndexStore, repositoryId: number): Promise<void> {
  for (const k of [1, PULLS]) {
    const state = await index.getRefState(repositoryId, `refs/pull/${k}/head`);
    if (!state?.underlay) throw new Error(`refs/pull/${k}/head is not layered: ${JSON.stringify(state)}`);
    const snapshot: Snapshot = { repositoryId, ref: state.ref, generation: state.generation, underlay: state.underlay };
    let visible = 0;
    for (let after: string | null = null; ;) {
      const page = await index.visibleEntries(snapshot, after, 5000);
      visible += page.length;
      if (page.length < 5000) break;
      after = page[page.length - 1]!.path;
    }
    if (visible !== FILES || state.fileCount !== FILES) throw new Error(`refs/pull/${k}/head sees ${visible} paths (fileCount ${state.fileCount}), not ${FILES}`);
    const [changedPath, changedText] = Object.entries(changes(k, `pr-${k}`))[0]!;
    const own = await index.getFile(snapshot, changedPath);
    if (own?.content !== changedText) throw new Error(`refs/pull/${k}/head: ${changedPath} is not the pull request's version`);
    const unchanged = [...Array(FILES).keys()].find((i) => !(pathOf(i) in changes(k, `pr-${k}`)))!;
    const base = await index.getFile(snapshot, pathOf(unchanged));
    if (base?.content !== fileText(unchanged)) throw new Error(`refs/pull/${k}/head: ${pathOf(unchanged)} is not main's version`);
  }
}

interface Size {
  bytes: number;
  rows: Record<string, number>;
}

interface Backend {
  name: string;
  index: IndexStore;
  history: HistoryStore;
  size(): Promise<Size>;
  close(): Promise<void>;
}

async function sqliteBackend(root: string): Promise<Backend> {
  const file = join(root, 'index.sqlite');
  const index = new SqliteIndexStore({ file });
  await index.ensureReady();
  return {
    name: 'SQLite',
    index,
    history: new SqliteHistory({ file: join(root, 'history.sqlite') }),
    size() {
      const db = new Database(file, { readonly: true });
      try {
        const pages = db.pragma('page_count', { simple: true }) as number;
        const pageSize = db.pragma('page_size', { simple: true }) as number;
        const count = (table: string) => db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
        return Promise.resolve({ bytes: pages * pageSize, rows: { files: count('files'), blobs: count('blobs') } });
      } finally {
        db.close();
      }
    },
    close: () => index.close(),
  };
}

async function elasticsearchBackend(): Promise<Backend> {
  const prefix = `bench-pulls-${Date.now().toString(36)}`;
  const index = new ElasticsearchIndexStore({ node: ES_URL, indexPrefix: prefix });
  await index.ensureReady();
  const client = new Client({ node: ES_URL });
  const pattern = `${prefix}-*`;
  const history = new ElasticsearchHistory(index.client, { indexPrefix: prefix });
  await history.ensureHistoryReady();
  return {
    name: 'Elasticsearch',
    index,
    history,
    async size() {
      await client.indices.refresh({ index: pattern });
      const deleted = (await client.indices.stats({ index: pattern, metric: ['docs'] }))._all.primaries?.docs?.deleted ?? 0;
      // A shard already in one segment is left as it is by max_num_segments=1, deleted documents
      // and all: those are expunged first, so both sides count only live documents.
      await client.indices.forcemerge({ index: pattern, only_expunge_deletes: true });
      await client.indices.forcemerge({ index: pattern, max_num_segments: 1 });
      // The merged-away segments' files go once no searcher holds them: refresh and flush release them.
      await client.indices.refresh({ index: pattern });
      await client.indices.flush({ index: pattern });
      const segments = (await client.indices.stats({ index: pattern, metric: ['segments'] }))._all.primaries?.segments?.count ?? 0;
      const stats = await client.indices.stats({ index: pattern, metric: ['store', 'docs'] });
      console.log(`(Elasticsearch: ${deleted} deleted documents expunged; ${stats._all.primaries?.docs?.deleted ?? 0} left; ${segments} segments)`);
      const rows: Record<string, number> = {};
      for (const name of Object.keys(stats.indices ?? {}).sort()) {
        const { count } = await client.count({ index: name });
        if (count > 0) rows[name.slice(prefix.length + 1)] = count;
      }
      return { bytes: stats._all.primaries?.store?.size_in_bytes ?? 0, rows };
    },
    async close() {
      await index.close();
      await client.indices.delete({ index: pattern, expand_wildcards: 'all', ignore_unavailable: true, allow_no_indices: true });
      await client.indices.deleteIndexTemplate({ name: pattern }).catch(() => undefined);
      await client.close();
    },
  };
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`;
const pct = (before: number, after: number) => `${after >= before ? '+' : ''}${(((after - before) / before) * 100).toFixed(1)} %`;
const requestLine = (counts: Record<string, number>[]) => {
  const sums: Record<string, number> = {};
  for (const c of counts) for (const [route, n] of Object.entries(c)) sums[route] = (sums[route] ?? 0) + n;
  return Object.entries(sums)
    .map(([route, n]) => `${route} ×${(n / counts.length).toFixed(1)}`)
    .join(', ');
};
const total = (c: Record<string, number>) => Object.values(c).reduce((a, b) => a + b, 0);

async function measure(which: 'sqlite' | 'es'): Promise<void> {
  const root = await makeTempRoot('gitdex-bench-pulls-');
  const receiver = await startWebhookReceiver(SECRET);
  const started = Date.now();
  try {
    const files: FileChanges = {};
    for (let i = 0; i < FILES; i += 1) files[pathOf(i)] = fileText(i);
    const { dir } = await createRepo(root, 'acme', 'big', files);
    for (let k = 1; k <= PULLS; k += 1) {
      await createBranch(dir, `pr-${k}`, 'main');
      await commitFiles(dir, changes(k, `pr-${k}`), `pr ${k}`, { branch: `pr-${k}` });
    }
    const standIn = await createGitHubStandIn({ root, webhookUrl: receiver.url, secret: SECRET, rateLimit: { limit: 10_000_000 }, ...(TOKEN ? { token: TOKEN } : {}) });
    const backend = which === 'sqlite' ? await sqliteBackend(root) : await elasticsearchBackend();
    try {
      const id = await standIn.repoId('acme', 'big');
      const deps: HandleEventDeps = {
        index: backend.index,
        source: new GitHubSource({ baseUrl: standIn.url, ...(TOKEN ? { token: TOKEN } : {}) }),
        options: DEFAULT_INDEX_REF_OPTIONS,
        now: () => new Date(),
        refs: new RefSelection(['default']),
        pulls: { indexed: 'open', closedRetentionSeconds: 86_400 },
        ...(args.history ? { history: { store: backend.history, options: { depth: 500, maxBlobBytes: 1 << 20, concurrency: 8 } } } : {}),
      };
      const delivered = (event: string): GitdexEvent => {
        const last = receiver.last(event);
        if (!last) throw new Error(`no ${event} delivery`);
        const normalized = normalizeDelivery({ event: last.event, deliveryId: last.deliveryId, payload: last.body, receivedAt: new Date().toISOString() });
        if (normalized.outcome !== 'events') throw new Error(`not admitted: ${JSON.stringify(normalized)}`);
        return normalized.events[0]!;
      };
      const open = async (head: string) => {
        const response = await fetch(`${standIn.url}/_admin/repos/acme/big/pulls`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ head, base: 'main', title: head }),
        });
        if (response.status !== 200) throw new Error(`open ${head}: ${response.status} ${await response.text()}`);
        return delivered('pull_request');
      };
      /** handleEvent's time and the GitHub requests it made. */
      const run = async (event: GitdexEvent) => {
        standIn.requests.reset();
        const t0 = performance.now();
        const outcome = await handleEvent(deps, event);
        const ms = performance.now() - t0;
        if (outcome.action !== 'synced') throw new Error(`not indexed: ${JSON.stringify(outcome)}`);
        return { ms, counts: standIn.requests.counts(), outcome };
      };

      await run({ kind: 'backfill', eventId: 'b-1', reason: 'cli', repository: { id, fullName: 'acme/big' }, receivedAt: new Date().toISOString() });
      const before = await backend.size();
      const strategies: Record<string, number> = {};
      for (let k = 1; k <= PULLS; k += 1) {
        const { outcome } = await run(await open(`pr-${k}`));
        for (const r of outcome.action === 'synced' ? outcome.refs : []) {
          const s = typeof r.outcome === 'string' ? r.outcome : r.outcome.status === 'indexed' ? r.outcome.strategy : r.outcome.status;
          strategies[s] = (strategies[s] ?? 0) + 1;
        }
      }
      const after = await backend.size();
      await checkReads(backend.index, id);

      const pullRuns: Awaited<ReturnType<typeof run>>[] = [];
      const pushRuns: Awaited<ReturnType<typeof run>>[] = [];
      for (let r = 0; r < ROUNDS; r += 1) {
        const label = `cost-${r}`;
        const same = changes(PULLS + 1 + r, label);
        await createBranch(dir, label, 'main');
        await commitFiles(dir, same, label, { branch: label });
        pullRuns.push(await run(await open(label)));
        await commitFiles(dir, same, `${label} on main`, { branch: 'main' });
        await standIn.push('acme', 'big', { ref: MAIN });
        pushRuns.push(await run(delivered('push')));
      }

      const rowsBefore = Object.entries(before.rows);
      console.log(`\n## ${backend.name}: ${FILES} files, ${PULLS} pull requests of ${CHANGED} changed files, token ${TOKEN ? 'yes' : 'no'}, history ${args.history ? 'kept' : 'not kept'}`);
      console.log(`pull request strategies: ${JSON.stringify(strategies)}`);
      console.log(`| | at main | after ${PULLS} PRs | growth |\n| --- | --- | --- | --- |`);
      console.log(`| bytes | ${mb(before.bytes)} | ${mb(after.bytes)} | ${pct(before.bytes, after.bytes)} |`);
      for (const [name, n] of rowsBefore) console.log(`| ${name} rows | ${n} | ${after.rows[name] ?? 0} | ${pct(n, after.rows[name] ?? 0)} |`);
      for (const [name, n] of Object.entries(after.rows)) if (!(name in before.rows)) console.log(`| ${name} rows | 0 | ${n} | new |`);
      console.log(`cost, median of ${ROUNDS}:`);
      console.log(`| PR opened | ${median(pullRuns.map((r) => r.ms)).toFixed(0)} ms | ${median(pullRuns.map((r) => total(r.counts)))} requests | ${requestLine(pullRuns.map((r) => r.counts))} |`);
      console.log(`| push to main | ${median(pushRuns.map((r) => r.ms)).toFixed(0)} ms | ${median(pushRuns.map((r) => total(r.counts)))} requests | ${requestLine(pushRuns.map((r) => r.counts))} |`);
      console.log(`ratio time PR/push ${(median(pullRuns.map((r) => r.ms)) / median(pushRuns.map((r) => r.ms))).toFixed(2)}; took ${((Date.now() - started) / 1000).toFixed(0)} s`);
    } finally {
      await backend.close();
      await standIn.close();
    }
  } finally {
    await receiver.close();
    await removeTempRoot(root);
  }
}

async function main(): Promise<void> {
  console.log(
    `load average at start: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  for (const which of args.backends.split(',')) await measure(which === 'es' ? 'es' : 'sqlite');
  console.log(
    `load average at end: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
