import { errors, type Client } from '@elastic/elasticsearch';
import { PortError } from '@gitdex/ports';
import { bulkBodies, subsetBody, type BodyBuffers, type BulkBody, type BulkOperation } from './bulk-body';
import { answeredOverloaded, toPortError } from './errors';

export type { BulkOperation } from './bulk-body';

export interface BulkContext {
  client: Client;
  nodeLabel: string;
  prefix: string;
  maxOperations: number;
  /** Buffers of request bodies; their size is the bound of a request (unless one operation is larger). */
  bodies: BodyBuffers;
  retries: number;
  backoffMs: number;
  /**
   * Deadline of one bulk request. Longer than a read's: a node that is merging or indexing
   * documents with thousands of content trigrams each can take well past 10 s for a full
   * batch, and a bulk that times out is re-sent (its items are idempotent), never dropped.
   */
  bulkTimeoutMs: number;
  /** Replicas per shard of indices created through this context (undefined: auto_expand_replicas 0-1). */
  replicas?: number | undefined;
}

export interface BulkTarget {
  /** Alias (with requireAlias, so a missing alias never auto-creates a dynamic index) or physical index. */
  index: string;
  requireAlias: boolean;
  refresh?: boolean | 'wait_for';
  /**
   * Told the id of each guarded write (ifSeqNo) refused because the document changed or went
   * meanwhile, which then is no failure: the caller decides again from what the document is now.
   */
  onConflict?: (id: string) => void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function isRetriableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

interface ItemResult {
  status: number;
  error?: { type?: string; reason?: string };
}

/** Sends one request; re-sends the items refused with 429/5xx with backoff; throws on anything else. */
async function sendBody(ctx: BulkContext & BulkTarget, body: BulkBody): Promise<void> {
  let pending = body;
  const path = `/${encodeURIComponent(ctx.index)}/_bulk`;
  const querystring = { refresh: ctx.refresh ?? false, require_alias: ctx.requireAlias };
  for (let attempt = 0; ; attempt += 1) {
    let items: Record<string, ItemResult>[];
    try {
      // The body goes as bytes (see bulkBodies); the client's bulk() takes lines to join.
      const response = await ctx.client.transport.request<{ errors: boolean; items: Record<string, ItemResult>[] }>(
        { method: 'POST', path, querystring, bulkBody: pending.bytes },
        { requestTimeout: ctx.bulkTimeoutMs },
      );
      if (!response.errors) return;
      items = response.items;
    } catch (error) {
      const mapped = toPortError(error, ctx.nodeLabel, 'bulk write');
      // Overload answered for the whole request (429/503), or no answer in time from a busy node:
      // back off and re-send (index, update and delete items are idempotent). Unreachable: give up now.
      const overloaded = answeredOverloaded(mapped) || error instanceof errors.TimeoutError;
      if (!overloaded || attempt >= ctx.retries) throw mapped;
      await sleep(ctx.backoffMs * 2 ** attempt);
      continue;
    }

    const retry = new Set<number>();
    const retryIds = new Set<string>();
    const failures: string[] = [];
    let conflicts = 0;
    const missingUpdates: number[] = [];
    pending.entries.forEach((entry, i) => {
      const result = Object.values(items[i] ?? {})[0];
      if (!result) {
        failures.push(`${entry.op.action} ${entry.op.id}: no answer for this item`);
        return;
      }
      if (!result.error) return;
      if (entry.op.action === 'update' && result.status === 404) {
        missingUpdates.push(i);
        return;
      }
      if (entry.op.action === 'delete' && result.status === 404) return;
      if (entry.op.action === 'create' && result.status === 409) return;
      if (result.status === 409 && ctx.onConflict && entry.op.action === 'index' && entry.op.ifSeqNo !== undefined) {
        ctx.onConflict(entry.op.id);
        return;
      }
      if (isRetriableStatus(result.status)) {
        retry.add(i);
        retryIds.add(entry.op.id);
        return;
      }
      if (result.status === 409) conflicts += 1;
      failures.push(`${entry.op.action} ${entry.op.id}: ${result.status} ${result.error.type ?? ''}: ${result.error.reason ?? ''}`);
    });
    // A retirement of a document whose write is being re-sent must be re-sent after it, not dropped.
    for (const i of missingUpdates) if (retryIds.has(pending.entries[i]?.op.id ?? '')) retry.add(i);

    if (failures.length > 0) {
      const code = conflicts === failures.length ? 'CONFLICT' : 'INVALID';
      throw new PortError(code, `Elasticsearch at ${ctx.nodeLabel} refused ${failures.length} of ${pending.entries.length} bulk items on ${ctx.index}: ${failures.slice(0, 5).join('; ')}`);
    }
    if (retry.size === 0) return;
    const next = subsetBody(pending, (i) => retry.has(i));
    if (attempt >= ctx.retries) {
      throw new PortError('UNAVAILABLE', `Elasticsearch at ${ctx.nodeLabel} still refused ${next.entries.length} bulk items on ${ctx.index} (429/5xx) after ${ctx.retries} retries`);
    }
    pending = next;
    await sleep(ctx.backoffMs * 2 ** attempt * (1 + Math.random() / 2));
  }
}

/** Writes every operation in bounded batches, in order. Never drops an item silently. */
export async function bulkWrite(ctx: BulkContext & BulkTarget, ops: BulkOperation[]): Promise<void> {
  for (const body of bulkBodies(ops, ctx.maxOperations, ctx.bodies)) {
    await sendBody(ctx, body);
    // Only once answered: a request that failed may still be read by the socket it was written to.
    ctx.bodies.give(body);
  }
}
