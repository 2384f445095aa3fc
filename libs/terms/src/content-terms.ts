/**
 * Content terms: what lets an index find the files that may contain a substring. Both
 * sides derive them the same way — from content when it is indexed, from query text when it
 * is planned — so a file that contains a substring always holds every term of it.
 *
 * A text's terms are three kinds, each a function of a few consecutive units only (so a
 * substring's terms are terms of any text that contains it):
 *
 * - **folded trigrams**: every trigram of the folded text;
 * - **hump trigrams**, in their own case: the ASCII trigrams with a lower-case letter right
 *   before an upper-case one (`asE`, `sEr` of `hasError`). Folded trigrams of identifiers
 *   are English fragments every big file holds; the humps are not: `hasError` had 6,629
 *   candidate files among 55,000 by its folded trigrams and 94 with its humps, for 4.4 %
 *   more terms;
 * - **hump grams**, in their own case: printable ASCII units (no space) around a hump, three
 *   from the upper-case letter on and three or four before it (`rseErr` and `arseErr` of
 *   `parseError`). A hump trigram pairs a word's last letter with the next word's first, so
 *   `parentCount` is still `ntC` and `tCo`, which 758 of 55,000 files hold; with its grams
 *   `entCou` and `rentCou`, 13. Over the 60 first-ask words of the benchmark the median of
 *   candidate files went from 18 to 3, the slowest from 758 to 101, for 6 % more terms
 *   (docs/search.md).
 *
 * A case-sensitive search (an upper-case letter in its text) asks for humps and grams too
 * (queryTermCodes). A hump trigram always holds an upper-case ASCII letter and a folded one
 * never does, and a gram is six or seven units long, so no two kinds share a term.
 *
 * Folding (fold.ts) is per UTF-16 unit and context-free. Terms that hold a line break, ASCII white space (space,
 * tab, CR, VT, FF) or half of a surrogate pair are left out: a line-based match never
 * crosses a line, a lone surrogate is not a valid term, and the terms with white space cost
 * the engine much of its indexing time while narrowing only phrase searches, whose words keep
 * their own terms (docs/journal/README.md: "content terms without white space").
 */

import { asciiTrigram, isHumpTrigramCode, SIX_UNIT_GRAM, termOfCode } from './term-codes';
import { TermCollector } from './term-collector';
import { TermWordWriter, type TermWordForm } from './term-words';

/**
 * The collector and word writer behind the functions below, made on first use and reused:
 * their buffers (8 MiB of stamps among them) are what makes a file's terms cheap. Sharing them
 * is safe because every function here is synchronous and copies its answer out before it
 * returns, so no two calls interleave on a thread, and a worker thread loads its own module.
 * A caller that wants buffers of its own makes a TermCollector.
 */
let shared: { collector: TermCollector; words: TermWordWriter } | null = null;

function tools(): { collector: TermCollector; words: TermWordWriter } {
  shared ??= { collector: new TermCollector(), words: new TermWordWriter() };
  return shared;
}

/**
 * The distinct content terms of a text as numbers (trigrams in first-seen order, then hump
 * grams): an all-ASCII trigram is `a << 14 | b << 7 | c` (< 2^21), any other trigram
 * `2^48 + a·2^32 + b·2^16 + c`, a gram its length's base plus its units at 7 bits each (see
 * term-codes.ts; all exact in a double). One code per term, one term per code.
 */
export function contentTermCodes(text: string): number[] {
  const { collector } = tools();
  const count = collector.collect(text);
  const out = new Array<number>(count);
  for (let i = 0; i < count; i += 1) out[i] = collector.codeAt(i);
  return out;
}

/** The distinct content terms of a text as strings, in the order of contentTermCodes. */
export function contentTerms(text: string): string[] {
  const { collector } = tools();
  const count = collector.collect(text);
  const out = new Array<string>(count);
  for (let i = 0; i < count; i += 1) {
    const entry = collector.codes[i] as number;
    out[i] = entry >= 0 ? asciiTrigram(entry) : termOfCode(collector.wideCodes[-1 - entry] as number);
  }
  return out;
}

/**
 * The words of the distinct content terms of a text (see TermWordForm), space-separated, in the
 * order of contentTermCodes: what an index with a plain word tokenizer stores for the text.
 * In the `text` form grams that share a bucket give one word.
 */
export function contentTermWords(text: string, form: TermWordForm = 'digits'): string {
  const { collector, words } = tools();
  return words.write(collector, collector.collect(text), form);
}

/** The terms an index query asks for one substring, by default (queryTermCodes): both adapters ask the same. */
const QUERY_TERMS_PER_SUBSTRING = 24;

function spread<T>(items: T[], most: number): T[] {
  if (items.length <= most) return items;
  if (most <= 1) return items.slice(0, most);
  const step = (items.length - 1) / (most - 1);
  return Array.from({ length: most }, (_, i) => items[Math.round(i * step)] as T);
}

/**
 * The term codes an index query asks for a substring, at most `most`: a spread subset of
 * its content terms is as correct (weaker) and keeps the query small. Give the text as it
 * must occur for a case-sensitive search (its grams and humps, the rare terms, are asked for
 * first: grams up to a quarter of `most`, humps up to half), folded for a case-insensitive
 * one (it has neither).
 */
export function queryTermCodes(text: string, most = QUERY_TERMS_PER_SUBSTRING): number[] {
  const grams: number[] = [];
  const humps: number[] = [];
  const folded: number[] = [];
  for (const code of contentTermCodes(text)) (code >= SIX_UNIT_GRAM ? grams : isHumpTrigramCode(code) ? humps : folded).push(code);
  const keptGrams = spread(grams, Math.min(grams.length, Math.floor(most / 4)));
  const keptHumps = spread(humps, Math.min(humps.length, Math.floor(most / 2)));
  return [...keptGrams, ...keptHumps, ...spread(folded, most - keptGrams.length - keptHumps.length)];
}
