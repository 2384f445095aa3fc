import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Snapshot } from '@gitdex/ports';
import { exportTree } from '../data/git-repo';
import { REPO_ROOT } from '../data/corpora';
import { coldTargets, readTargets, type ColdTargets, type ReadTargets } from '../data/read-targets';
import { MAIN, startGitdex } from '../gitdex/child';
import { callOk, connectHttp, connectStdio, textOf, type McpConnection } from '../mcp/clients';
import { figure, row, type Row } from '../report/model';
import { formatNumber } from '../report/format';
import { extent, median } from '../measure/stats';
import { interleave, repeat, sleep, timed } from '../measure/timer';
import type { Backend } from '../setup/backends';
import { startTimingProxy } from '../measure/http-proxy';
import type { SuiteContext } from './context';

export const FILESYSTEM_SERVER = join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');

/** A plain checkout of the medium repository for the filesystem server (made once a run). */
export async function mediumCheckout(ctx: SuiteContext): Promise<string> {
  const dir = join(ctx.workDir, 'checkout-medium');
  if (!existsSync(dir)) await exportTree(ctx.repos.medium.dir, dir);
  return dir;
}

export function startGitdexStdio(backend: Backend): Promise<McpConnection> {
  return connectStdio(process.execPath, [MAIN, '--stdio'], { ...backend.readEnv, LOG_LEVEL: 'warn' });
}

interface ReadCase {
  label: string;
  short: string;
  gitdex: (i: number) => Promise<unknown>;
  filesystem: (i: number) => Promise<unknown>;
  /** Distinct calls the case rotates through: its warm-up touches each at least once, so every timed call is a cache hit. */
  rotation?: number;
}

function cases(repository: string, checkout: string, targets: ReadTargets, gitdex: McpConnection, fs: McpConnection): ReadCase[] {
  const small = (i: number) => targets.smallFiles[i % targets.smallFiles.length]!;
  return [
    {
      short: 'read_file small',
      label: `warm (cache hits): read_file whole small file (${targets.smallFiles.length} files, 1–8 KB, rotating), stdio`,
      gitdex: (i) => callOk(gitdex.client, 'read_file', { repository, path: small(i) }),
      filesystem: (i) => callOk(fs.client, 'read_text_file', { path: join(checkout, small(i)) }),
      rotation: targets.smallFiles.length,
    },
    {
      short: 'read_file lines 1–400',
      label: `warm (cache hits): read_file lines 1–400 of ${targets.largeFile.path} (${targets.largeFile.lines.toLocaleString('en-US')} lines, ${(targets.largeFile.bytes / 1024).toFixed(0)} KB)`,
      gitdex: () => callOk(gitdex.client, 'read_file', { repository, path: targets.largeFile.path, start_line: 1, end_line: 400 }),
      filesystem: () => callOk(fs.client, 'read_text_file', { path: join(checkout, targets.largeFile.path), head: 400 }),
    },
    {
      short: 'list_files',
      label: `warm (cache hits): list_files ${targets.folder.path}/ (${targets.folder.entries} entries, depth 1), stdio`,
      gitdex: () => callOk(gitdex.client, 'list_files', { repository, folder: targets.folder.path, limit: 300 }),
      filesystem: () => callOk(fs.client, 'list_directory', { path: join(checkout, targets.folder.path) }),
    },
  ];
}

/** Checks once that both servers answer with the same file content (the comparison is fair). */
async function sameContent(repository: string, checkout: string, path: string, gitdex: McpConnection, fs: McpConnection): Promise<string | null> {
  const a = (await callOk(gitdex.client, 'read_file', { repository, path })).structuredContent as { content?: string } | undefined;
  const b = textOf(await callOk(fs.client, 'read_text_file', { path: join(checkout, path) }));
  return (a?.content ?? '').trimEnd() === b.trimEnd() ? null : `gitdex and the filesystem server answer different content for ${path}`;
}

