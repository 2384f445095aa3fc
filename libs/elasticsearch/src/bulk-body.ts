export type BulkOperation =
  | { action: 'index'; id: string; document: unknown; ifSeqNo?: number; ifPrimaryTerm?: number }
  /** Partial update; a missing document is ignored (a retirement of a version that is gone). */
  | { action: 'update'; id: string; partial: Record<string, unknown> }
  | { action: 'delete'; id: string }
  /** Writes the document unless one with its id exists (that one is kept: a blob is written once). */
  | { action: 'create'; id: string; document: unknown };

/** One operation in a request body, and where its lines are in it. */
export interface BodyEntry {
  op: BulkOperation;
  start: number;
  end: number;
}

/** A bulk request's body as UTF-8 bytes (NDJSON, every line ending in a newline) and its operations in order. */
export interface BulkBody {
  bytes: Buffer;
  entries: BodyEntry[];
  /** The allocation `bytes` is a view of: given back to its BodyBuffers once the request is answered. */
  buffer: Buffer;
}

/**
 * Buffers of request bodies, kept for the next requests. A fresh buffer of megabytes for
 * every request is memory outside V8's heap that makes V8 collect more often: with one per
 * request, V8's helper threads took 3.0 s of CPU during the bulk of the large benchmark
 * repository; with these, 0.3–0.7 s (docs/search.md).
 */
export class BodyBuffers {
  private readonly free: Buffer[] = [];

  /** `size` is a request's usual bound (maxBytes); at most `keep` buffers are kept. */
  constructor(
    readonly size: number,
    private readonly keep = 8,
  ) {}

  /** A buffer of at least `bytes`: a kept one when it fits. */
  take(bytes: number): Buffer {
    if (bytes > this.size) return Buffer.allocUnsafeSlow(bytes);
    return this.free.pop() ?? Buffer.allocUnsafeSlow(this.size);
  }

  /** Gives back a body's buffer once nothing reads it any more (its request answered). */
  give(body: BulkBody): void {
    if (body.buffer.length === this.size && this.free.length < this.keep) this.free.push(body.buffer);
  }
}

const NEWLINE = 0x0a;

function linesOf(op: BulkOperation): string[] {
  if (op.action === 'index') {
    const header = { _id: op.id, ...(op.ifSeqNo !== undefined ? { if_seq_no: op.ifSeqNo, if_primary_term: op.ifPrimaryTerm } : {}) };
    return [JSON.stringify({ index: header }), JSON.stringify(op.document)];
  }
  if (op.action === 'create') return [JSON.stringify({ create: { _id: op.id } }), JSON.stringify(op.document)];
  if (op.action === 'update') return [JSON.stringify({ update: { _id: op.id, retry_on_conflict: 3 } }), JSON.stringify({ doc: op.partial })];
  return [JSON.stringify({ delete: { _id: op.id } })];
}

/** At least the UTF-8 length of the lines with their newlines (a UTF-16 unit is at most 3 bytes); costs nothing to know. */
function byteBound(lines: string[]): number {
  let bound = 0;
  for (const line of lines) bound += 3 * line.length + 1;
  return bound;
}

function exactBytes(lines: string[]): number {
  let bytes = 0;
  for (const line of lines) bytes += Buffer.byteLength(line) + 1;
  return bytes;
}

/**
 * Splits operations into request bodies of at most maxOperations and (unless a single
 * operation is larger) the buffers' size in bytes, each line encoded once, straight into its
 * request's buffer. Handed strings, the client joined a request's lines into one string,
 * measured its UTF-8 length (flattening it) and encoded it again to send it: the Node side of
 * a bulk of the large benchmark repository took 10.2–10.8 s of CPU that way, 7.2 s this way
 * (docs/search.md). An exact length is measured only for an operation that may not fit in
 * what is left of a request.
 */
export function* bulkBodies(ops: BulkOperation[], maxOperations: number, buffers: BodyBuffers): Generator<BulkBody> {
  const maxBytes = buffers.size;
  let buffer: Buffer | null = null;
  let used = 0;
  let entries: BodyEntry[] = [];
  for (const op of ops) {
    const lines = linesOf(op);
    const bound = byteBound(lines);
    const need = used + bound <= maxBytes ? bound : exactBytes(lines);
    if (buffer !== null && (entries.length >= maxOperations || used + need > maxBytes)) {
      yield { bytes: buffer.subarray(0, used), entries, buffer };
      buffer = null;
      used = 0;
      entries = [];
    }
    buffer ??= buffers.take(need);
    const start = used;
    for (const line of lines) {
      used += buffer.write(line, used);
      buffer[used++] = NEWLINE;
    }
    entries.push({ op, start, end: used });
  }
  if (buffer !== null) yield { bytes: buffer.subarray(0, used), entries, buffer };
}

/** The body of some of a request's operations (those to re-send), in their order. */
export function subsetBody(body: BulkBody, keep: (index: number) => boolean): BulkBody {
  const entries: BodyEntry[] = [];
  const parts: Buffer[] = [];
  let used = 0;
  body.entries.forEach((entry, index) => {
    if (!keep(index)) return;
    const part = body.bytes.subarray(entry.start, entry.end);
    parts.push(part);
    entries.push({ op: entry.op, start: used, end: used + part.length });
    used += part.length;
  });
  const bytes = Buffer.concat(parts, used);
  return { bytes, entries, buffer: bytes };
}
