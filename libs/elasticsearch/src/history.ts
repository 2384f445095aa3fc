import { createHash } from 'node:crypto';
import { errors, type Client } from '@elastic/elasticsearch';
import { unreferencedHistory, type CommitRecord, type HistoryBlob, type HistoryStore, type IndexCallOptions, type RefHistory, type StoredVersionBlame } from '@gitdex/ports';
import { toPortError } from './errors';
import { createSmallIndices, onceReady } from './small-index';

type Kind = 'commits' | 'ref-history' | 'history-blobs' | 'version-blames';

/** Each index holds documents read back whole by id; only the repository id is searched (prune, delete). */
const MAPPINGS: Record<Kind, Record<string, unknown>> = {
  commits: { dynamic: false, properties: { repositoryId: { type: 'long' }, sha: { type: 'keyword' }, record: { type: 'object', enabled: false } } },
  'ref-history': {
    dynamic: false,
    properties: { repositoryId: { type: 'long' }, ref: { type: 'keyword' }, head: { type: 'keyword', index: false }, commits: { type: 'keyword', index: false, doc_values: false } },
  },
  'history-blobs': { dynamic: false, properties: { repositoryId: { type: 'long' }, sha: { type: 'keyword' }, content: { type: 'binary' } } },
  // `sha` is the commit (pruned with it), `id` the document's own id (the unique sort key of a repository's listing).
  'version-blames': {
    dynamic: false,
    properties: {
      repositoryId: { type: 'long' },
      id: { type: 'keyword' },
      sha: { type: 'keyword' },
      key: { type: 'keyword', index: false },
      path: { type: 'keyword', index: false },
      blame: { type: 'object', enabled: false },
    },
  },
};

interface CommitDocument {
  repositoryId: number;
  sha: string;
  record: Omit<CommitRecord, 'sha'>;
}

interface RefHistoryDocument {
  repositoryId: number;
  ref: string;
  head: string;
  commits: string[];
}

interface BlobDocument {
  repositoryId: number;
  sha: string;
  /** base64 */
  content: string;
}

interface VersionBlameDocument {
  repositoryId: number;
  id: string;
  sha: string;
  key: string;
  path: string;
  blame: StoredVersionBlame['blame'];
}

/** A path may be long: the id names it by hash (ids are at most 512 bytes). */
function blameId(repositoryId: number, key: string, path: string): string {
  return `${repositoryId}:${key}:${createHash('sha1').update(path).digest('hex')}`;
}

/** Documents per bulk or mget request: a page of commits with their files stays a few MB. */
const PAGE = 500;

function pages<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += PAGE) out.push(items.slice(i, i + PAGE));
  return out;
}

/**
 * History in three small indices of its own, beside the content indices: `${prefix}-commits` (one
 * document per repository and commit), `${prefix}-ref-history` (per repository and ref, the shas held)
 * `${prefix}-history-blobs` (the bytes of the blobs held commits name) and `${prefix}-version-blames`
 * (version blames the indexer computed, by repository, held key and path). Reads are gets by id
 * (real time, no refresh needed), so a commit written before a ref flips is readable at the flip.
 */
export class ElasticsearchHistory implements HistoryStore {
  /** The three indices, created on first use: one shard each. */
  private readonly ready = onceReady(() =>
    createSmallIndices(
      this.client,
      (Object.keys(MAPPINGS) as Kind[]).map((kind) => ({ index: this.index(kind), mappings: MAPPINGS[kind] })),
      this.options.replicas,
    ),
  );

  constructor(
    private readonly client: Client,
    private readonly options: { indexPrefix: string; nodeLabel?: string; replicas?: number | undefined },
  ) {}

  private index(kind: Kind): string {
    return `${this.options.indexPrefix}-${kind}`;
  }

  ensureHistoryReady(): Promise<void> {
    return this.ready();
  }

  getRefHistory(repositoryId: number, ref: string, options?: IndexCallOptions): Promise<RefHistory | null> {
    return this.call('read ref history', async () => {
      const found = await this.client.get<RefHistoryDocument>({ index: this.index('ref-history'), id: `${repositoryId}:${ref}` }, { ignore: [404], ...signalOf(options) });
      const doc = found.found ? found._source : undefined;
      return doc ? { repositoryId, ref, head: doc.head, commits: doc.commits } : null;
    });
  }

  getCommits(repositoryId: number, shas: readonly string[], options?: IndexCallOptions): Promise<CommitRecord[]> {
    return this.call('read commits', async () => {
      const out: CommitRecord[] = [];
      for (const part of pages([...new Set(shas)])) {
        const answer = await this.client.mget<CommitDocument>({ index: this.index('commits'), ids: part.map((sha) => `${repositoryId}:${sha}`) }, signalOf(options));
        for (const doc of answer.docs) if ('found' in doc && doc.found && doc._source) out.push({ sha: doc._source.sha, ...doc._source.record });
      }
      return out;
    });
  }

