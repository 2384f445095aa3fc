import { contentTermWords, type TermWordForm } from '@gitdex/terms';

/**
 * A word every document with content holds (no term's word has 11 units, see TermWordForm in
 * libs/terms): "every file with content" is a term query, also for files too short
 * to have a trigram.
 */
export const HAS_CONTENT_WORD = 'has-content';
/** Printable terms as themselves and grams as their buckets: fewer bytes for the engine than digits (TermWordForm). */
export const WORD_FORM: TermWordForm = 'text';

/**
 * The document as indexed: the FileDocument plus the words of its content terms in their
 * `text` form (a printable term as itself: the analyzer splits only at white space), one text
 * the field's whitespace analyzer splits (not kept in _source). One string, not an array
 * of terms: Elasticsearch parses and inverts it as one field value, which took a bulk of
 * 8,000 files 22 % less time than a keyword per term (docs/search.md).
 */
export function withContentTrigrams<T extends { content?: string | null }>(doc: T): T & { contentTrigrams?: string } {
  // An entry whose content lives in its blob has no `content` at all: its terms are the blob's.
  return typeof doc.content === 'string' ? { ...doc, contentTrigrams: contentTermWordsOf(doc.content) } : doc;
}

function contentTermWordsOf(content: string): string {
  const words = contentTermWords(content, WORD_FORM);
  return words.length > 0 ? `${HAS_CONTENT_WORD} ${words}` : HAS_CONTENT_WORD;
}