/** The index calls a read_file makes, timed in the bench process: the share of the index in a read. */
async function storeProfile(ctx: SuiteContext, backend: Backend, targets: ReadTargets, gitdexMedian: number, listMedian: number): Promise<string[]> {
  const index = backend.openIndex();
  try {
    await index.ensureReady();
    const samples = Math.max(20, Math.floor(ctx.config.reads.samples / 2));
    const repository = await index.findRepositoryByName(ctx.repos.medium.fullName);
    if (!repository) return ['repository not found in the index'];
    const state = (await index.listRefStates(repository.repositoryId)).find((s) => s.ref === 'refs/heads/main');
    if (!state) return ['ref state not found in the index'];
    const snapshot: Snapshot = { repositoryId: repository.repositoryId, ref: state.ref, generation: state.generation };
    const find = median(await repeat(samples, 5, () => index.findRepositoryByName(ctx.repos.medium.fullName)));
    const refs = median(await repeat(samples, 5, () => index.listRefStates(repository.repositoryId)));
    const file = median(await repeat(samples, 5, (i) => index.getFile(snapshot, targets.smallFiles[i % targets.smallFiles.length]!)));
    const sum = find + refs + file;
    const scope = { ...snapshot, folder: targets.folder.path, depth: 1 };
    const folders = median(await repeat(samples, 5, () => index.listFolders(scope)));
    const list = median(await repeat(samples, 5, () => index.listFiles(scope, null, 300)));
    const listSum = find + refs + folders + list;
    return [
      `read_file (small) through MCP stdio: ${formatNumber(gitdexMedian, 'ms')} median`,
      `its index calls, made in process one after the other: findRepositoryByName ${formatNumber(find, 'ms')} + listRefStates ${formatNumber(refs, 'ms')} + getFile ${formatNumber(file, 'ms')} = ${formatNumber(sum, 'ms')} (${((100 * sum) / gitdexMedian).toFixed(0)} %)`,
      `the rest, ${formatNumber(gitdexMedian - sum, 'ms')}: MCP framing and zod validation on both sides, result formatting, the process hop`,
      `list_files through MCP stdio: ${formatNumber(listMedian, 'ms')} median; its index calls findRepositoryByName + listRefStates + listFolders ${formatNumber(folders, 'ms')} + listFiles ${formatNumber(list, 'ms')} = ${formatNumber(listSum, 'ms')} (${((100 * listSum) / listMedian).toFixed(0)} %)`,
    ];
  } finally {
    await index.close();
  }
}

type Transport = 'stdio' | 'http';

/** A fresh gitdex reader: `main.js --stdio`, or a reader process (GITDEX_ROLE=reader) reached over Streamable HTTP. */
async function freshGitdex(backend: Backend, transport: Transport): Promise<McpConnection> {
  if (transport === 'stdio') return startGitdexStdio(backend);
  const reader = await startGitdex({ ...backend.readEnv, GITDEX_ROLE: 'reader' }, `${backend.name} reader`);
  try {
    const connection = await connectHttp(`${reader.url}/mcp`);
    return {
      ...connection,
      close: async () => {
        await connection.close().catch(() => undefined);
        await reader.stop();
      },
    };
  } catch (error) {
    await reader.stop();
    throw error;
  }
}

/**
 * A cold read_file may take up to 1.25× the filesystem server's p50: every call goes through the
 * MCP SDK's own handler and transports (docs/design/mcp-plumbing.md), which costs a fraction
 * of a millisecond more than answering beside them would, and no agent notices that.
 */
const COLD_TARGETS = { read: { median: 1.25, p99: 1.5 }, list: { median: 1.0 } };
/**
 * Wait before each cold call, unmeasured: longer than the reader's 100 ms reuse of
 * repository and ref-state answers, as an agent's next read (seconds later) is; calls back
 * to back would reuse them and hide what a first read costs.
 */
const AGENT_PAUSE_MS = 150;

