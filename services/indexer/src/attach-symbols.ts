import type { BlobSymbols, FileDocument } from '@gitdex/contracts';
import type { FileWrite, StoredSymbols } from '@gitdex/ports';

/**
 * How the indexer gets a blob's symbols: @gitdex/symbols' extractor in production (a pool of
 * workers that bounds each parse), a stand-in in tests.
 */
export interface SymbolParsing {
  /** Never rejects for the blob's sake: a blob that cannot be parsed comes back failed or skipped. */
  extract(content: string, path: string, language: string | null): Promise<BlobSymbols>;
  /** The extractor's version (BlobSymbols.extractor): symbols stored by it are never parsed again. */
  version: number;
  /** Languages it parses (the indexer's names); files of other languages are not sent to it. */
  languages: readonly string[];
  /** Where symbols already stored are looked up: the index. */
  stored: StoredSymbols;
}

/** What attachSymbols did with a batch's parseable files. */
export interface SymbolCounts {
  /** Parsed now (each blob once per batch), by the status extraction gave. */
  parsed: number;
  failed: number;
  skipped: number;
  /** Taken from symbols already stored for the same blob and language (any ref or repository). */
  reused: number;
}

function parseable(doc: FileDocument, languages: ReadonlySet<string>): doc is FileDocument & { content: string; language: string } {
  return doc.kind === 'file' && typeof doc.content === 'string' && !doc.flags.binary && doc.language !== null && languages.has(doc.language) && doc.symbols === undefined;
}

/**
 * Gives each put of a parseable file its blob's symbols, before the batch is written: the
 * adapters store them with the blob, so a symbol is findable from the flip that makes its
 * content readable. A blob whose symbols are stored by this extractor version (same sha and
 * language, in any ref, commit or repository) is not parsed again: one lookup per batch; the
 * rest are parsed, each sha once.
 */
export async function attachSymbols(parsing: SymbolParsing, writes: FileWrite[]): Promise<SymbolCounts> {
  const counts: SymbolCounts = { parsed: 0, failed: 0, skipped: 0, reused: 0 };
  const languages = new Set(parsing.languages);
  const docs = writes.flatMap((write) => (write.type === 'put' && parseable(write.document, languages) ? [write.document] : []));
  if (docs.length === 0) return counts;
  const keyOf = (doc: { blobSha: string; language: string }) => `${doc.blobSha}\0${doc.language}`;
  const unique = new Map(docs.map((doc) => [keyOf(doc), doc]));
  const stored = await parsing.stored.storedSymbols(
    [...unique.values()].map((doc) => ({ blobSha: doc.blobSha, language: doc.language })),
    parsing.version,
  );
  const parsed = new Map<string, Promise<BlobSymbols>>();
  for (const [key, doc] of unique) {
    const found = stored.get(doc.blobSha);
    if (found && found.language === doc.language) continue;
    parsed.set(key, parsing.extract(doc.content, doc.path, doc.language));
  }
  for (const doc of docs) {
    const key = keyOf(doc);
    const pending = parsed.get(key);
    if (!pending) {
      doc.symbols = stored.get(doc.blobSha);
      counts.reused += 1;
      continue;
    }
    doc.symbols = await pending;
    if (unique.get(key) === doc) counts[doc.symbols.status] += 1;
  }
  return counts;
}
