import type { BlobSymbols } from '@gitdex/contracts';
import { definitionsOf } from './definitions';
import { grammarFor } from './grammars';
import { blankListedConditionals } from './listed-conditionals';
import { blankLoneMacros } from './lone-macros';
import { occurrencesOf } from './occurrences';
import { loadGrammar, sharedParser } from './runtime';
import { SYMBOL_EXTRACTOR_VERSION } from './version';

export interface ExtractLimits {
  /** Larger blobs are skipped (status skipped, reason "too large"), in UTF-8 bytes. */
  readonly maxBytes: number;
  /** A parse and query running longer stop (status failed, reason "timeout"). */
  readonly timeoutMs: number;
  /** Milliseconds of a monotonic clock; injected by tests. */
  readonly now?: () => number;
}

/**
 * 1 MiB: hand-written source files are far smaller (the largest file of the Go, Python and Java
 * standard libraries is about 600 KB), and generated ones above it are not worth an outline.
 */
export const DEFAULT_MAX_BYTES = 1024 * 1024;
/**
 * Wall time, so it must cover a busy machine: the largest file under maxBytes takes well under a
 * second of CPU (extraction runs at 1.5 to 2 MB a CPU second, docs/design/symbols.md), but on a loaded host
 * the wall time was 2 to 4 times the CPU time. A stall still costs a worker only this long.
 */
export const DEFAULT_TIMEOUT_MS = 5_000;

/**
 * A line this long is minified or generated code (hand-written lines stay under a few hundred
 * characters): its outline is noise, and it costs seconds per megabyte of parsing.
 */
export const MAX_LINE_CHARS = 10_000;

function longestLine(content: string): number {
  let longest = 0;
  let start = 0;
  for (;;) {
    const newline = content.indexOf('\n', start);
    const end = newline === -1 ? content.length : newline;
    if (end - start > longest) longest = end - start;
    if (newline === -1) return longest;
    start = newline + 1;
  }
}

/**
 * Which occurrences extraction walks the tree for: every identifier ('all'), none (the index
 * stores definitions only: the walk and the occurrences' storage were a third of a full index's
 * cost, docs/design/symbols-storage.md), or only those of one name (find_references at query time).
 */
export type OccurrenceSelection = 'all' | 'none' | { readonly name: string };

const DEFAULT_LIMITS: ExtractLimits = { maxBytes: DEFAULT_MAX_BYTES, timeoutMs: DEFAULT_TIMEOUT_MS };

const outcome = (language: string | null, status: 'skipped' | 'failed', reason: string): BlobSymbols => ({
  extractor: SYMBOL_EXTRACTOR_VERSION,
  language,
  status,
  reason,
  definitions: [],
  occurrences: [],
});

class Timeout extends Error {}

/**
 * The symbols of one blob, a function of its content and language (the path only tells TSX from
 * TypeScript and a C++ header from C). Runs in the calling thread: callers that must survive
 * hostile input use createSymbolExtractor, whose workers can be stopped.
 */
export async function extractSymbols(content: string, path: string, language: string | null, limits: ExtractLimits = DEFAULT_LIMITS, occurrences: OccurrenceSelection = 'all'): Promise<BlobSymbols> {
  const grammar = grammarFor(language, path);
  if (!grammar) return outcome(language, 'skipped', 'no grammar');
  const bytes = Buffer.byteLength(content, 'utf8');
  if (bytes > limits.maxBytes) return outcome(language, 'skipped', `too large (${bytes} bytes, limit ${limits.maxBytes})`);
  const longest = longestLine(content);
  if (longest > MAX_LINE_CHARS) return outcome(language, 'skipped', `minified or generated (a line of ${longest} characters)`);
  const loaded = await loadGrammar(grammar);
  const now = limits.now ?? (() => performance.now());
  const deadline = now() + limits.timeoutMs;
  const late = () => now() > deadline;
  const parser = sharedParser();
  parser.setLanguage(loaded.language);
  // web-tree-sitter's types say void, but a progress callback returning true cancels the parse.
  const progressCallback = late as unknown as () => void;
  // C and C++: a macro alone on its line would be read as part of the next declaration, an
  // `#if` inside an initializer list as an error.
  const parsed = grammar.id === 'c' || grammar.id === 'cpp' ? blankListedConditionals(blankLoneMacros(content)) : content;
  const tree = parser.parse(parsed, null, { progressCallback });
  if (!tree) return outcome(language, 'failed', `timeout (parsing took over ${limits.timeoutMs} ms)`);
  try {
    const matches = loaded.query.matches(tree.rootNode, { progressCallback });
    if (late()) throw new Timeout();
    const { definitions, nameStarts } = definitionsOf(matches, loaded.ownFrom, content);
    const found = occurrences === 'none' ? [] : occurrencesOf(tree.rootNode, content, nameStarts, occurrences === 'all' ? null : occurrences.name);
    if (late()) throw new Timeout();
    return { extractor: SYMBOL_EXTRACTOR_VERSION, language, status: 'parsed', definitions, occurrences: found };
  } catch (error) {
    if (error instanceof Timeout) return outcome(language, 'failed', `timeout (over ${limits.timeoutMs} ms)`);
    throw error;
  } finally {
    tree.delete();
  }
}
