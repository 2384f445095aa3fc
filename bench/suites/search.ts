import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { HAS_CONTENT_WORD } from '@gitdex/elasticsearch';
import { callOk } from '../mcp/clients';
import { timed } from '../measure/timer';
import { exportTree } from '../data/git-repo';
import { figure, row, type Figure, type Row } from '../report/model';
import type { Backend } from '../setup/backends';
import type { BenchRepo } from '../setup/repos';
import type { SuiteContext } from './context';
import { mediumCheckout, startGitdexStdio } from './reads';

interface SearchCase {
  label: string;
  args: { query: string; regex?: boolean; case_sensitive?: boolean; repositories?: string[] };
  /** Flags for rg and git grep (-F for literals, -i, …). */
  flags: string[];
  /** A query with a rare trigram: held to the selective targets on the large corpus. */
  selective?: boolean;
}

/** ripgrep from the Debian package, installed with apt-get (as root) when it is missing. */
function ripgrep(ctx: SuiteContext): string | null {
  const which = () => spawnSync('sh', ['-c', 'command -v rg'], { encoding: 'utf8' }).stdout.trim();
  if (which()) return which();
  if (process.getuid?.() === 0) {
    ctx.log('search: installing ripgrep (apt-get install ripgrep)');
    spawnSync('apt-get', ['install', '-y', '-q', 'ripgrep'], { stdio: 'ignore', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (!which()) spawnSync('sh', ['-c', 'apt-get update -q && apt-get install -y -q ripgrep'], { stdio: 'ignore', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  }
  return which() || null;
}

/** How many rare words a target keeps for the first-ask case. */
const FIRST_ASK_WORDS = 60;

/**
 * Identifiers of the checkout's source files: rare ones (each in one file, camel case; the
 * first is the selective case's) and a frequent one (common).
 */
function pickWords(checkout: string, files: string[]): { rare: string; rares: string[]; common: string } {
  const counts = new Map<string, number>();
  for (const path of files.slice(0, 400)) {
    let text: string;
    try {
      text = readFileSync(join(checkout, path), 'utf8');
    } catch {
      continue;
    }
    for (const word of new Set(text.match(/[A-Za-z_][A-Za-z0-9_]{7,}/g) ?? [])) counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  const sorted = [...counts.entries()].sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1));
  const rares = sorted.filter(([w, n]) => n === 1 && /[a-z][A-Z]/.test(w)).map(([w]) => w);
  const rare = rares[0] ?? sorted[0]?.[0] ?? 'createServer';
  // Spread over the sorted list, so the words are not all from one file.
  const step = Math.max(1, Math.floor(rares.length / FIRST_ASK_WORDS));
  return { rare, rares: rares.filter((_, i) => i % step === 0).slice(0, FIRST_ASK_WORDS), common: 'return' };
}

/** Runs a search command in `cwd` over `paths` (relative to it) and answers its time. */
function timeCommand(command: string, args: string[], cwd: string, paths: string[]): number {
  const started = performance.now();
  const result = spawnSync(command, [...args, '--', ...paths], { cwd, stdio: ['ignore', 'ignore', 'ignore'] });
  if (result.status !== 0 && result.status !== 1) throw new Error(`${command} ${args.join(' ')} exited ${result.status}`);
  return performance.now() - started;
}

/**
 * Bytes of the index per byte of content (content trigrams only, and everything), per
 * backend. The content is what the index holds, counted by the index itself: every
 * repository and version the run wrote, not one repository's checkout.
 */
async function indexOverhead(ctx: SuiteContext, backend: Backend): Promise<string[]> {
  if (backend.name === 'elasticsearch' && ctx.engines) {
    const files = `${ctx.engines.elasticsearchUrl}/${backend.readEnv.ELASTICSEARCH_INDEX_PREFIX}-files`;
    const post = async <T>(url: string, body?: unknown): Promise<T> =>
      (await (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) })).json()) as T;
    // Every document with content holds HAS_CONTENT_WORD: their sizes summed are the content indexed.
    const sized = await post<{ aggregations?: { bytes?: { value?: number } } }>(`${files}/_search`, {
      size: 0,
      query: { term: { contentTrigrams: HAS_CONTENT_WORD } },
      aggs: { bytes: { sum: { field: 'size' } } },
    });
    const contentBytes = sized.aggregations?.bytes?.value ?? 0;
    const usage = await post<Record<string, { store_size_in_bytes?: number; fields?: Record<string, { total_in_bytes?: number }> }>>(`${files}/_disk_usage?run_expensive_tasks=true`);
    const index = Object.values(usage).find((v) => v && typeof v === 'object' && 'fields' in v);
    const trigrams = index?.fields?.contentTrigrams?.total_in_bytes ?? 0;
    const total = index?.store_size_in_bytes ?? 0;
    if (contentBytes === 0) return ['Elasticsearch: overhead not measured (no content indexed)'];
    return [
      `Elasticsearch: content trigrams ${(trigrams / contentBytes).toFixed(2)} bytes per byte of content; the whole files index ${(total / contentBytes).toFixed(2)} (content stored once in _source, compressed; ${(contentBytes / 1e6).toFixed(1)} MB of content in the index, every version the run wrote)`,
    ];
  }
  const dataDir = backend.readEnv.GITDEX_DATA_DIR;
  const file = dataDir ? [join(dataDir, 'index.sqlite'), join(dataDir, 'gitdex-index.sqlite')].find(existsSync) : undefined;
  if (!file) return ['SQLite: index file not found for the overhead'];
  const db = new Database(file, { readonly: true });
  try {
    const contentBytes = db.prepare(`SELECT COALESCE(SUM(LENGTH(CAST(content AS BLOB))), 0) FROM blobs WHERE content IS NOT NULL`).pluck().get() as number;
    const fts = db.prepare(`SELECT COALESCE(SUM(pgsize), 0) FROM dbstat WHERE name LIKE 'file_text%'`).pluck().get() as number;
    if (contentBytes === 0) return ['SQLite: overhead not measured (no content indexed)'];
    return [
      `SQLite: FTS5 trigram index ${(fts / contentBytes).toFixed(2)} bytes per byte of content; the whole file ${(statSync(file).size / contentBytes).toFixed(2)} (${(contentBytes / 1e6).toFixed(1)} MB of content in the index)`,
    ];
  } catch (error) {
    return [`SQLite: overhead not measured (${error instanceof Error ? error.message : String(error)})`];
  } finally {
    db.close();
  }
}