function coldRow(backend: Backend, label: string, gitdex: number[], filesystem: number[], bounds: { median: number; p99?: number }): Row {
  const value = figure(`gitdex (${backend.name})`, 'ms', gitdex);
  const baseline = figure('server-filesystem, same files, first read', 'ms', filesystem);
  const r = row({ suite: 'reads', backend: backend.name, case: label, value, baseline });
  const met = r.ratio?.median === null || r.ratio?.median === undefined ? null : r.ratio.median <= bounds.median && (bounds.p99 === undefined || (r.ratio.p99 !== null && r.ratio.p99 <= bounds.p99));
  const text = `p50 ≤ ${bounds.median.toFixed(2)}×${bounds.p99 !== undefined ? `, p99 ≤ ${bounds.p99.toFixed(2)}×` : ''} the filesystem server`;
  return { ...r, target: { text, met } };
}

/**
 * First touch: a freshly started reader (and filesystem server) reads each of `files` once
 * and lists each of `folders` once, interleaved with the filesystem server doing the same;
 * after one call each outside the sets, timed apart as the first read of the repository (a
 * process's start-up and first connection are in it, not in the sets). Nothing is read
 * twice; what the first read makes the reader load ahead (docs/reader.md) is in the sets.
 */
async function coldPass(
  ctx: SuiteContext,
  backend: Backend,
  transport: Transport,
  checkout: string,
  cold: ColdTargets,
  files: string[],
  folders: string[],
): Promise<{ reads: Record<string, number[]>; lists: Record<string, number[]>; first: { gitdex: number; filesystem: number } }> {
  const repository = ctx.repos.medium.fullName;
  const gitdex = await freshGitdex(backend, transport);
  const fs = await connectStdio(process.execPath, [FILESYSTEM_SERVER, checkout], {});
  try {
    const first = {
      gitdex: (await timed(() => callOk(gitdex.client, 'read_file', { repository, path: cold.warmupFile }))).ms,
      filesystem: (await timed(() => callOk(fs.client, 'read_text_file', { path: join(checkout, cold.warmupFile) }))).ms,
    };
    await callOk(gitdex.client, 'list_files', { repository, folder: cold.warmupFolder, limit: 300 });
    await callOk(fs.client, 'list_directory', { path: join(checkout, cold.warmupFolder) });
    const reads = await interleave(
      files.length,
      0,
      {
        gitdex: (i) => callOk(gitdex.client, 'read_file', { repository, path: files[i]! }),
        filesystem: (i) => callOk(fs.client, 'read_text_file', { path: join(checkout, files[i]!) }),
      },
      AGENT_PAUSE_MS,
    );
    const lists = await interleave(
      folders.length,
      0,
      {
        gitdex: (i) => callOk(gitdex.client, 'list_files', { repository, folder: folders[i]!, limit: 300 }),
        filesystem: (i) => callOk(fs.client, 'list_directory', { path: join(checkout, folders[i]!) }),
      },
      AGENT_PAUSE_MS,
    );
    return { reads, lists, first };
  } finally {
    await gitdex.close();
    await fs.close();
  }
}

/**
 * Where a cold read_file's time goes on Elasticsearch: a fresh stdio reader whose
 * Elasticsearch is behind a timing proxy reads distinct files once each; per call, the
 * requests it made (round trips, operations, bytes fetched, time) against the whole call.
 * Not part of the figures (the proxy adds a hop); the files were read before by the cold
 * passes, so the engine's own caches are warm: this counts what the reader asks for.
 */
