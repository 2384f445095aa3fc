import { rmSync } from 'node:fs';
import { Client } from '@elastic/elasticsearch';
import type { FileDocument } from '@gitdex/contracts';
import { filesMappings, indexSettings, withContentTrigrams } from '@gitdex/elasticsearch';
import { buildDocument, gitBlobSha } from '@gitdex/indexer';
import { SqliteIndexStore } from '@gitdex/sqlite';
import { BlobReader } from '../data/blob-reader';
import { MAX_FILE_BYTES } from '../data/corpora';
import type { BenchRepo } from '../setup/repos';

/** Where raw writes go: the ceiling an indexing pipeline can reach on that engine. */
export interface RawTarget {
  label: string;
  prepare(): Promise<void>;
  write(documents: FileDocument[]): Promise<void>;
  /** Makes the writes visible (a refresh); timed with the writes. */
  finish(): Promise<void>;
  drop(): Promise<void>;
}

const BATCH = 500;

/**
 * The FileDocuments the indexer would write for the repository's first commit, built in
 * batches from the committed contents (not timed).
 */
export async function* documentBatches(repo: BenchRepo, repositoryId: number): AsyncGenerator<FileDocument[]> {
  const context = { repositoryId, ref: 'refs/heads/main', commitSha: repo.head, generation: 1, maxFileBytes: MAX_FILE_BYTES };
  const blobs = new BlobReader(repo.dir);
  try {
    for (let i = 0; i < repo.corpus.files.length; i += BATCH) {
      const files = repo.corpus.files.slice(i, i + BATCH);
      const contents = await Promise.all(files.map((f) => blobs.read(repo.head, f.path)));
      yield files.map((f, k) => {
        const content = contents[k]!;
        return buildDocument({ path: f.path, mode: f.executable ? '100755' : '100644', blobSha: gitBlobSha(content), size: content.length, content }, context);
      });
    }
  } finally {
    blobs.close();
  }
}

/** Writes every document of the repository's first commit to the target; answers the time of the writes and the final refresh. */
export async function rawWriteMs(target: RawTarget, repo: BenchRepo, repositoryId: number): Promise<number> {
  await target.prepare();
  let ms = 0;
  try {
    for await (const batch of documentBatches(repo, repositoryId)) {
      const started = performance.now();
      await target.write(batch);
      ms += performance.now() - started;
    }
    const started = performance.now();
    await target.finish();
    ms += performance.now() - started;
  } finally {
    await target.drop();
  }
  return ms;
}

/** Splits documents into requests of at most `maxBytes` of content (and `max` documents), as the product's bulk does. */
export function splitBySize<T extends { content: string | null }>(documents: T[], maxBytes: number, max = 500): T[][] {
  const out: T[][] = [];
  let batch: T[] = [];
  let bytes = 0;
  for (const d of documents) {
    const size = (d.content?.length ?? 0) + 1024;
    if (batch.length > 0 && (batch.length >= max || bytes + size > maxBytes)) {
      out.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(d);
    bytes += size;
  }
  if (batch.length > 0) out.push(batch);
  return out;
}

/**
 * Bulk of the same documents straight into a fresh index with gitdex's file mapping and settings: 500
 * documents or 5 MB a request, one at a time. The documents as the indexer builds them, or
 * with `withTerms` as the index stores them (their content terms too, made inside the timing).
 */
export function elasticsearchRaw(url: string, index: string, options: { withTerms?: boolean } = {}): RawTarget {
  const client = new Client({ node: url, requestTimeout: 120_000 });
  const asSent = options.withTerms ? withContentTrigrams : (document: FileDocument) => document;
  return {
    label: options.withTerms ? 'raw Elasticsearch bulk with content terms' : 'raw Elasticsearch bulk',
    async prepare() {
      await client.indices.delete({ index }, { ignore: [404] });
      // gitdex's settings but Elasticsearch's own refresh: one bulk at a time into a fresh index is
      // faster with the periodic refresh (segments written beside the load, 18 s against 22 s for
      // the large repository), so the baseline keeps it.
      const { refresh_interval: _gitdexRefresh, ...settings } = indexSettings('files');
      await client.indices.create({ index, settings, mappings: filesMappings });
    },
    async write(documents) {
      for (const batch of splitBySize(documents, 5 * 1024 * 1024)) {
        const response = await client.bulk({ index, operations: batch.flatMap((d) => [{ index: { _id: `${d.repositoryId}:${d.path}` } }, asSent(d)]) });
        if (response.errors) throw new Error(`raw bulk: ${JSON.stringify(response.items.find((i) => i.index?.error)?.index?.error).slice(0, 300)}`);
      }
    },
    async finish() {
      await client.indices.refresh({ index });
    },
    async drop() {
      await client.indices.delete({ index }, { ignore: [404] });
      await client.close();
    },
  };
}

/** The same documents through SqliteIndexStore.writeFiles into a fresh database file. */
export function sqliteRaw(file: string): RawTarget {
  let store: SqliteIndexStore | null = null;
  return {
    label: 'raw SQLite writeFiles',
    async prepare() {
      rmSync(file, { force: true });
      store = new SqliteIndexStore({ file });
      await store.ensureReady();
    },
    async write(documents) {
      await store!.writeFiles(documents.map((document) => ({ type: 'put', document })));
    },
    async finish() {
      await store!.refresh();
    },
    async drop() {
      await store?.close();
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
    },
  };
}
