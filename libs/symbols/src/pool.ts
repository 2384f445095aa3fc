import type { BlobSymbols } from '@gitdex/contracts';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import Piscina from 'piscina';
import { DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT_MS, type OccurrenceSelection } from './extract';
import { grammarFor } from './grammars';
import { SYMBOL_EXTRACTOR_VERSION } from './version';
import { unpackSymbols, type PackedBlobSymbols } from './packed';
import type { ExtractTask } from './worker';

export interface SymbolExtractorOptions {
  /**
   * Worker threads (default: one per core). Parsing is the indexer's only CPU-bound work (its own
   * thread mostly waits on the tarball and on the index), and a full index waits for it.
   */
  readonly threads?: number;
  /** Larger blobs are skipped without being sent to a worker (default 1 MiB). */
  readonly maxBytes?: number;
  /** Parse and query time per blob inside the worker (default 5 s). */
  readonly timeoutMs?: number;
  /**
   * A worker still busy this long after it took a blob is stopped and replaced, whatever it is
   * stuck in (default twice timeoutMs plus a second, past any honest in-worker timeout).
   */
  readonly hardTimeoutMs?: number;
}

export interface SymbolExtractor {
  /**
   * Never rejects for the blob's sake: a blob that cannot be parsed comes back failed or skipped.
   * `occurrences` (default all) chooses which identifiers come back beside the definitions.
   */
  extract(content: string, path: string, language: string | null, occurrences?: OccurrenceSelection): Promise<BlobSymbols>;
  /** Workers stopped or replaced because they exceeded hardTimeoutMs or died. */
  readonly replaced: () => number;
  close(): Promise<void>;
}

/** The worker runs compiled JavaScript: from src (tests) and from dist alike, it is dist/worker.js. */
const WORKER = join(__dirname, '..', 'dist', 'worker.js');

export class SymbolExtractorClosedError extends Error {
  readonly code = 'SYMBOL_EXTRACTOR_CLOSED';
  constructor() {
    super('the symbol extractor is closed; create another with createSymbolExtractor');
  }
}

/**
 * A pool of worker threads that parse blobs, so that a hostile blob (a megabyte on one line, deep
 * nesting, an error storm) costs at most one worker for hardTimeoutMs and never the caller's
 * thread. At most `threads` blobs are inside piscina at once, so a blob's hard timeout starts when
 * a worker takes it, not while it waits in line.
 */
export function createSymbolExtractor(options: SymbolExtractorOptions = {}): SymbolExtractor {
  const threads = options.threads ?? availableParallelism();
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const hardTimeoutMs = options.hardTimeoutMs ?? timeoutMs * 2 + 1_000;
  for (const [name, value] of Object.entries({ threads, maxBytes, timeoutMs, hardTimeoutMs })) {
    if (!Number.isInteger(value) || value < 1) throw new RangeError(`createSymbolExtractor: ${name} must be a whole number of at least 1 (got ${value})`);
  }
  if (!existsSync(WORKER)) throw new Error(`createSymbolExtractor: ${WORKER} is missing; build the workspace first (node scripts/prepare.mjs --build)`);
  const pool = new Piscina<ExtractTask, PackedBlobSymbols>({ filename: WORKER, minThreads: threads, maxThreads: threads, idleTimeout: 60_000 });
  const waiting: Array<() => void> = [];
  let running = 0;
  let replaced = 0;
  let closed = false;

  const failed = (language: string | null, reason: string): BlobSymbols => ({ extractor: SYMBOL_EXTRACTOR_VERSION, language, status: 'failed', reason, definitions: [], occurrences: [] });

  async function turn(): Promise<void> {
    if (running < threads) {
      running++;
      return;
    }
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
  function release(): void {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }

  async function extract(content: string, path: string, language: string | null, occurrences: OccurrenceSelection = 'all'): Promise<BlobSymbols> {
    if (closed) throw new SymbolExtractorClosedError();
    // Most blobs of a repository (documentation, data, other languages) need no worker at all.
    if (!grammarFor(language, path)) return { extractor: SYMBOL_EXTRACTOR_VERSION, language, status: 'skipped', reason: 'no grammar', definitions: [], occurrences: [] };
    const bytes = Buffer.byteLength(content, 'utf8');
    if (bytes > maxBytes) return { extractor: SYMBOL_EXTRACTOR_VERSION, language, status: 'skipped', reason: `too large (${bytes} bytes, limit ${maxBytes})`, definitions: [], occurrences: [] };
    await turn();
    try {
      if (closed) throw new SymbolExtractorClosedError();
      const signal = AbortSignal.timeout(hardTimeoutMs);
      try {
        return unpackSymbols(await pool.run({ content, path, language, maxBytes, timeoutMs, occurrences }, { signal }));
      } catch (error) {
        if (closed) throw new SymbolExtractorClosedError();
        // Piscina terminates a worker whose task is aborted, and starts another in its place.
        replaced++;
        if (signal.aborted) return failed(language, `timeout (worker stopped after ${hardTimeoutMs} ms)`);
        return failed(language, `worker died: ${error instanceof Error ? error.message.slice(0, 200) : String(error)}`);
      }
    } finally {
      release();
    }
  }

  return {
    extract,
    replaced: () => replaced,
    async close() {
      closed = true;
      for (const next of waiting.splice(0)) next();
      await pool.destroy();
    },
  };
}