  readHistoryBlobs(repositoryId: number, shas: readonly string[], options?: IndexCallOptions): Promise<Map<string, Buffer>> {
    return this.call('read history blobs', async () => {
      const out = new Map<string, Buffer>();
      for (const part of pages([...new Set(shas)])) {
        const answer = await this.client.mget<BlobDocument>({ index: this.index('history-blobs'), ids: part.map((sha) => `${repositoryId}:${sha}`) }, signalOf(options));
        for (const doc of answer.docs) if ('found' in doc && doc.found && doc._source) out.set(doc._source.sha, Buffer.from(doc._source.content, 'base64'));
      }
      return out;
    });
  }

  getVersionBlames(repositoryId: number, wanted: readonly { key: string; path: string }[], options?: IndexCallOptions): Promise<StoredVersionBlame[]> {
    return this.call('read version blames', async () => {
      const out: StoredVersionBlame[] = [];
      for (const part of pages(wanted)) {
        const answer = await this.client.mget<VersionBlameDocument>({ index: this.index('version-blames'), ids: part.map((w) => blameId(repositoryId, w.key, w.path)) }, signalOf(options));
        for (const doc of answer.docs) {
          if ('found' in doc && doc.found && doc._source) out.push({ key: doc._source.key, path: doc._source.path, commit: doc._source.sha, blame: doc._source.blame });
        }
      }
      return out;
    });
  }

  putVersionBlames(repositoryId: number, blames: readonly StoredVersionBlame[]): Promise<void> {
    return this.call('write version blames', async () => {
      for (const part of pages(blames)) {
        await this.bulk(
          part.flatMap((b) => {
            const id = blameId(repositoryId, b.key, b.path);
            return [{ create: { _index: this.index('version-blames'), _id: id } }, { repositoryId, id, sha: b.commit, key: b.key, path: b.path, blame: b.blame } satisfies VersionBlameDocument];
          }),
        );
      }
    });
  }

  putCommits(repositoryId: number, commits: readonly CommitRecord[]): Promise<void> {
    return this.call('write commits', async () => {
      for (const part of pages(commits)) {
        await this.bulk(part.flatMap(({ sha, ...record }) => [{ create: { _index: this.index('commits'), _id: `${repositoryId}:${sha}` } }, { repositoryId, sha, record } satisfies CommitDocument]));
      }
    });
  }

  putRefHistory(history: RefHistory): Promise<void> {
    return this.call('write ref history', async () => {
      await this.ensureHistoryReady();
      const document: RefHistoryDocument = { repositoryId: history.repositoryId, ref: history.ref, head: history.head, commits: history.commits };
      await this.client.index({ index: this.index('ref-history'), id: `${history.repositoryId}:${history.ref}`, document });
    });
  }

  deleteRefHistory(repositoryId: number, ref: string): Promise<void> {
    return this.call('delete ref history', async () => {
      await this.ensureHistoryReady();
      await this.client.delete({ index: this.index('ref-history'), id: `${repositoryId}:${ref}` }, { ignore: [404] });
    });
  }

  pruneCommits(repositoryId: number): Promise<void> {
    return this.call('prune commits', async () => {
      await this.ensureHistoryReady();
      await this.client.indices.refresh({ index: (Object.keys(MAPPINGS) as Kind[]).map((kind) => this.index(kind)) });
      const held = await this.all<RefHistoryDocument>('ref-history', repositoryId, ['commits']);
      const commits = await this.all<CommitDocument>('commits', repositoryId, ['sha', 'record.files']);
      const blobs = await this.all<BlobDocument>('history-blobs', repositoryId, ['sha']);
      const drop = unreferencedHistory(
        held.map((doc) => doc.commits),
        commits.map((doc) => ({ sha: doc.sha, files: doc.record.files })),
        blobs.map((doc) => doc.sha),
      );
      const dropped = new Set(drop.commits);
      const blames = dropped.size === 0 ? [] : (await this.all<VersionBlameDocument>('version-blames', repositoryId, ['id', 'sha'])).filter((doc) => dropped.has(doc.sha));
      const deletes = [
        ...blames.map((doc) => ({ delete: { _index: this.index('version-blames'), _id: doc.id } })),
        ...drop.commits.map((sha) => ({ delete: { _index: this.index('commits'), _id: `${repositoryId}:${sha}` } })),
        ...drop.blobs.map((sha) => ({ delete: { _index: this.index('history-blobs'), _id: `${repositoryId}:${sha}` } })),
      ];
      for (const part of pages(deletes)) await this.bulk(part);
    });
  }

