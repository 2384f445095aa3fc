import { errors, type Client } from '@elastic/elasticsearch';
import type { Lease, LeaseStore } from '@gitdex/ports';
import { toPortError } from './errors';
import { createSmallIndices, onceReady, retryWhileStarting } from './small-index';

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
  /** Created on first use (not by the store's setup): a few documents, one shard. */
  private readonly ensureIndex = onceReady(() =>
    createSmallIndices(this.client, [{ index: this.index, mappings: { dynamic: false, properties: { holder: { type: 'keyword' }, expiresAt: { type: 'date' } } } }], this.options.replicas),
  );

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

  /** A shard that has just started may refuse a read for a moment (503): asked again a few times. */
  private call<T>(action: string, body: () => Promise<T>): Promise<T> {
    return retryWhileStarting(body, (error) => toPortError(error, this.options.nodeLabel ?? 'elasticsearch', action));
  }
}
