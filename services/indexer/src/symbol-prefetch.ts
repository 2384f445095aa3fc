import type { BlobSymbols, FileDocument } from '@gitdex/contracts';
import type { FileWrite } from '@gitdex/ports';
import { parseable, type SymbolCounts, type SymbolParsing } from './attach-symbols';

/**
 * Blobs looked up together in the index before they are parsed: the first chunk small, so the
 * pool starts on a tarball's first files at once; each next one twice as large up to the most,
 * so a full index of 50,000 files asks the index about 200 times, not thousands (each lookup is
 * a request and a query on the blobs index).
 */
export const PREFETCH_CHUNK = { first: 32, most: 256 };

type Parseable = FileDocument & { content: string; language: string };
type Outcome = { symbols: BlobSymbols; reused: boolean };

interface Pending {
  /** The stored symbols, or the parse under way; rejects only when the lookup failed. */
  readonly symbols: Promise<Outcome>;
  /** Settles `symbols` once the blob's chunk is looked up. */
  readonly start: (outcome: Promise<Outcome>) => void;
  /** The document whose parse counts (the first of its blob); others sharing it count nothing, as in attachSymbols. */
  readonly first: FileDocument;
  /** Documents not yet attached: the entry goes when the last is, so memory stays bounded by the batches under way. */
  users: number;
}

const keyOf = (doc: { blobSha: string; language: string }) => `${doc.blobSha}\0${doc.language}`;

/**
 * Starts each parseable blob's parse when its document is built (as it leaves the tarball), not
 * when its batch is full: the pool works while the rest of the tarball is read and the earlier
 * batches are written, and the last batch waits only for its own last files. attach() then
 * gives a batch's documents their symbols before the batch is written, so a symbol is still
 * findable exactly from the flip that makes its content readable.
 *
 * As attachSymbols: a blob whose symbols are stored by this extractor version (any ref, commit
 * or repository) is not parsed again, and a blob is parsed once while documents holding it are
 * under way.
 */
export class SymbolPrefetch {
  private open: Parseable[] = [];
  private readonly pending = new Map<string, Pending>();
  private readonly languages: ReadonlySet<string>;
  readonly counts: SymbolCounts = { parsed: 0, failed: 0, skipped: 0, reused: 0 };

  constructor(
    private readonly parsing: SymbolParsing,
    private chunk = PREFETCH_CHUNK.first,
    private readonly mostChunk = PREFETCH_CHUNK.most,
  ) {
    this.languages = new Set(parsing.languages);
  }

  /** Called for every write as it is buffered. */
  add(write: FileWrite): void {
    if (write.type !== 'put' || !parseable(write.document, this.languages)) return;
    const doc = write.document;
    const known = this.pending.get(keyOf(doc));
    if (known) {
      known.users += 1;
      return;
    }
    let start!: (outcome: Promise<Outcome>) => void;
    const symbols = new Promise<Outcome>((resolve) => (start = resolve));
    // Observed here; a failed lookup still rejects the batch that waits for it.
    symbols.catch(() => undefined);
    this.pending.set(keyOf(doc), { symbols, start, first: doc, users: 1 });
    this.open.push(doc);
    if (this.open.length >= this.chunk) this.send();
  }

  /** Gives each put of the batch its blob's symbols (the WriteBuffer's prepare). */
  async attach(writes: FileWrite[]): Promise<void> {
    // The batch's last files may be in a chunk not yet looked up.
    this.send();
    for (const write of writes) {
      if (write.type !== 'put' || !parseable(write.document, this.languages)) continue;
      const doc = write.document;
      const key = keyOf(doc);
      const entry = this.pending.get(key);
      if (!entry) throw new Error(`SymbolPrefetch: ${doc.path} was not added before its batch was written (WriteBuffer's accept must call add)`);
      const { symbols, reused } = await entry.symbols;
      doc.symbols = symbols;
      if (reused) this.counts.reused += 1;
      else if (entry.first === doc) this.counts[symbols.status] += 1;
      entry.users -= 1;
      if (entry.users === 0) this.pending.delete(key);
    }
  }

  /** Looks the open chunk up in the index (one request), then parses what is not stored. */
  private send(): void {
    if (this.open.length === 0) return;
    const docs = this.open;
    this.open = [];
    this.chunk = Math.min(this.chunk * 2, this.mostChunk);
    const stored = this.parsing.stored.storedSymbols(
      docs.map((doc) => ({ blobSha: doc.blobSha, language: doc.language })),
      this.parsing.version,
    );
    for (const doc of docs) {
      this.pending.get(keyOf(doc))!.start(
        stored.then((found) => {
          const hit = found.get(doc.blobSha);
          if (hit && hit.language === doc.language) return { symbols: hit, reused: true };
          return this.parsing.extract(doc.content, doc.path, doc.language).then((symbols) => ({ symbols, reused: false }));
        }),
      );
    }
  }
}
