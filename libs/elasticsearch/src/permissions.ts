import { errors, type Client } from '@elastic/elasticsearch';
import type { PermissionStore, PersonPermissions } from '@gitdex/ports';
import { toPortError } from './errors';
import { createSmallIndices, onceReady, retryWhileStarting } from './small-index';

/** Attempts of a grant or withdrawal that lost a race with another writer of the same person. */
const MAX_CONFLICTS = 5;

/**
 * The permission mirror's state as one document per person in its own small index
 * (`${prefix}-people`). Reads by person are real-time gets, so a withdrawal written by one
 * replica is seen by the next request on any other; a grant or withdrawal replaces the
 * document only with the seq_no it read (optimistic concurrency), and writes refresh the
 * index so the searches (holders, people due) see them at once: the index is a few documents
 * per signed-in person and is written rarely.
 */
export class ElasticsearchPermissions implements PermissionStore {
  private readonly index: string;
  /** Created on first use: a few documents, one shard. */
  private readonly ensureIndex = onceReady(() =>
    createSmallIndices(
      this.client,
      [{ index: this.index, mappings: { dynamic: false, properties: { userId: { type: 'long' }, login: { type: 'keyword' }, repositoryIds: { type: 'long' }, refreshedAt: { type: 'date' } } } }],
      this.options.replicas,
    ),
  );

  constructor(
    private readonly client: Client,
    private readonly options: { indexPrefix: string; nodeLabel?: string; replicas?: number | undefined },
  ) {
    this.index = `${options.indexPrefix}-people`;
  }

  getPerson(userId: number): Promise<PersonPermissions | null> {
    return this.call('read a person', async () => {
      const found = await this.client.get<PersonPermissions>({ index: this.index, id: String(userId) }, { ignore: [404] });
      return found.found && found._source ? found._source : null;
    });
  }

  putPerson(person: PersonPermissions): Promise<void> {
    const document: PersonPermissions = { ...person, repositoryIds: [...new Set(person.repositoryIds)].sort((a, b) => a - b) };
    return this.call('store a person', async () => {
      await this.client.index({ index: this.index, id: String(person.userId), document, refresh: true });
    });
  }

  grant(userId: number, repositoryId: number): Promise<boolean> {
    return this.change(userId, 'grant a repository', (ids) => (ids.includes(repositoryId) ? null : [...ids, repositoryId].sort((a, b) => a - b)), true);
  }

  withdraw(userId: number, repositoryId: number): Promise<boolean> {
    return this.change(userId, 'withdraw a repository', (ids) => (ids.includes(repositoryId) ? ids.filter((id) => id !== repositoryId) : null), false);
  }

  holders(repositoryId: number, limit: number): Promise<number[]> {
    return this.call('list holders', async () => {
      const found = await this.client.search<PersonPermissions>({ index: this.index, size: limit, query: { term: { repositoryIds: repositoryId } }, sort: [{ userId: 'asc' }], _source: ['userId'] });
      return found.hits.hits.flatMap((hit) => (hit._source ? [hit._source.userId] : []));
    });
  }

  dueForRefresh(before: string, limit: number): Promise<number[]> {
    return this.call('list people due', async () => {
      const found = await this.client.search<PersonPermissions>({
        index: this.index,
        size: limit,
        query: { range: { refreshedAt: { lt: before } } },
        sort: [{ refreshedAt: 'asc' }, { userId: 'asc' }],
        _source: ['userId'],
      });
      return found.hits.hits.flatMap((hit) => (hit._source ? [hit._source.userId] : []));
    });
  }

  listPeople(limit: number): Promise<PersonPermissions[]> {
    return this.call('list people', async () => {
      const found = await this.client.search<PersonPermissions>({ index: this.index, size: limit, sort: [{ login: 'asc' }, { userId: 'asc' }] });
      return found.hits.hits.flatMap((hit) => (hit._source ? [hit._source] : []));
    });
  }

  removePerson(userId: number): Promise<boolean> {
    return this.call('forget a person', async () => {
      const answer = await this.client.delete({ index: this.index, id: String(userId), refresh: true }, { ignore: [404] });
      return answer.result === 'deleted';
    });
  }

  /** Read, change, write back with the seq_no read; a concurrent writer makes it read again. */
  private change(userId: number, action: string, next: (ids: number[]) => number[] | null, unchangedAnswer: boolean): Promise<boolean> {
    return this.call(action, async () => {
      for (let attempt = 1; ; attempt += 1) {
        const current = await this.client.get<PersonPermissions>({ index: this.index, id: String(userId) }, { ignore: [404] });
        if (!current.found || !current._source) return false;
        const ids = next(current._source.repositoryIds);
        if (ids === null) return unchangedAnswer;
        try {
          await this.client.index({
            index: this.index,
            id: String(userId),
            document: { ...current._source, repositoryIds: ids },
            if_seq_no: current._seq_no!,
            if_primary_term: current._primary_term!,
            refresh: true,
          });
          return true;
        } catch (error) {
          if (!(error instanceof errors.ResponseError && error.statusCode === 409) || attempt >= MAX_CONFLICTS) throw error;
        }
      }
    });
  }

  /** Ensures the index, then runs; a shard that has just started may refuse for a moment (503), so it is asked again a few times. */
  private call<T>(action: string, body: () => Promise<T>): Promise<T> {
    return retryWhileStarting(
      async () => {
        await this.ensureIndex();
        return await body();
      },
      (error) => toPortError(error, this.options.nodeLabel ?? 'elasticsearch', `permissions, ${action}`),
    );
  }
}
