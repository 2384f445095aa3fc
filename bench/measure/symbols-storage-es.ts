/**
 * What storing symbols costs on Elasticsearch: the time to write a corpus through the index port
 * with the indexer's batching (WriteBuffer: 500 writes a bulk, up to four under way), without
 * symbols and with them (attachSymbols and @gitdex/symbols' worker pool, parse time included), in
 * alternating runs of the same process; and the index bytes the symbols add (store size after a
 * force merge), per byte of content. "with symbols" is the indexer's mode (definitions only; the
 * storage keeps no occurrences since find_references parses when asked).
 *
 *   ELASTICSEARCH_URL=... node scripts/prepare.mjs --build -- tsx --tsconfig bench/tsconfig.json bench/measure/symbols-storage-es.ts [runs]
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { FileDocument } from '@gitdex/contracts';
import { ElasticsearchIndexStore } from '@gitdex/elasticsearch';
import { attachSymbols, buildDocument, gitBlobSha, WriteBuffer, type SymbolCounts, type SymbolParsing } from '@gitdex/indexer';
import { createSymbolExtractor, SUPPORTED_LANGUAGES, SYMBOL_EXTRACTOR_VERSION } from '@gitdex/symbols';
import { mediumCorpus, MAX_FILE_BYTES } from '../data/corpora';

const url = process.env.ELASTICSEARCH_URL ?? 'http://127.0.0.1:9200';
const RUNS = Number(process.argv[2] ?? 3);
const REPO = 4343;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

function documents(): { docs: FileDocument[]; contentBytes: number; description: string } {
  const corpus = mediumCorpus();
  const context = { repositoryId: REPO, ref: 'refs/heads/main', commitSha: 'c'.repeat(40), generation: 1, maxFileBytes: MAX_FILE_BYTES };
  const docs = corpus.files.map((file) => {
    const content = readFileSync(file.abs);
    return buildDocument({ path: file.path, mode: '100644', blobSha: gitBlobSha(content), size: content.length, content }, context);
  });
  const contentBytes = docs.reduce((sum, doc) => sum + (doc.content === null ? 0 : Buffer.byteLength(doc.content)), 0);
  return { docs, contentBytes, description: `${corpus.description}: ${docs.length} files` };
}

interface ReadTimes {
  findSymbol: number[];
  fileSymbols: number[];
}

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? 0;

/** Port-level read latency on the index just written: findSymbols by exact name and fileSymbols, 200 of each, names and paths in a fixed order. */
async function readTimes(store: ElasticsearchIndexStore, docs: FileDocument[]): Promise<ReadTimes> {
  const snapshot = { repositoryId: REPO, ref: 'refs/heads/main', generation: 1 };
  const withSymbols = docs.filter((doc) => (doc.symbols?.definitions.length ?? 0) > 0);
  const names = withSymbols
    .flatMap((doc) => doc.symbols!.definitions.map((d) => d.name))
    .filter((_, i) => i % 7 === 0)
    .slice(0, 200);
  const paths = withSymbols.map((doc) => doc.path).slice(0, 200);
  const findSymbol: number[] = [];
  const fileSymbols: number[] = [];
  for (const name of names) {
    const started = performance.now();
    await store.findSymbols([snapshot], { match: 'exact', name, limit: 10 });
    findSymbol.push(performance.now() - started);
  }
  for (const path of paths) {
    const started = performance.now();
    await store.fileSymbols(snapshot, path);
    fileSymbols.push(performance.now() - started);
  }
  return { findSymbol, fileSymbols };
}

async function run(
  docs: FileDocument[],
  parsing: SymbolParsing | null,
  label: string,
  parsedBefore = false,
): Promise<{ ms: number; bytes: number; symbolBytes: number; counts: SymbolCounts; reads?: ReadTimes }> {
  const prefix = `bench-sym-${label}-${Date.now().toString(36)}`;
  const store = new ElasticsearchIndexStore({ node: url, indexPrefix: prefix });
  const counts: SymbolCounts = { parsed: 0, failed: 0, skipped: 0, reused: 0 };
  try {
    await store.ensureReady();
    // Fresh copies: attachSymbols sets `symbols` on the documents it is given.
    const copies = docs.map((doc) => ({ ...doc }));
    // Parsed before the clock starts: what storing the symbols costs alone.
    if (parsing && parsedBefore)
      await attachSymbols(
        parsing,
        copies.map((document) => ({ type: 'put' as const, document })),
      );
    const started = performance.now();
    const prepare =
      parsing && !parsedBefore
        ? async (writes: Parameters<typeof attachSymbols>[1]) => {
            const done = await attachSymbols(parsing, writes);
            for (const key of Object.keys(done) as (keyof SymbolCounts)[]) counts[key] += done[key];
          }
        : undefined;
    const buffer = new WriteBuffer(store, { maxWrites: 500, maxBytes: 8 * 1024 * 1024, ...(prepare ? { prepare } : {}) });
    for (const doc of copies) await buffer.add({ type: 'put', document: doc });
    await buffer.flush();
    await store.refresh();
    const ms = performance.now() - started;
    const client = store.client;
    const indices = [`${prefix}-files`, `${prefix}-blobs`];
    await client.indices.forcemerge({ index: indices, max_num_segments: 1 });
    const stats = await client.indices.stats({ index: indices, metric: 'store' });
    const bytes = stats._all.primaries?.store?.size_in_bytes ?? 0;
    let symbolBytes = 0;
    let reads: ReadTimes | undefined;
    if (parsing) {
      reads = await readTimes(store, copies);
      const symbolDocs = await client.search({ index: `${prefix}-blobs`, size: 10_000, query: { exists: { field: 'symbolExtractor' } } });
      symbolBytes = symbolDocs.hits.hits.reduce((sum, hit) => sum + Buffer.byteLength(JSON.stringify(hit._source)), 0);
    }
    return { ms, bytes, symbolBytes, counts, ...(reads ? { reads } : {}) };
  } finally {
    await store.client.indices.delete({ index: `${prefix}-*` }).catch(() => undefined);
    await store.close();
  }
}