async function coldProfile(ctx: SuiteContext, backend: Backend, cold: ColdTargets, files: string[]): Promise<string[]> {
  if (backend.name !== 'elasticsearch' || !ctx.engines) return [];
  const repository = ctx.repos.medium.fullName;
  const proxy = await startTimingProxy(ctx.engines.elasticsearchUrl);
  const gitdex = await connectStdio(process.execPath, [MAIN, '--stdio'], { ...backend.readEnv, ELASTICSEARCH_URL: proxy.url, LOG_LEVEL: 'warn' });
  try {
    const passStart = { requests: proxy.requests.length, at: performance.now() };
    await callOk(gitdex.client, 'read_file', { repository, path: cold.warmupFile });
    const calls: { ms: number; requests: number; esMs: number; bytes: number; answer: number; ops: string[] }[] = [];
    for (const path of files) {
      await sleep(AGENT_PAUSE_MS);
      const before = proxy.requests.length;
      const started = Date.now();
      const t = performance.now();
      const result = await callOk(gitdex.client, 'read_file', { repository, path });
      const ms = performance.now() - t;
      const mine = proxy.requests.slice(before).filter((r) => r.start >= started - 1);
      calls.push({
        ms,
        requests: mine.length,
        esMs: mine.reduce((sum, r) => sum + (r.end - r.start), 0),
        bytes: mine.reduce((sum, r) => sum + r.bytes, 0),
        answer: JSON.stringify(result).length,
        ops: mine.map((r) => r.op),
      });
    }
    const passRequests = proxy.requests.length - passStart.requests;
    const passSeconds = (performance.now() - passStart.at) / 1000;
    const ops = new Map<string, number>();
    for (const c of calls) for (const op of c.ops) ops.set(op, (ops.get(op) ?? 0) + 1);
    return [
      `profiling pass: a fresh stdio reader with its Elasticsearch behind a timing proxy read ${calls.length} distinct files once each, ${AGENT_PAUSE_MS} ms apart (not part of the figures: the proxy adds a hop)`,
      `Elasticsearch requests during a cold read_file: median ${median(calls.map((c) => c.requests))}, max ${extent(calls.map((c) => c.requests)).max}; by operation over all calls: ${[...ops].map(([op, n]) => `${op} ×${n}`).join(', ')} (counted while the call ran: they include the lookups the reader makes in the background, every 50–75 ms while it reads a repository, which no call waits for)`,
      `the whole pass (first read included): ${passRequests} requests in ${passSeconds.toFixed(1)} s, ${(passRequests / passSeconds).toFixed(1)} a second: background lookups, the load of the repository's small files on the first read, and what the calls asked`,
      `per call, median: the whole call ${formatNumber(median(calls.map((c) => c.ms)), 'ms')}; Elasticsearch (through the proxy) ${formatNumber(median(calls.map((c) => c.esMs)), 'ms')}; fetched from Elasticsearch ${(median(calls.map((c) => c.bytes)) / 1024).toFixed(1)} KB (whole FileDocuments: content, tokens, trigrams, ancestors; up to 3 versions of the file with the _msearch) for an answer of ${(median(calls.map((c) => c.answer)) / 1024).toFixed(1)} KB`,
      `the rest of a call, median ${formatNumber(median(calls.map((c) => c.ms - c.esMs)), 'ms')}: the process hop, MCP framing and validation on both sides, formatting the text and structured result`,
    ];
  } finally {
    await gitdex.close();
    await proxy.close();
  }
}

/**
 * read_file and list_files: gitdex on the index beside the filesystem server on a checkout.
 * Cold (first-touch) figures first, over stdio and over HTTP, each on its own half of the
 * distinct files and folders (what one pass touched is warm in the engine for the next);
 * then warm figures (the same 20 files again and again: cache hits), labelled so.
 */
