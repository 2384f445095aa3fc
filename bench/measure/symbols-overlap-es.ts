/**
 * The write path of a full index on Elasticsearch (the indexer's WriteBuffer: 500 writes a bulk,
 * up to four under way; refresh at the end), without symbols and with them parsed in each of the
 * ways compared, alternated in one process: each batch parsed when it is full (attachSymbols in
 * the buffer's prepare, as before), each blob parsed as it is added (SymbolPrefetch, the indexer
 * now), with pools of SYMOV_THREADS threads (default 2; e.g. 1,2,3); the same from the corpus's
 * tarball, read, hashed and built into documents inside the clock as the indexer does; and parsing
 * alone. The stored-symbols lookups go to the run's own index, as the indexer's do. Same corpus as
 * symbols-storage-es.ts.
 *
 *   ELASTICSEARCH_URL=... npx tsx --tsconfig bench/tsconfig.json bench/measure/symbols-overlap-es.ts [runs]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { FileDocument } from '@gitdex/contracts';
import { ElasticsearchIndexStore } from '@gitdex/elasticsearch';
import { attachSymbols, buildDocument, gitBlobSha, SymbolPrefetch, WriteBuffer, type SymbolParsing } from '@gitdex/indexer';
import type { FileWrite, StoredSymbols } from '@gitdex/ports';
import { createSymbolExtractor, SUPPORTED_LANGUAGES, SYMBOL_EXTRACTOR_VERSION, type SymbolExtractor } from '@gitdex/symbols';
import { tarballEntries } from '../../services/indexer/src/tarball-entries';
import { mediumCorpus, MAX_FILE_BYTES } from '../data/corpora';
import { commitSnapshot, initBare } from '../data/git-repo';
import { median } from './stats';

const url = process.env.ELASTICSEARCH_URL ?? 'http://127.0.0.1:9200';
const RUNS = Number(process.argv[2] ?? 5);
const REPO = 4344;

const CONTEXT = { repositoryId: REPO, ref: 'refs/heads/main', commitSha: 'c'.repeat(40), generation: 1, maxFileBytes: MAX_FILE_BYTES };

function documents(): FileDocument[] {
  const context = CONTEXT;
  return mediumCorpus().files.map((file) => {
    const content = readFileSync(file.abs);
    return buildDocument({ path: file.path, mode: '100644', blobSha: gitBlobSha(content), size: content.length, content }, context);
  });
}

const parsingOf = (extractor: SymbolExtractor, stored: StoredSymbols): SymbolParsing => ({
  extract: (content, path, language) => extractor.extract(content, path, language, 'none'),
  version: SYMBOL_EXTRACTOR_VERSION,
  languages: SUPPORTED_LANGUAGES,
  stored,
});

/** The corpus as GitHub's tarball of it (one top folder, gzipped), made once with git archive. */
async function tarball(): Promise<Buffer> {
  const dir = mkdtempSync(join(tmpdir(), 'gitdex-symov-'));
  try {
    await initBare(dir);
    await commitSnapshot(dir, mediumCorpus().files, 'bench\n');
    return execFileSync('git', ['--git-dir', dir, 'archive', '--format=tar.gz', '--prefix=bench-elastic-0000000/', 'HEAD'], { maxBuffer: 1 << 30 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Each write as the indexer makes it from the tarball: gunzip, tar, blob hashing, the document. */
async function* fromTarball(gzipped: Buffer): AsyncGenerator<FileDocument> {
  for await (const entry of tarballEntries(Readable.from([gzipped]), { maxContentBytes: MAX_FILE_BYTES })) yield buildDocument(entry, CONTEXT);
}

type Mode = { kind: 'without' } | { kind: 'batch'; extractor: SymbolExtractor } | { kind: 'prefetch'; extractor: SymbolExtractor };

async function run(docs: FileDocument[] | Buffer, mode: Mode, label: string): Promise<number> {
  const prefix = `bench-symov-${label}-${Date.now().toString(36)}`;
  const store = new ElasticsearchIndexStore({ node: url, indexPrefix: prefix });
  try {
    await store.ensureReady();
    const copies = Buffer.isBuffer(docs) ? fromTarball(docs) : docs.map((doc) => ({ ...doc }));
    const started = performance.now();
    let hooks = {};
    if (mode.kind === 'batch') {
      const parsing = parsingOf(mode.extractor, store);
      hooks = { prepare: async (writes: FileWrite[]) => void (await attachSymbols(parsing, writes)) };
    } else if (mode.kind === 'prefetch') {
      const prefetch = new SymbolPrefetch(parsingOf(mode.extractor, store));
      hooks = { accept: (write: FileWrite) => prefetch.add(write), prepare: (writes: FileWrite[]) => prefetch.attach(writes) };
    }
    const buffer = new WriteBuffer(store, { maxWrites: 500, maxBytes: 8 * 1024 * 1024, ...hooks });
    for await (const doc of copies) await buffer.add({ type: 'put', document: doc });
    await buffer.flush();
    await store.refresh();
    return performance.now() - started;
  } finally {
    await store.client.indices.delete({ index: `${prefix}-*` }).catch(() => undefined);
    await store.close();
  }
}

async function main(): Promise<void> {
  const docs = documents();
  const gzipped = await tarball();
  const threads = (process.env.SYMOV_THREADS ?? '2').split(',').map(Number);
  const pools = Object.fromEntries([...new Set([2, ...threads])].map((n) => [n, createSymbolExtractor({ threads: n })])) as Record<number, SymbolExtractor>;
  const kinds: Array<[string, () => Promise<number>]> = [
    ['without symbols', () => run(docs, { kind: 'without' }, 'a')],
    ['each batch parsed when full (before), 2 threads', () => run(docs, { kind: 'batch', extractor: pools[2]! }, 'b')],
    ['each blob parsed as added (now), 2 threads', () => run(docs, { kind: 'prefetch', extractor: pools[2]! }, 'p2')],
    ...threads.filter((n) => n !== 2).map((n): [string, () => Promise<number>] => [`each blob parsed as added, ${n} threads`, () => run(docs, { kind: 'prefetch', extractor: pools[n]! }, `p${n}`)]),
    ['from the tarball, without symbols', () => run(gzipped, { kind: 'without' }, 'ta')],
    ['from the tarball, each batch parsed when full (before), 2 threads', () => run(gzipped, { kind: 'batch', extractor: pools[2]! }, 'tb')],
    ['from the tarball, each blob parsed as added (now), 2 threads', () => run(gzipped, { kind: 'prefetch', extractor: pools[2]! }, 'tp')],
    [
      'parsing alone (no writes), 2 threads',
      async () => {
        const started = performance.now();
        const none: StoredSymbols = { storedSymbols: () => Promise.resolve(new Map()) };
        await attachSymbols(
          parsingOf(pools[2]!, none),
          docs.map((doc) => ({ type: 'put' as const, document: { ...doc } })),
        );
        return performance.now() - started;
      },
    ],
  ];
  const times = new Map<string, number[]>(kinds.map(([name]) => [name, []]));
  try {
    // A warm-up of each (JIT, worker start, grammars), then RUNS rounds, each in a rotated order so no kind always follows the same one.
    for (const [, go] of kinds) await go();
    for (let r = 0; r < RUNS; r += 1) {
      for (let k = 0; k < kinds.length; k += 1) {
        const [name, go] = kinds[(k + r) % kinds.length]!;
        times.get(name)!.push(await go());
      }
    }
  } finally {
    for (const pool of Object.values(pools)) await pool.close();
  }
  const base = median(times.get('without symbols')!);
  const tarBase = median(times.get('from the tarball, without symbols')!);
  console.log(`corpus: ${docs.length} files (tarball ${gzipped.length} bytes); ${RUNS} rounds, rotated; medians`);
  for (const [name, ms] of times)
    console.log(
      `${name}: ${median(ms).toFixed(0)} ms (${ms.map((m) => m.toFixed(0)).join(', ')}); ratio without / this ${((name.startsWith('from the tarball') ? tarBase : base) / median(ms)).toFixed(2)}×`,
    );
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
