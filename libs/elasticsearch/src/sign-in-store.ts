import { errors, type Client } from '@elastic/elasticsearch';
import type { SignInRecordKind, SignInStore } from '@gitdex/ports';
import { toPortError } from './errors';
import { createSmallIndices, onceReady, retryWhileStarting } from './small-index';

interface SignInDocument {
  kind: SignInRecordKind;
  key: string;
  value: object;
  /** Epoch milliseconds; null: kept until deleted. */
  expiresAt: number | null;
}

/**
 * Sign-in records in their own small index (`${prefix}-sign-in`), one document per kind and
 * key. A get by id is real-time in Elasticsearch, so a record written by one replica is read
 * by the next at once; `take` deletes with the if_seq_no/if_primary_term it read, so of two
 * replicas taking the same code at once exactly one wins (the other gets a 409).
 */
export class ElasticsearchSignInStore implements SignInStore {
  private readonly index: string;
  /** Created on first use: a few thousand small documents, one shard. */
  private readonly ensureIndex = onceReady(() =>
    createSmallIndices(
      this.client,
      [
        {
          index: this.index,
          mappings: { dynamic: false, properties: { kind: { type: 'keyword' }, key: { type: 'keyword' }, expiresAt: { type: 'long' }, value: { type: 'object', enabled: false } } },
        },
      ],
      this.options.replicas,
    ),
  );

  constructor(
    private readonly client: Client,
    private readonly options: { indexPrefix: string; nodeLabel?: string; replicas?: number | undefined },
  ) {
    this.index = `${options.indexPrefix}-sign-in`;
  }

  async put(kind: SignInRecordKind, key: string, value: object, expiresAt: Date | null): Promise<void> {
    const document: SignInDocument = { kind, key, value, expiresAt: expiresAt ? expiresAt.getTime() : null };
    await this.call(`write ${kind}`, async () => {
      await this.client.index({ index: this.index, id: idOf(kind, key), document, refresh: false });
    });
  }

  async get<T extends object>(kind: SignInRecordKind, key: string, now: Date): Promise<T | null> {
    return this.call(`read ${kind}`, async () => {
      const found = await this.client.get<SignInDocument>({ index: this.index, id: idOf(kind, key) }, { ignore: [404] });
      return found.found && found._source && live(found._source, now) ? (found._source.value as T) : null;
    });
  }

  async take<T extends object>(kind: SignInRecordKind, key: string, now: Date): Promise<T | null> {
    return this.call(`take ${kind}`, async () => {
      const id = idOf(kind, key);
      const found = await this.client.get<SignInDocument>({ index: this.index, id }, { ignore: [404] });
      if (!found.found || !found._source) return null;
      try {
        await this.client.delete({ index: this.index, id, if_seq_no: found._seq_no!, if_primary_term: found._primary_term! });
      } catch (error) {
        // Another replica took it between the read and this delete: it won.
        if (error instanceof errors.ResponseError && (error.statusCode === 409 || error.statusCode === 404)) return null;
        throw error;
      }
      return live(found._source, now) ? (found._source.value as T) : null;
    });
  }

  async delete(kind: SignInRecordKind, key: string): Promise<void> {
    await this.call(`delete ${kind}`, async () => {
      await this.client.delete({ index: this.index, id: idOf(kind, key) }, { ignore: [404] });
    });
  }

  async list<T extends object>(kind: SignInRecordKind, now: Date, limit: number): Promise<{ key: string; value: T }[]> {
    return this.call(`list ${kind}`, async () => {
      // The operator's view, asked rarely: a refresh makes the writes of a moment ago searchable.
      await this.client.indices.refresh({ index: this.index });
      const result = await this.client.search<SignInDocument>({
        index: this.index,
        size: limit,
        sort: [{ key: 'asc' }],
        query: { bool: { filter: [{ term: { kind } }], must_not: [{ range: { expiresAt: { lte: now.getTime() } } }] } },
      });
      return result.hits.hits.flatMap((hit) => (hit._source ? [{ key: hit._source.key, value: hit._source.value as T }] : []));
    });
  }

  async sweep(now: Date): Promise<number> {
    return this.call('sweep', async () => {
      // The minimal distribution has no delete-by-query (it is in the reindex module): expired ids are searched, then deleted in bulk.
      await this.client.indices.refresh({ index: this.index });
      const expired = await this.client.search<SignInDocument>({ index: this.index, size: SWEEP_PAGE, _source: false, query: { range: { expiresAt: { lte: now.getTime() } } } });
      const ids = expired.hits.hits.flatMap((hit) => (hit._id ? [hit._id] : []));
      if (ids.length === 0) return 0;
      const result = await this.client.bulk({ operations: ids.map((id) => ({ delete: { _index: this.index, _id: id } })) });
      return result.items.filter((item) => item.delete?.result === 'deleted').length;
    });
  }

  /** Ensures the index, then runs; a shard that has just started may refuse for a moment (503), so it is asked again a few times. */
  private call<T>(action: string, body: () => Promise<T>): Promise<T> {
    return retryWhileStarting(
      async () => {
        await this.ensureIndex();
        return await body();
      },
      (error) => toPortError(error, this.options.nodeLabel ?? 'elasticsearch', `sign-in ${action}`),
    );
  }
}

/** Expired records deleted per sweep; the next sweep takes the rest. */
const SWEEP_PAGE = 1000;

function idOf(kind: SignInRecordKind, key: string): string {
  return `${kind}:${key}`;
}

function live(document: SignInDocument, now: Date): boolean {
  return document.expiresAt === null || document.expiresAt > now.getTime();
}