/** A repository searched by the suite, with a checkout of the commit the index holds. */
interface SearchTarget {
  name: 'medium' | 'large';
  fullName: string;
  checkout: string;
  /** Its rare and common words, picked once from the checkout's source files. */
  words: { rare: string; rares: string[]; common: string };
  /** What ripgrep and git grep search, relative to the checkout (default: all of it). */
  paths?: string[];
}

async function searchTargets(ctx: SuiteContext, backend: Backend): Promise<SearchTarget[]> {
  const target = (name: SearchTarget['name'], repo: BenchRepo, checkout: string): SearchTarget => {
    const files = repo.corpus.files.map((f) => f.path).filter((p) => /\.(js|ts|mjs|cjs)$/.test(p));
    return { name, fullName: repo.fullName, checkout, words: pickWords(checkout, files) };
  };
  const targets: SearchTarget[] = [target('medium', ctx.repos.medium, await mediumCheckout(ctx))];
  // The large repository is indexed only by runs with the indexing suite; its one-file pushes
  // moved its head, and the index with it, so the checkout is taken now.
  const large = ctx.repos.large;
  if (large && largeIndexed(ctx, backend)) {
    const checkout = join(ctx.workDir, 'checkout-large');
    if (!existsSync(checkout)) await exportTree(large.dir, checkout);
    targets.push(target('large', large, checkout));
  }
  return targets;
}

/** Whether this run indexed the large repository on this backend (only runs with the indexing suite do). */
function largeIndexed(ctx: SuiteContext, backend: Backend): boolean {
  return ctx.results.rows.some((r) => r.suite === 'indexing' && r.backend === backend.name && r.case.startsWith('full index large'));
}

function casesOf(target: SearchTarget): SearchCase[] {
  const { rare, common } = target.words;
  const cases: SearchCase[] = [
    { label: `selective literal "${rare}"`, args: { query: rare, case_sensitive: true }, flags: ['-F'], selective: true },
    { label: `common literal "${common}"`, args: { query: common, case_sensitive: true }, flags: ['-F'] },
    { label: 'regex "function\\s+\\w+Error\\("', args: { query: 'function\\s+\\w+Error\\(', regex: true, case_sensitive: true }, flags: ['-E'] },
    { label: `case-insensitive literal "${rare.toLowerCase()}"`, args: { query: rare.toLowerCase(), case_sensitive: false }, flags: ['-F', '-i'], selective: true },
  ];
  return cases;
}

/**
 * Several repositories in one call (`repositories`: every target), beside ripgrep and git
 * grep over the checkouts of all of them: the same files on both sides.
 */
function severalRepositories(targets: SearchTarget[]): { target: SearchTarget; case: SearchCase } | null {
  const [first] = targets;
  if (!first || targets.length < 2) return null;
  const { rare } = first.words;
  const names = targets.map((t) => t.name).join(' + ');
  return {
    target: { ...first, checkout: dirname(first.checkout), paths: targets.map((t) => basename(t.checkout)) },
    case: { label: `${targets.length} repositories (${names}), literal "${rare}"`, args: { query: rare, case_sensitive: true, repositories: targets.map((t) => t.fullName) }, flags: ['-F'] },
  };
}

/**
 * The targets of a case (docs/search.md): no class slower than ripgrep at p50; on the large
 * corpus, selective queries at p50 ≤ 0.1× ripgrep and, on Elasticsearch, p99 ≤ 200 ms.
 */
