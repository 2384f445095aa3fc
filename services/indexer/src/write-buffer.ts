import type { FileWrite, IndexWrites } from '@gitdex/ports';

export interface WriteBufferOptions {
  /** Writes per bulk request; bounded so memory and request size stay bounded. */
  maxWrites: number;
  maxBytes: number;
  /** Bulk requests under way at once while reading goes on (bounds memory to this many batches). Default 4. */
  maxInFlight?: number;
  /** Called after each flush: keeps the consumer's group membership during long indexing. */
  onFlush?: () => Promise<void>;
  /**
   * Completes a batch before it is written (the blobs' symbols, attachSymbols), inside the
   * bulk under way, so parsing overlaps reading the next batch.
   */
  prepare?: (writes: FileWrite[]) => Promise<void>;
}

/**
 * A send waits until fewer than this many are under way, so the caller reads the next batch
 * while up to three are written: with one under way while reading, Elasticsearch's write
 * threads wait between requests; each one in flight costs the indexer memory
 * (docs/journal/README.md: "four bulks under way").
 */
const DEFAULT_MAX_IN_FLIGHT = 4;

/**
 * Collects file writes and sends them in bounded bulks. A full batch is sent while the
 * caller goes on reading the next one (at most `maxInFlight` under way), so reading the
 * tarball and writing the index overlap instead of taking turns. Nothing is visible
 * before the ref state flips, so the order of the bulks does not matter.
 */
export class WriteBuffer {
  private writes: FileWrite[] = [];
  private bytes = 0;
  private readonly inFlight: Promise<void>[] = [];
  written = 0;

  constructor(
    private readonly index: Pick<IndexWrites, 'writeFiles'>,
    private readonly options: WriteBufferOptions,
  ) {}

  async add(write: FileWrite): Promise<void> {
    this.writes.push(write);
    this.bytes += write.type === 'put' ? (write.document.content?.length ?? 0) + 512 : 128;
    if (this.writes.length >= this.options.maxWrites || this.bytes >= this.options.maxBytes) await this.send();
  }

  /** Sends what is collected and waits until every bulk is written. */
  async flush(): Promise<void> {
    await this.send();
    await Promise.all(this.inFlight.splice(0));
  }

  /** Waits for every bulk under way, failed or not: an abandoned attempt must not keep writing behind the next one. */
  async settle(): Promise<void> {
    await Promise.allSettled(this.inFlight.splice(0));
  }

  private async send(): Promise<void> {
    if (this.writes.length === 0) return;
    const batch = this.writes;
    this.writes = [];
    this.bytes = 0;
    const prepared = this.options.prepare ? this.options.prepare(batch) : Promise.resolve();
    const sent = prepared
      .then(() => this.index.writeFiles(batch))
      .then(async () => {
        this.written += batch.length;
        await this.options.onFlush?.();
      });
    // A failure must not go unobserved while it waits its turn; it still rejects flush().
    sent.catch(() => undefined);
    this.inFlight.push(sent);
    while (this.inFlight.length >= (this.options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT)) await this.inFlight.shift();
  }
}
