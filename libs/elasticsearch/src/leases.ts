import { setTimeout as sleep } from 'node:timers/promises';
import { errors, type Client } from '@elastic/elasticsearch';
import type { Lease, LeaseStore } from '@gitdex/ports';
import { toPortError } from './errors';

interface LeaseDocument {
  holder: string;
  expiresAt: string;
}

/**
 * Leases as documents of their own small index (`${prefix}-leases`), taken with Elasticsearch's
 * optimistic concurrency: a free lease is created with op_type create, a held or expired one
 * replaced only with the if_seq_no/if_primary_term it was read with, so of two processes
 * asking at once exactly one wins (the other gets a 409).
 */
export class ElasticsearchLeases implements LeaseStore {
  private readonly index: string;
  private ready: Promise<void> | null = null;

  constructor(
    private readonly client: Client,
    private readonly options: { indexPrefix: string; nodeLabel?: string; replicas?: number | undefined },
  ) {
    this.index = `${options.indexPrefix}-leases`;
  }

  async acquireLease(name: string, holder: string, ttlMs: number, now: Date): Promise<boolean> {
    const document: LeaseDocument = { holder, expiresAt: new Date(now.getTime() + ttlMs).toISOString() };
    return this.call(`take lease ${name}`, async () => {
      await this.ensureIndex();
      const current = await this.client.get<LeaseDocument>({ index: this.index, id: name }, { ignore: [404] });
      try {
        if (!current.found || !current._source) {
          await this.client.index({ index: this.index, id: name, op_type: 'create', document, refresh: false });
          return true;
        }
        const live = current._source.holder !== holder && Date.parse(current._source.expiresAt) > now.getTime();
        if (live) return false;
        await this.client.index({ index: this.index, id: name, document, if_seq_no: current._seq_no!, if_primary_term: current._primary_term!, refresh: false });
        return true;
      } catch (error) {
        // Another process wrote the lease between the read and this write: it won.
        if (error instanceof errors.ResponseError && error.statusCode === 409) return false;
        throw error;
      }
    });
  }

  async releaseLease(name: string, holder: string): Promise<void> {
    await this.call(`release lease ${name}`, async () => {
      await this.ensureIndex();
      const current = await this.client.get<LeaseDocument>({ index: this.index, id: name }, { ignore: [404] });
      if (!current.found || current._source?.holder !== holder) return;
      await this.client.delete({ index: this.index, id: name, if_seq_no: current._seq_no!, if_primary_term: current._primary_term! }, { ignore: [404, 409] });
    });
  }

  async readLease(name: string): Promise<Lease | null> {
    return this.call(`read lease ${name}`, async () => {
      await this.ensureIndex();
      const current = await this.client.get<LeaseDocument>({ index: this.index, id: name }, { ignore: [404] });
      return current.found && current._source ? { name, holder: current._source.holder, expiresAt: current._source.expiresAt } : null;
    });
  }

  /** Created on first use (not by the store's setup): a few documents, one shard. */
  private ensureIndex(): Promise<void> {
    this.ready ??= (async () => {
      const replicas = this.options.replicas;
      try {
        await this.client.indices.create({
          index: this.index,
          settings: { number_of_shards: 1, ...(replicas === undefined ? { auto_expand_replicas: '0-1' } : { number_of_replicas: replicas }) },
          mappings: { dynamic: false, properties: { holder: { type: 'keyword' }, expiresAt: { type: 'date' } } },
        });
      } catch (error) {
        // Another process created it first.
        if (!(error instanceof errors.ResponseError && JSON.stringify(error.body).includes('resource_already_exists_exception'))) throw error;
      }
      // Created here or by another process a moment ago: its shard may not be started yet.
      await this.client.cluster.health({ index: this.index, wait_for_status: 'yellow', timeout: '10s' });
    })().catch((error: unknown) => {
      this.ready = null;
      throw error;
    });
    return this.ready;
  }

  /** A shard that has just started may refuse a read for a moment (503): asked again a few times. */
  private async call<T>(action: string, body: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await body();
      } catch (error) {
        const starting = error instanceof errors.ResponseError && error.statusCode === 503 && attempt < 5;
        if (!starting) throw toPortError(error, this.options.nodeLabel ?? 'elasticsearch', action);
        await sleep(100 * attempt);
      }
    }
  }
}