export async function readsSuite(ctx: SuiteContext, backend: Backend): Promise<void> {
  const checkout = await mediumCheckout(ctx);
  const targets = readTargets(ctx.repos.medium.corpus, checkout);
  const cold = coldTargets(ctx.repos.medium.corpus, checkout, targets, 2 * ctx.config.reads.coldFiles);
  const half = <T>(items: T[], k: number) => items.filter((_, i) => i % 2 === k);
  // A repository has few folders (the medium one about ten): each round, a fresh reader lists
  // every folder once; rounds until there are a quarter as many listings as cold reads, at
  // most 4 (each round starts a reader process: the suite's longest part).
  const rounds = Math.max(1, Math.min(4, Math.ceil(ctx.config.reads.coldFiles / 4 / cold.folders.length)));
  for (const [k, transport] of (['stdio', 'http'] as const).entries()) {
    const files = half(cold.files, k);
    const { reads, lists, first } = await coldPass(ctx, backend, transport, checkout, cold, files, cold.folders);
    const firsts = { gitdex: [first.gitdex], filesystem: [first.filesystem] };
    for (let round = 1; round < rounds; round += 1) {
      const more = await coldPass(ctx, backend, transport, checkout, cold, [], cold.folders);
      for (const name of ['gitdex', 'filesystem'] as const) {
        for (const v of more.lists[name]!) lists[name]!.push(v);
        firsts[name].push(more.first[name]);
      }
    }
    const over = transport === 'stdio' ? 'MCP stdio' : 'MCP Streamable HTTP (filesystem server: stdio, it has no HTTP)';
    const read = coldRow(
      backend,
      `cold (first touch): read_file of ${files.length} distinct files, each once, ${AGENT_PAUSE_MS} ms apart, by a fresh reader after its first read of the repository, ${over}`,
      reads.gitdex!,
      reads.filesystem!,
      COLD_TARGETS.read,
    );
    const list = coldRow(
      backend,
      `cold (first touch): list_files of all ${cold.folders.length} folders, each once per fresh reader (${rounds} readers), ${AGENT_PAUSE_MS} ms apart, ${over}`,
      lists.gitdex!,
      lists.filesystem!,
      COLD_TARGETS.list,
    );
    const firstRead = coldRow(
      backend,
      `cold: the first read_file of the repository by a fresh reader, its first call (${firsts.gitdex.length} readers), ${over}`,
      firsts.gitdex,
      firsts.filesystem,
      COLD_TARGETS.read,
    );
    ctx.results.rows.push(read, list, firstRead);
    for (const r of [read, list, firstRead])
      ctx.log(
        `  ${backend.name} ${r.case}: gitdex ${r.value.summary.median.toFixed(2)} ms (p99 ${r.value.summary.p99.toFixed(2)}), filesystem ${r.baseline!.summary.median.toFixed(2)} ms (p99 ${r.baseline!.summary.p99.toFixed(2)})`,
      );
  }
  const repository = ctx.repos.medium.fullName;
  const gitdex = await startGitdexStdio(backend);
  const fs = await connectStdio(process.execPath, [FILESYSTEM_SERVER, checkout], {});
  const medians: number[] = [];
  const sizes: string[] = [];
  try {
    const mismatch = await sameContent(repository, checkout, targets.smallFiles[0]!, gitdex, fs);
    if (mismatch) ctx.results.notes.push(mismatch);
    for (const c of cases(repository, checkout, targets, gitdex, fs)) {
      const bytes = async (f: (i: number) => Promise<unknown>) => JSON.stringify(await f(0)).length;
      sizes.push(`${c.short} ${((await bytes(c.gitdex)) / 1024).toFixed(1)} KB vs ${((await bytes(c.filesystem)) / 1024).toFixed(1)} KB`);
      // Quick runs warm up 5 calls: a case rotating through 20 files would time first touches under a "warm" label.
      const warmup = Math.max(ctx.config.reads.warmup, c.rotation ?? 0);
      const samples = await interleave(ctx.config.reads.samples, warmup, { gitdex: c.gitdex, filesystem: c.filesystem });
      const value = figure(`gitdex (${backend.name})`, 'ms', samples.gitdex!);
      const baseline = figure('server-filesystem', 'ms', samples.filesystem!);
      medians.push(value.summary.median);
      const r = value.summary.median / baseline.summary.median;
      ctx.results.rows.push(
        row({ suite: 'reads', backend: backend.name, case: c.label, value, baseline, target: { text: 'gitdex/filesystem ≤ 1.0× (warm)', met: Number.isFinite(r) ? r <= 1 : null } }),
      );
      ctx.log(`  ${backend.name} ${c.label}: gitdex ${value.summary.median.toFixed(2)} ms, filesystem ${baseline.summary.median.toFixed(2)} ms`);
    }
  } finally {
    await gitdex.close();
    await fs.close();
  }
  const lines = [
    ...(await coldProfile(ctx, backend, cold, cold.files.slice(0, Math.max(20, ctx.config.reads.coldFiles / 2)))),
    ...(await storeProfile(ctx, backend, targets, medians[0]!, medians[2]!)),
  ];
  lines.push(`size of one answer as JSON, gitdex vs the filesystem server: ${sizes.join('; ')}`);
  ctx.results.profiles.push({ title: `Reads on ${backend.name}: where a read_file and a list_files go`, lines });
}
