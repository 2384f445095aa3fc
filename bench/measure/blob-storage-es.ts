/**
 * Blobs stored once against content inline in every entry, on Elasticsearch: index bytes of one
 * repository indexed at N refs that share all but a few files, and read/search latency on that
 * same data. The previous layout is written as the previous release wrote it (inline documents
 * with their terms, files index v7) and read through this build, which reads such entries as the
 * previous release did (one search per getFile; its searches ask one more, empty, blobs request).
 *
 *   ELASTICSEARCH_URL=... node scripts/prepare.mjs --build -- tsx --tsconfig bench/tsconfig.json bench/measure/blob-storage-es.ts [refs] [changedPerRef]
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Client } from '@elastic/elasticsearch';
import { fileDocumentId, type FileDocument } from '@gitdex/contracts';
import { ElasticsearchIndexStore, FILES_MAPPING_VERSION, filesMappings, indexSettings, withContentTrigrams } from '@gitdex/elasticsearch';
import { buildDocument, gitBlobSha } from '@gitdex/indexer';
import type { ContentPlan, Snapshot } from '@gitdex/ports';

const url = process.env.ELASTICSEARCH_URL ?? 'http://127.0.0.1:9200';
const REFS = Number(process.argv[2] ?? 10);
const CHANGED = Number(process.argv[3] ?? 5);
const REPO = 4242;
const MAX_FILE_BYTES = 1_000_000;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** The tracked text files of this checkout: one commit's worth of real sources. */
function corpus(): { path: string; content: Buffer }[] {
  const paths = execFileSync('git', ['ls-files', 'libs', 'services', 'docs', 'test'], { encoding: 'utf8' }).split('\n').filter(Boolean);
  return paths.map((path) => ({ path, content: readFileSync(path) }));
}

function documentsOf(files: { path: string; content: Buffer }[]): FileDocument[] {
  const docs: FileDocument[] = [];
  for (let r = 0; r < REFS; r += 1) {
    const ref = r === 0 ? 'refs/heads/main' : `pull/${r}`;
    const context = { repositoryId: REPO, ref, commitSha: 'c'.repeat(40), generation: 1, maxFileBytes: MAX_FILE_BYTES };
    files.forEach((file, i) => {
      // Each ref other than main changes CHANGED files of its own.
      const changed = r > 0 && i % Math.floor(files.length / CHANGED) === r % CHANGED;
      const content = changed ? Buffer.concat([file.content, Buffer.from(`\n// changed on ${ref}\n`)]) : file.content;
      docs.push(buildDocument({ path: file.path, mode: '100644', blobSha: gitBlobSha(content), size: content.length, content }, context));
    });
  }
  return docs;
}

async function storeBytes(client: Client, indices: string[]): Promise<number> {
  await client.indices.refresh({ index: indices });
  await client.indices.forcemerge({ index: indices, max_num_segments: 1 });
  const stats = await client.indices.stats({ index: indices, metric: 'store' });
  return stats._all.primaries?.store?.size_in_bytes ?? 0;
}

async function timed<T>(body: () => Promise<T>): Promise<[number, T]> {
  const started = performance.now();
  const result = await body();
  return [performance.now() - started, result];
}