function targetOf(target: SearchTarget, selective: boolean, backend: Backend, value: Figure, ratio: number): Row['target'] {
  if (target.name === 'large' && selective) {
    const p99Bound = backend.name === 'elasticsearch' ? 200 : Infinity;
    const met = Number.isFinite(ratio) ? ratio <= 0.1 && value.summary.p99 <= p99Bound : null;
    return { text: `p50 ≤ 0.1× ripgrep p50${backend.name === 'elasticsearch' ? ', p99 ≤ 200 ms' : ''}`, met };
  }
  return { text: 'p50 ≤ ripgrep p50', met: Number.isFinite(ratio) ? ratio <= 1 : null };
}

/** One timed ask: gitdex, then ripgrep and git grep over the same files with the same query. */
interface Ask {
  args: Record<string, unknown>;
  query: string;
  flags: string[];
  timed: boolean;
}

interface Timings {
  mine: number[];
  rg: number[];
  git: number[];
}

async function timeAsks(gitdex: { client: Parameters<typeof callOk>[0] }, rg: string | null, target: SearchTarget, asks: Ask[]): Promise<Timings> {
  const times: Timings = { mine: [], rg: [], git: [] };
  const paths = target.paths ?? ['.'];
  for (const ask of asks) {
    const took = (await timed(() => callOk(gitdex.client, 'search_code', ask.args))).ms;
    const r = rg ? timeCommand(rg, ['-n', '--no-heading', '-uu', ...ask.flags.filter((f) => f !== '-E'), '-e', ask.query], target.checkout, paths) : NaN;
    // git grep -E has no \s/\w in ERE of every libc: give it -P for the regex case. The
    // checkout is a plain export of the commit: git grep --no-index reads the same files.
    const gitFlags = ask.flags.map((f) => (f === '-E' ? '-P' : f));
    const g = timeCommand('git', ['grep', '--no-index', '-n', '-I', ...gitFlags, '-e', ask.query], target.checkout, paths);
    if (!ask.timed) continue;
    times.mine.push(took);
    times.rg.push(r);
    times.git.push(g);
  }
  return times;
}

/**
 * search_code through MCP stdio beside ripgrep and git grep on a checkout of the same commit.
 * First asks lead: distinct rare words, each asked once (no answer of that query cached by
 * the reader or the engine; the files themselves are in the OS page cache on both sides; the
 * reader keeps the contents the asks before it verified, as a running reader does, starting
 * empty).
 * Then the same query repeated (warm): selective and common literals, a regex, a
 * case-insensitive literal on the medium repository and (when the run indexed it) the large
 * one, and several repositories in one call.
 */
export async function searchSuite(ctx: SuiteContext, backend: Backend): Promise<void> {
  const targets = await searchTargets(ctx, backend);
  const rg = ripgrep(ctx);
  if (!rg) ctx.results.notes.push('search: ripgrep could not be installed; only git grep is compared');
  const gitdex = await startGitdexStdio(backend);
  const { samples, warmup } = ctx.config.search;
  const record = (target: SearchTarget, selective: boolean, label: string, times: Timings) => {
    const value = figure(`gitdex search_code (${backend.name}) via MCP stdio`, 'ms', times.mine);
    const baseline = rg ? figure('ripgrep on a checkout', 'ms', times.rg) : figure('git grep on a checkout', 'ms', times.git);
    const ratio = value.summary.median / baseline.summary.median;
    ctx.results.rows.push(
      row({ suite: 'search', backend: backend.name, case: label, value, baseline, target: targetOf(target, selective, backend, value, ratio) }),
      row({ suite: 'search', backend: backend.name, case: `${label} (beside git grep)`, value, baseline: figure('git grep on a checkout', 'ms', times.git) }),
    );
    ctx.log(
      `  ${backend.name} ${label}: gitdex ${value.summary.median.toFixed(1)} ms, rg ${Number.isFinite(baseline.summary.median) ? baseline.summary.median.toFixed(1) : '-'} ms, git grep ${figure('g', 'ms', times.git).summary.median.toFixed(1)} ms`,
    );
  };
  try {
    for (const target of targets) {
      const words = target.words.rares.slice(0, Math.max(samples, 3));
      const asks = words.map((word): Ask => ({ args: { query: word, case_sensitive: true, repository: target.fullName, limit: 20, context_lines: 0 }, query: word, flags: ['-F'], timed: true }));
      record(target, true, `${target.name}: first ask: selective literals, ${words.length} distinct words each asked once`, await timeAsks(gitdex, rg, target, asks));
    }
    const several = severalRepositories(targets);
    const runs = [...targets.flatMap((target) => casesOf(target).map((c) => ({ target, case: c }))), ...(several ? [several] : [])];
    for (const { target, case: c } of runs) {
      const args = { ...c.args, ...(c.args.repositories ? {} : { repository: target.fullName }), limit: 20, context_lines: 0 };
      const asks = Array.from({ length: warmup + samples }, (_, i): Ask => ({ args, query: c.args.query, flags: c.flags, timed: i >= warmup }));
      const label = c.args.repositories ? c.label : `${target.name}: ${c.label}`;
      record(target, c.selective === true, `${label} (warm: the same query again)`, await timeAsks(gitdex, rg, target, asks));
    }
  } finally {
    await gitdex.close();
  }
  ctx.results.profiles.push({ title: `search_code on ${backend.name}: index overhead`, lines: await indexOverhead(ctx, backend) });
}
