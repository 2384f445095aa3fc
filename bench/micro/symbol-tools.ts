/**
 * Latency of find_symbol, file_outline and find_references through MCP over Streamable HTTP, on
 * the large corpus (bench/data/corpora.ts: ~54,000 files of npm packages, the JDK sources and
 * system trees) in a SQLite index on disk, with definitions from line patterns standing in for
 * tree-sitter extraction (stand-in-symbols.ts). Each measure is taken cold first (the first call
 * after the reader starts), then warm over many calls. A micro-benchmark in one process. The
 * reader reads the bare adapter (every answer from the index), except the rows marked "composed
 * reader", read through the layers production puts in front of it (composeIndex).
 *
 *   npx tsx bench/micro/symbol-tools.ts [files=54000] [calls=500] [sqlite|elasticsearch]
 *
 * SYMBOL_BENCH_KEEP keeps the seeded index for the next run (a SQLite file path, or an
 * Elasticsearch index prefix) and reuses it when it is there, so a change to the reader is
 * measured on the same index without seeding again; delete it when done. An Elasticsearch index
 * kept by an earlier build is given this build's symbols layout first (symbol migration, timed).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Registry } from 'prom-client';
import type { FileWrite } from '@gitdex/ports';
import { composeIndex, createReaderApp, type ReaderIndex } from '@gitdex/reader';
import { ElasticsearchIndexStore } from '@gitdex/elasticsearch';
import { SqliteIndexStore } from '@gitdex/sqlite';
import { commitSha, fileDocument, readyState, repositoryDocument } from '../../services/reader/test/support/documents';
import { largeCorpus } from '../data/corpora';
import { median, percentile } from '../measure/stats';
import { standInSymbols } from './stand-in-symbols';

const LIMIT = Number(process.argv[2] ?? 54_000);
const CALLS = Number(process.argv[3] ?? 500);
const BACKEND = process.argv[4] ?? 'sqlite';
const KEEP = process.env.SYMBOL_BENCH_KEEP;
const REPOSITORY = 'bench/large';
const REF = 'refs/heads/main';
const LANGUAGE: Record<string, string> = { ts: 'TypeScript', tsx: 'TypeScript', js: 'JavaScript', mjs: 'JavaScript', cjs: 'JavaScript', jsx: 'JavaScript', java: 'Java', py: 'Python' };

/** A 5,000-line TypeScript file: 125 classes of 5 methods, each method 7 lines. */
function outlineFile(): string {
  const lines: string[] = [];
  for (let c = 0; lines.length < 4_990; c += 1) {
    lines.push(`export class Generated${c} extends Base {`);
    for (let m = 0; m < 5; m += 1)
      lines.push(
        `  method${m}(value: number, label: string): number {`,
        '    const doubled = value * 2;',
        '    if (label === "") {',
        '      return doubled;',
        '    }',
        '    return doubled + label.length;',
        '  }',
      );
    lines.push('}');
  }
  while (lines.length < 5_000) lines.push('// end');
  return `${lines.slice(0, 5_000).join('\n')}\n`;
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'gitdex-symbols-bench-'));
  try {
    const corpus = largeCorpus(LIMIT, { workDir: work });
    const index =
      BACKEND === 'elasticsearch'
        ? new ElasticsearchIndexStore({ node: process.env.ELASTICSEARCH_URL ?? 'http://127.0.0.1:9200', indexPrefix: KEEP ?? `symbols-bench-${process.pid}` })
        : new SqliteIndexStore({ file: KEEP ?? join(work, 'index.sqlite') });
    await index.ensureReady();
    const commit = commitSha('bench@1');
    const reuse = KEEP !== undefined && (await index.getRefState(1, REF))?.commitSha === commit;
    if (!reuse) await index.putRepository(repositoryDocument({ id: 1, fullName: REPOSITORY }));
    const names: string[] = [];
    let definitions = 0;
    let withSymbols = 0;
    const seedStarted = performance.now();
    let batch: FileWrite[] = [];
    const flush = async () => {
      if (batch.length > 0) await index.writeFiles(batch);
      batch = [];
    };
    const files = [...corpus.files.map((f) => ({ path: f.path, content: () => readFileSync(f.abs).toString('utf8') })), { path: 'bench/outline-5000.ts', content: outlineFile }];
    for (const f of files) {
      const extension = extname(f.path).slice(1).toLowerCase();
      const content = f.content();
      const language = LANGUAGE[extension] ?? null;
      const symbols = standInSymbols(extension, language, content);
      if (symbols) {
        withSymbols += 1;
        definitions += symbols.definitions.length;
        for (const d of symbols.definitions) if (names.length < 200_000) names.push(d.name);
      }
      if (!reuse) batch.push({ type: 'put', document: fileDocument({ repositoryId: 1, ref: REF, path: f.path, spec: { content, language, ...(symbols ? { symbols } : {}) }, commit, generation: 1 }) });
      if (batch.length >= 2_000) await flush();
    }
    await flush();
    // Elasticsearch shows writes after a refresh, which the indexer makes before every flip.
    if (!reuse && index instanceof ElasticsearchIndexStore) await index.refresh();
    if (!reuse) await index.putRefState(readyState(1, REF, commit, 1, files.length));
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    // An index kept by an earlier build gets this build's symbols layout first, as a writing process would (timed).
    if (reuse && index instanceof ElasticsearchIndexStore) {
      const started = performance.now();
      const run = await index.migrateSymbols();
      console.log(`symbol layout migration: ${run.migrated.toLocaleString('en-US')} symbols documents in ${((performance.now() - started) / 1000).toFixed(1)} s (${run.passes} passes)`);
    }

    const connectReader = async (readerIndex: ReaderIndex) => {
      const server = createReaderApp({ index: readerIndex }, { registry: new Registry() }).listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      const client = new Client({ name: 'bench', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`)));
      return { client, server };
    };
    // The index's own answers, every call: the bare adapter, no layer of the reader's keeping anything.
    const { client, server } = await connectReader(index);

    // Names as agents ask them: drawn from the corpus's own definitions (common and rare alike), fixed seed.
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const queries = Array.from({ length: CALLS }, () => names[Math.floor(random() * names.length)] as string);

    const typo = (name: string) => `${name.slice(0, Math.ceil(name.length / 2))}${name.slice(Math.ceil(name.length / 2) - 1)}`;
    const timed = async (name: string, args: Record<string, unknown>, through = client) => {
      const started = performance.now();
      const result = await through.callTool({ name, arguments: args });
      const ms = performance.now() - started;
      if (result.isError) throw new Error(`${name} ${JSON.stringify(args)}: ${JSON.stringify(result.content)}`);
      return { ms, result };
    };
    const measure = async (label: string, name: string, args: (i: number) => Record<string, unknown>, through = client) => {
      const cold = (await timed(name, args(0), through)).ms;
      const times: number[] = [];
      for (let i = 0; i < CALLS; i += 1) times.push((await timed(name, args(i), through)).ms);
      const row = { label, cold_ms: +cold.toFixed(2), p50_ms: +median(times).toFixed(2), p99_ms: +percentile(times, 0.99).toFixed(2), calls: CALLS };
      console.log(`${label.padEnd(34)} cold ${row.cold_ms.toFixed(2)} ms  p50 ${row.p50_ms.toFixed(2)} ms  p99 ${row.p99_ms.toFixed(2)} ms`);
      return row;
    };
    console.log(
      `${BACKEND}; corpus: ${files.length.toLocaleString('en-US')} files (${corpus.description}); ${withSymbols.toLocaleString('en-US')} with symbols, ${definitions.toLocaleString('en-US')} definitions; ${reuse ? 'index reused' : 'seeded'} in ${seedSeconds.toFixed(1)} s`,
    );
    // The floor: a small read through the same transport, and the index's own symbol reads without the tool around them
    // (last: a pause between MCP calls longer than the server's keep-alive would reset the client's socket).
    const snapshot = { repositoryId: 1, ref: REF, generation: 1 };
    const port = async (label: string, call: (i: number) => Promise<unknown>) => {
      const times: number[] = [];
      for (let i = 0; i < CALLS; i += 1) {
        const started = performance.now();
        await call(i);
        times.push(performance.now() - started);
      }
      const row = { label, cold_ms: null, p50_ms: +median(times).toFixed(2), p99_ms: +percentile(times, 0.99).toFixed(2), calls: CALLS };
      console.log(`${label.padEnd(34)} p50 ${row.p50_ms.toFixed(2)} ms  p99 ${row.p99_ms.toFixed(2)} ms`);
      return row;
    };
    const rows: { label: string; cold_ms: number | null; p50_ms: number; p99_ms: number; calls: number }[] = [
      await measure('read_file (baseline)', 'read_file', () => ({ repository: REPOSITORY, path: 'bench/outline-5000.ts', end_line: 5 })),
      await measure('file_outline (5,000 lines)', 'file_outline', () => ({ repository: REPOSITORY, path: 'bench/outline-5000.ts' })),
      await measure('find_symbol (one repository)', 'find_symbol', (i) => ({ repository: REPOSITORY, name: queries[i % queries.length] })),
      // The same names with path "**": globs are checked by the reader, so the index hands over every definition (the route before rankedSymbols).
      await measure('find_symbol, path "**" (reads all)', 'find_symbol', (i) => ({ repository: REPOSITORY, name: queries[i % queries.length], path: '**' })),
      await measure('find_symbol (every repository)', 'find_symbol', (i) => ({ name: queries[(i + 1) % queries.length] })),
      await measure('find_symbol Container.name', 'find_symbol', () => ({ name: 'Generated7.method3' })),
      // A mistyped name (one letter doubled): nothing found, so the answer offers the nearest names.
      await measure('find_symbol, a typo (did you mean)', 'find_symbol', (i) => ({ name: typo(queries[(i + 3) % queries.length] as string) })),
      await measure('find_references', 'find_references', (i) => ({ repository: REPOSITORY, name: queries[(i + 2) % queries.length] })),
    ];
    // The reader as production composes it (composeIndex's defaults, without reads ahead): ref
    // states reused for 100 ms, a current snapshot's files and outlines kept after their first read.
    const composed = await connectReader(composeIndex(index));
    rows.push(
      await measure('read_file, composed reader', 'read_file', () => ({ repository: REPOSITORY, path: 'bench/outline-5000.ts', end_line: 5 }), composed.client),
      await measure('file_outline, composed reader', 'file_outline', () => ({ repository: REPOSITORY, path: 'bench/outline-5000.ts' }), composed.client),
    );
    await composed.client.close();
    composed.server.close();
    const outline = (await timed('file_outline', { repository: REPOSITORY, path: 'bench/outline-5000.ts' })).result.structuredContent as { symbol_count: number; omitted: number };
    rows.push(
      await port('index.findSymbols (port only)', (i) => index.findSymbols([snapshot], { match: 'exact', name: queries[i % queries.length] as string, limit: 2_001 })),
      await port('index.rankedSymbols, 20 files (port)', (i) => index.rankedSymbols([snapshot], { match: 'exact', name: queries[i % queries.length] as string, files: 20 })),
      await port('index.findSymbols Container.name (port)', () => index.findSymbols([snapshot], { match: 'exact', name: 'method3', container: 'Generated7', limit: 2_001 })),
      await port('index.fileSymbols (port only)', () => index.fileSymbols(snapshot, 'bench/outline-5000.ts')),
    );
    console.log(
      JSON.stringify({
        files: files.length,
        with_symbols: withSymbols,
        definitions,
        seed_seconds: +seedSeconds.toFixed(1),
        outline_definitions: outline.symbol_count,
        outline_omitted: outline.omitted,
        rows,
      }),
    );
    await client.close();
    server.close();
    if (BACKEND === 'elasticsearch' && KEEP === undefined) await index.deleteRepository(1);
    await index.close();
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

void main();
