import { errors, type Client } from '@elastic/elasticsearch';
import { PortError } from '@gitdex/ports';
import { toPortError } from './errors';

export type BulkOperation =
  | { action: 'index'; id: string; document: unknown; ifSeqNo?: number; ifPrimaryTerm?: number }
  /** Partial update; a missing document is ignored (a retirement of a version that is gone). */
  | { action: 'update'; id: string; partial: Record<string, unknown> }
  | { action: 'delete'; id: string };

export interface BulkContext {
  client: Client;
  nodeLabel: string;
  prefix: string;
  maxOperations: number;
  maxBytes: number;
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
}

interface Encoded {
  op: BulkOperation;
  lines: string[];
  bytes: number;
}

function encode(op: BulkOperation): Encoded {
  let lines: string[];
  if (op.action === 'index') {
    const header = { _id: op.id, ...(op.ifSeqNo !== undefined ? { if_seq_no: op.ifSeqNo, if_primary_term: op.ifPrimaryTerm } : {}) };
    lines = [JSON.stringify({ index: header }), JSON.stringify(op.document)];
  } else if (op.action === 'update') {
    lines = [JSON.stringify({ update: { _id: op.id, retry_on_conflict: 3 } }), JSON.stringify({ doc: op.partial })];
  } else {
    lines = [JSON.stringify({ delete: { _id: op.id } })];
  }
  return { op, lines, bytes: lines.reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0) };
}

/** Splits operations into batches of at most maxOperations and (unless a single op is larger) maxBytes. */
function* batches(ops: BulkOperation[], maxOperations: number, maxBytes: number): Generator<Encoded[]> {
  let batch: Encoded[] = [];
  let bytes = 0;
  for (const op of ops) {
    const encoded = encode(op);
    if (batch.length > 0 && (batch.length >= maxOperations || bytes + encoded.bytes > maxBytes)) {
      yield batch;
      batch = [];
      bytes = 0;
    }
    batch.push(encoded);
    bytes += encoded.bytes;
  }
  if (batch.length > 0) yield batch;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function isRetriableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

interface ItemResult {
  status: number;
  error?: { type?: string; reason?: string };
}

/** Sends one batch; re-sends the items refused with 429/5xx with backoff; throws on anything else. */
async function sendBatch(ctx: BulkContext & BulkTarget, batch: Encoded[]): Promise<void> {
  let pending = batch;
  for (let attempt = 0; ; attempt += 1) {
    const operations = pending.flatMap((entry) => entry.lines);
    let items: Record<string, ItemResult>[];
    try {
      const response = await ctx.client.bulk({ index: ctx.index, operations, refresh: ctx.refresh ?? false, require_alias: ctx.requireAlias }, { requestTimeout: ctx.bulkTimeoutMs });
      if (!response.errors) return;
      items = response.items as unknown as Record<string, ItemResult>[];
    } catch (error) {
      const mapped = toPortError(error, ctx.nodeLabel, 'bulk write');
      // Overload answered for the whole request (429/503), or no answer in time from a busy node:
      // back off and re-send (index, update and delete items are idempotent). Unreachable: give up now.
      const overloaded = mapped.code === 'RATE_LIMITED' || (mapped.code === 'UNAVAILABLE' && /answered \d+/.test(mapped.message)) || error instanceof errors.TimeoutError;
      if (!overloaded || attempt >= ctx.retries) throw mapped;
      await sleep(ctx.backoffMs * 2 ** attempt);
      continue;
    }

    const retry = new Set<number>();
    const retryIds = new Set<string>();
    const failures: string[] = [];
    let conflicts = 0;
    const missingUpdates: number[] = [];
    pending.forEach((entry, i) => {
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
      if (isRetriableStatus(result.status)) {
        retry.add(i);
        retryIds.add(entry.op.id);
        return;
      }
      if (result.status === 409) conflicts += 1;
      failures.push(`${entry.op.action} ${entry.op.id}: ${result.status} ${result.error.type ?? ''}: ${result.error.reason ?? ''}`);
    });
    // A retirement of a document whose write is being re-sent must be re-sent after it, not dropped.
    for (const i of missingUpdates) if (retryIds.has(pending[i]?.op.id ?? '')) retry.add(i);

    if (failures.length > 0) {
      const code = conflicts === failures.length ? 'CONFLICT' : 'INVALID';
      throw new PortError(code, `Elasticsearch at ${ctx.nodeLabel} refused ${failures.length} of ${pending.length} bulk items on ${ctx.index}: ${failures.slice(0, 5).join('; ')}`);
    }
    if (retry.size === 0) return;
    const next = pending.filter((_, i) => retry.has(i));
    if (attempt >= ctx.retries) {
      throw new PortError('UNAVAILABLE', `Elasticsearch at ${ctx.nodeLabel} still refused ${next.length} bulk items on ${ctx.index} (429/5xx) after ${ctx.retries} retries`);
    }
    pending = next;
    await sleep(ctx.backoffMs * 2 ** attempt * (1 + Math.random() / 2));
  }
}

/** Writes every operation in bounded batches, in order. Never drops an item silently. */
export async function bulkWrite(ctx: BulkContext & BulkTarget, ops: BulkOperation[]): Promise<void> {
  for (const batch of batches(ops, ctx.maxOperations, ctx.maxBytes)) await sendBatch(ctx, batch);
}