  deleteHistory(repositoryId: number): Promise<void> {
    return this.call('delete history', async () => {
      await this.ensureHistoryReady();
      // By search and bulk delete: the minimal distribution has no delete-by-query (the reindex module).
      await this.client.indices.refresh({ index: (Object.keys(MAPPINGS) as Kind[]).map((kind) => this.index(kind)) });
      const refs = await this.all<RefHistoryDocument>('ref-history', repositoryId, ['ref']);
      const commits = await this.all<CommitDocument>('commits', repositoryId, ['sha']);
      const blobs = await this.all<BlobDocument>('history-blobs', repositoryId, ['sha']);
      const blames = await this.all<VersionBlameDocument>('version-blames', repositoryId, ['id']);
      const deletes = [
        ...blames.map((doc) => ({ delete: { _index: this.index('version-blames'), _id: doc.id } })),
        ...refs.map((doc) => ({ delete: { _index: this.index('ref-history'), _id: `${repositoryId}:${doc.ref}` } })),
        ...commits.map((doc) => ({ delete: { _index: this.index('commits'), _id: `${repositoryId}:${doc.sha}` } })),
        ...blobs.map((doc) => ({ delete: { _index: this.index('history-blobs'), _id: `${repositoryId}:${doc.sha}` } })),
      ];
      for (const part of pages(deletes)) await this.bulk(part);
    });
  }

  missingHistoryBlobs(repositoryId: number, shas: readonly string[]): Promise<string[]> {
    return this.call('look up history blobs', async () => {
      await this.ensureHistoryReady();
      const have = new Set<string>();
      for (const part of pages([...new Set(shas)])) {
        const answer = await this.client.mget({ index: this.index('history-blobs'), ids: part.map((sha) => `${repositoryId}:${sha}`), _source: false });
        for (const doc of answer.docs) if ('found' in doc && doc.found) have.add(doc._id.slice(doc._id.indexOf(':') + 1));
      }
      return [...new Set(shas)].filter((sha) => !have.has(sha));
    });
  }

  putHistoryBlobs(repositoryId: number, blobs: readonly HistoryBlob[]): Promise<void> {
    return this.call('write history blobs', async () => {
      for (const part of pages(blobs)) {
        await this.bulk(
          part.flatMap((blob) => [
            { create: { _index: this.index('history-blobs'), _id: `${repositoryId}:${blob.sha}` } },
            { repositoryId, sha: blob.sha, content: blob.content.toString('base64') } satisfies BlobDocument,
          ]),
        );
      }
    });
  }

  /** One bulk request; an item refused only because the document exists (create of a stored commit or blob) is not an error. */
  private async bulk(operations: unknown[]): Promise<void> {
    if (operations.length === 0) return;
    await this.ensureHistoryReady();
    const answer = await this.client.bulk({ operations });
    if (!answer.errors) return;
    const failed = answer.items.map((item) => Object.values(item)[0]).filter((item) => item?.error && item.status !== 409 && !(item.status === 404 && item.result === 'not_found'));
    if (failed.length > 0) throw new Error(`${failed.length} of ${answer.items.length} history writes failed: ${JSON.stringify(failed[0]?.error)}`);
  }

  /** Every document of a repository in one index (these fields only), in pages sorted by their key. */
  private async all<T>(kind: Kind, repositoryId: number, fields: string[]): Promise<T[]> {
    const out: T[] = [];
    let after: unknown[] | undefined;
    for (;;) {
      const answer = await this.client.search<T>({
        index: this.index(kind),
        query: { term: { repositoryId } },
        _source: fields,
        size: 2_000,
        sort: [{ [kind === 'ref-history' ? 'ref' : kind === 'version-blames' ? 'id' : 'sha']: 'asc' }],
        ...(after ? { search_after: after as never } : {}),
      });
      const hits = answer.hits.hits;
      for (const hit of hits) if (hit._source) out.push(hit._source);
      if (hits.length < 2_000) return out;
      after = hits[hits.length - 1]?.sort;
    }
  }

  private async call<T>(action: string, body: () => Promise<T>): Promise<T> {
    try {
      return await body();
    } catch (error) {
      if (error instanceof errors.ResponseError && error.statusCode === 404 && JSON.stringify(error.body).includes('index_not_found_exception')) {
        // Nothing was ever written: an index not created yet holds no history.
        const empty = await this.emptyAnswer<T>(action);
        if (empty.known) return empty.value;
      }
      throw toPortError(error, this.options.nodeLabel ?? 'elasticsearch', action);
    }
  }

  private emptyAnswer<T>(action: string): Promise<{ known: boolean; value: T }> {
    const empty: Record<string, unknown> = { 'read ref history': null, 'read commits': [], 'read history blobs': new Map(), 'read version blames': [] };
    return Promise.resolve(action in empty ? { known: true, value: empty[action] as T } : { known: false, value: undefined as T });
  }
}

function signalOf(options: IndexCallOptions | undefined): { signal?: AbortSignal } {
  return options?.signal ? { signal: options.signal } : {};
}