async function main(): Promise<void> {
  const client = new Client({ node: url });
  const old = `bench-blobs-old-${Date.now().toString(36)}`;
  const split = `bench-blobs-new-${Date.now().toString(36)}`;
  const files = corpus();
  const docs = documentsOf(files);
  try {
    // The previous release's layout.
    await client.indices.create({
      index: `${old}-files-v${FILES_MAPPING_VERSION}`,
      settings: indexSettings('files'),
      mappings: { ...filesMappings, _meta: { gitdexMappingVersion: FILES_MAPPING_VERSION } },
      aliases: { [`${old}-files`]: { is_write_index: true } },
    });
    for (let i = 0; i < docs.length; i += 500) {
      const batch = docs.slice(i, i + 500);
      await client.bulk({
        index: `${old}-files`,
        operations: batch.flatMap((doc) => [{ index: { _id: fileDocumentId(doc.repositoryId, doc.ref, doc.path, doc.fromGeneration) } }, withContentTrigrams(doc)]),
      });
    }
    const oldStore = new ElasticsearchIndexStore({ node: url, indexPrefix: old });
    await oldStore.ensureReady();
    // This layout, through the store.
    const newStore = new ElasticsearchIndexStore({ node: url, indexPrefix: split });
    await newStore.ensureReady();
    for (let i = 0; i < docs.length; i += 500) await newStore.writeFiles(docs.slice(i, i + 500).map((document) => ({ type: 'put' as const, document })));
    await newStore.refresh();

    const oldBytes = await storeBytes(client, [`${old}-files`]);
    const newFiles = await storeBytes(client, [`${split}-files`]);
    const newBlobs = await storeBytes(client, [`${split}-blobs`]);
    console.log(
      `corpus: ${files.length} files, ${(files.reduce((sum, f) => sum + f.content.length, 0) / 1e6).toFixed(1)} MB; ${REFS} refs, ${CHANGED} files changed per ref; ${docs.length} file versions`,
    );
    console.log(
      `index bytes: previous layout ${(oldBytes / 1e6).toFixed(2)} MB; blobs ${((newFiles + newBlobs) / 1e6).toFixed(2)} MB (entries ${(newFiles / 1e6).toFixed(2)} + blobs ${(newBlobs / 1e6).toFixed(2)}); ratio ${((newFiles + newBlobs) / oldBytes).toFixed(3)}`,
    );

    // Reads: each path once per layout (alternating, so neither warms the other's caches more), refs spread.
    const sample = Array.from({ length: 300 }, (_, i) => ({ path: files[(i * 7919) % files.length]!.path, ref: i % REFS === 0 ? 'refs/heads/main' : `pull/${i % REFS}` }));
    const reads: Record<'old' | 'new', number[]> = { old: [], new: [] };
    for (const { path, ref } of sample) {
      const snapshot: Snapshot = { repositoryId: REPO, ref, generation: 1 };
      for (const [label, store] of [
        ['old', oldStore],
        ['new', newStore],
      ] as const) {
        const [ms, file] = await timed(() => store.getFile(snapshot, path));
        if (!file) throw new Error(`${label}: ${path} missing`);
        reads[label].push(ms);
      }
    }
    console.log(
      `getFile (300 paths, each read once): median previous ${median(reads.old).toFixed(2)} ms, blobs ${median(reads.new).toFixed(2)} ms, ratio ${(median(reads.new) / median(reads.old)).toFixed(2)}`,
    );

    const plans: [string, ContentPlan][] = [
      ['selective "describeEsError"', { op: 'substring', text: 'describeEsError' }],
      ['common "export function"', { op: 'substring', text: 'export function' }],
      ['every file with content', { op: 'all' }],
    ];
    for (const [label, plan] of plans) {
      const runs: Record<'old' | 'new', number[]> = { old: [], new: [] };
      const counts: Record<string, number> = {};
      for (let rep = 0; rep < 5; rep += 1) {
        for (const [name, store] of [
          ['old', oldStore],
          ['new', newStore],
        ] as const) {
          const snapshot: Snapshot = { repositoryId: REPO, ref: `pull/${1 + (rep % (REFS - 1))}`, generation: 1 };
          const [ms, count] = await timed(async () => {
            const candidates = await store.searchCandidates(snapshot, plan, { includeGenerated: true, afterPath: null, limit: 1000 });
            await store.readContents(
              snapshot,
              candidates.slice(0, 100).map((c) => c.path),
            );
            return candidates.length;
          });
          runs[name].push(ms);
          counts[name] = count;
        }
      }
      console.log(
        `search ${label} (candidates ${counts.old} / ${counts.new}, + contents of 100, 5 runs): median previous ${median(runs.old).toFixed(1)} ms, blobs ${median(runs.new).toFixed(1)} ms, ratio ${(median(runs.new) / median(runs.old)).toFixed(2)}`,
      );
    }
    await oldStore.close();
    await newStore.close();
  } finally {
    for (const prefix of [old, split]) {
      await client.indices.delete({ index: `${prefix}-*`, expand_wildcards: 'all', ignore_unavailable: true, allow_no_indices: true });
      await client.indices.deleteIndexTemplate({ name: `${prefix}-*` }).catch(() => undefined);
    }
    await client.close();
  }
}

void main();
