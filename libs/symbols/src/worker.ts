// Entry point of each pool thread (piscina calls the default export with one task at a time).
import type { BlobSymbols } from '@gitdex/contracts';
import { extractSymbols, type OccurrenceSelection } from './extract';
import { packSymbols, type PackedBlobSymbols } from './packed';
import { SYMBOL_EXTRACTOR_VERSION } from './version';

export interface ExtractTask {
  content: string;
  path: string;
  language: string | null;
  maxBytes: number;
  timeoutMs: number;
  occurrences: OccurrenceSelection;
}

export default async function extract(task: ExtractTask): Promise<PackedBlobSymbols> {
  return packSymbols(await extractIn(task));
}

async function extractIn(task: ExtractTask): Promise<BlobSymbols> {
  try {
    return await extractSymbols(task.content, task.path, task.language, { maxBytes: task.maxBytes, timeoutMs: task.timeoutMs }, task.occurrences);
  } catch (error) {
    // A parser or query error on this blob is its outcome, not the pool's failure.
    const message = error instanceof Error ? error.message : String(error);
    return { extractor: SYMBOL_EXTRACTOR_VERSION, language: task.language, status: 'failed', reason: `parser error: ${message.slice(0, 200)}`, definitions: [], occurrences: [] };
  }
}
