import { setTimeout as sleep } from 'node:timers/promises';
import { errors, type Client, type estypes } from '@elastic/elasticsearch';

/** An index of a few documents that a store creates on first use (not the setup's templates). */
export interface SmallIndex {
  index: string;
  mappings: estypes.MappingTypeMapping;
}

/**
 * Creates each index with one shard unless it exists (another process may have created it a
 * moment before), then waits for their shards: one just created may not be started yet. Without
 * a replica count, replicas follow the cluster (0 on one node, 1 beyond). An index that exists
 * gets the fields its mapping gained since it was made (the engine refuses a changed field, and
 * says which).
 */
export async function createSmallIndices(client: Client, indices: readonly SmallIndex[], replicas: number | undefined): Promise<void> {
  for (const { index, mappings } of indices) {
    try {
      await client.indices.create({ index, settings: { number_of_shards: 1, ...(replicas === undefined ? { auto_expand_replicas: '0-1' } : { number_of_replicas: replicas }) }, mappings });
    } catch (error) {
      if (!(error instanceof errors.ResponseError && JSON.stringify(error.body).includes('resource_already_exists_exception'))) throw error;
      await addMissingFields(client, index, mappings);
    }
  }
  await client.cluster.health({ index: indices.map((i) => i.index), wait_for_status: 'yellow', timeout: '10s' });
}

/**
 * Puts the fields of `mappings` that an existing index lacks; when none is missing nothing is
 * asked, so a user who may only create the index never needs to manage its mapping.
 */
async function addMissingFields(client: Client, index: string, mappings: estypes.MappingTypeMapping): Promise<void> {
  const current = Object.values(await client.indices.getMapping({ index }))[0]?.mappings.properties ?? {};
  const missing = Object.entries(mappings.properties ?? {}).filter(([field]) => !(field in current));
  if (missing.length > 0) await client.indices.putMapping({ index, properties: Object.fromEntries(missing) });
}

/** A setup step run once by its first caller and shared by callers meanwhile; a failed one is tried again by the next caller. */
export function onceReady(setup: () => Promise<void>): () => Promise<void> {
  let ready: Promise<void> | null = null;
  return () => {
    ready ??= setup().catch((error: unknown) => {
      ready = null;
      throw error;
    });
    return ready;
  };
}

/** Runs `body`, asking again a few times while a shard that has just started refuses (503); any other error goes through `fail`. */
export async function retryWhileStarting<T>(body: () => Promise<T>, fail: (error: unknown) => Error): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await body();
    } catch (error) {
      const starting = error instanceof errors.ResponseError && error.statusCode === 503 && attempt < 5;
      if (!starting) throw fail(error);
      await sleep(100 * attempt);
    }
  }
}