async function main(): Promise<void> {
  const { docs, contentBytes, description } = documents();
  // The pool's default (one per core, as the indexer runs it) unless SYMBOL_THREADS says otherwise.
  const extractorThreads = process.env.SYMBOL_THREADS ? Number(process.env.SYMBOL_THREADS) : availableParallelism();
  const extractor = createSymbolExtractor({ threads: extractorThreads });
  const parsing: SymbolParsing = {
    extract: (content, path, language) => extractor.extract(content, path, language, 'none'),
    version: SYMBOL_EXTRACTOR_VERSION,
    languages: SUPPORTED_LANGUAGES,
    // Every run starts from an empty index: nothing is stored to reuse.
    stored: { storedSymbols: () => Promise.resolve(new Map()) },
  };
  const parseable = docs.filter((doc) => doc.content !== null && doc.language !== null && SUPPORTED_LANGUAGES.includes(doc.language)).length;
  console.log(`corpus: ${description}, ${(contentBytes / 1e6).toFixed(1)} MB of content, ${parseable} files in a parsed language`);
  const without: { ms: number; bytes: number }[] = [];
  const withSymbols: { ms: number; bytes: number; symbolBytes: number; counts: SymbolCounts; reads?: ReadTimes }[] = [];
  const storedOnly: { ms: number }[] = [];
  const parseOnly: number[] = [];
  try {
    // A warm-up of each, not counted: the first run pays for JIT, worker start and index creation.
    await run(docs, null, 'warm0');
    await run(docs, parsing, 'warm1');
    for (let i = 0; i < RUNS; i += 1) {
      without.push(await run(docs, null, `a${i}`));
      withSymbols.push(await run(docs, parsing, `b${i}`));
      storedOnly.push(await run(docs, parsing, `c${i}`, true));
      const started = performance.now();
      await attachSymbols(
        parsing,
        docs.map((doc) => ({ type: 'put' as const, document: { ...doc } })),
      );
      parseOnly.push(performance.now() - started);
    }
  } finally {
    await extractor.close();
  }
  const a = median(without.map((r) => r.ms));
  const b = median(withSymbols.map((r) => r.ms));
  const bytesA = median(without.map((r) => r.bytes));
  const bytesB = median(withSymbols.map((r) => r.bytes));
  console.log(`runs: ${RUNS} each, alternating`);
  console.log(`index time without symbols: median ${a.toFixed(0)} ms (${without.map((r) => r.ms.toFixed(0)).join(', ')})`);
  console.log(`index time with symbols:    median ${b.toFixed(0)} ms (${withSymbols.map((r) => r.ms.toFixed(0)).join(', ')})`);
  console.log(`throughput ratio (without / with): ${(a / b).toFixed(2)}x`);
  console.log(`index time, symbols parsed beforehand (storage only): median ${median(storedOnly.map((r) => r.ms)).toFixed(0)} ms (${storedOnly.map((r) => r.ms.toFixed(0)).join(', ')})`);
  console.log(`parse only (attachSymbols, ${extractorThreads} worker threads): median ${median(parseOnly).toFixed(0)} ms (${parseOnly.map((ms) => ms.toFixed(0)).join(', ')})`);
  console.log(`symbols: ${JSON.stringify(withSymbols[0]?.counts)}`);
  console.log(`index bytes without: ${bytesA}, with: ${bytesB}, added: ${bytesB - bytesA} = ${((bytesB - bytesA) / contentBytes).toFixed(3)} per byte of content`);
  const find = withSymbols.flatMap((r) => r.reads?.findSymbol ?? []);
  const outline = withSymbols.flatMap((r) => r.reads?.fileSymbols ?? []);
  console.log(`findSymbols (port, exact name): p50 ${percentile(find, 0.5).toFixed(1)} ms, p99 ${percentile(find, 0.99).toFixed(1)} ms over ${find.length}`);
  console.log(`fileSymbols (port): p50 ${percentile(outline, 0.5).toFixed(1)} ms, p99 ${percentile(outline, 0.99).toFixed(1)} ms over ${outline.length}`);
  console.log(`symbols _source: ${withSymbols[0]?.symbolBytes} bytes = ${((withSymbols[0]?.symbolBytes ?? 0) / contentBytes).toFixed(3)} per byte of content`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
