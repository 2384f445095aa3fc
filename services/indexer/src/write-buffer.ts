import type { FileWrite, IndexStore } from '@gitdex/ports';

export interface WriteBufferOptions {
  /** Writes per bulk request; bounded so memory and request size stay bounded. */
  maxWrites: number;
  maxBytes: number;
  /** Called after each flush: keeps the consumer's group membership during long indexing. */
  onFlush?: () => Promise<void>;
}

/** Collects file writes and sends them in bounded bulks. */
export class WriteBuffer {
  private writes: FileWrite[] = [];
  private bytes = 0;
  written = 0;

  constructor(private readonly index: IndexStore, private readonly options: WriteBufferOptions) {}

  async add(write: FileWrite): Promise<void> {
    this.writes.push(write);
    this.bytes += write.type === 'put' ? (write.document.content?.length ?? 0) + 512 : 128;
    if (this.writes.length >= this.options.maxWrites || this.bytes >= this.options.maxBytes) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.writes.length === 0) return;
    const batch = this.writes;
    this.writes = [];
    this.bytes = 0;
    await this.index.writeFiles(batch);
    this.written += batch.length;
    await this.options.onFlush?.();
  }
}
