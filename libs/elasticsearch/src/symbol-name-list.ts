import { createHash } from 'node:crypto';
import type { estypes } from '@elastic/elasticsearch';
import { bulkWrite, type BulkContext, type BulkOperation } from './bulk';
import { deleteMatching } from './scan';
import { createSmallIndices, onceReady } from './small-index';

type Query = estypes.QueryDslQueryContainer;

/**
 * Each repository's distinct definition names, for "did you mean" (docs/design/symbols-storage.md,
 * "Did you mean"): one small document per repository and name in `${prefix}-symbol-names`, with the
 * name's lower case as a keyword (equal, prefix) and as its trigrams in order (`grams`), so a piece
 * of the asked name is a phrase query over a few postings instead of a Levenshtein automaton or a
 * leading wildcard walking every term of the blobs index.
 * A name is listed with the first blob of its repository that this process sees defining it
 * (`blobSha`), in the same writes as the blob's name documents, and is never removed but with its
 * repository: a candidate is offered only once a visible file of the caller's snapshots defines
 * it, so a name whose blobs are gone is read and dropped, never shown. Its listed blob, when a
 * visible file still holds it, shows that in one search; when not, the name documents of the
 * blobs index name the others (symbol-reads.ts).
 */

/**
 * The list's mapping: one shard (createSmallIndices), the lower case's trigrams in order as words
 * of the `whitespace` analyzer (the engine the tests run on has no `ngram` tokenizer; the content
 * index's trigrams are made in TypeScript the same way), kept out of _source.
 */
const LIST_MAPPINGS: estypes.MappingTypeMapping = {
  dynamic: 'strict',
  _source: { excludes: ['grams'] },
  properties: {
    repositoryId: { type: 'long' },
    name: { type: 'keyword' },
    lower: { type: 'keyword' },
    // Norms kept: of two names sharing a trigram, the shorter ranks first (symbol-name-candidates.ts).
    grams: { type: 'text', analyzer: 'whitespace' },
    length: { type: 'integer' },
    // Read from doc values, never searched.
    blobSha: { type: 'keyword', index: false },
  },
};

/** Stands for white space inside a name (`operator bool`), so that no trigram is split by the analyzer. */
const SPACE = '\u2420';

/** The trigrams of a lower-case name or piece of one, in order, one word each: a phrase of them is the text they came from. */
export function gramsOf(lower: string): string {
  const chars = Array.from(lower.replace(/\s/gu, SPACE));
  const grams: string[] = [];
  for (let i = 0; i + 3 <= chars.length; i += 1) grams.push(chars.slice(i, i + 3).join(''));
  return grams.join(' ');
}

/** Names this process remembers as listed before it forgets them all and starts again. */
const REMEMBERED = 200_000;

/** How long a store that found the list incomplete answers from the blobs index before it asks again. */
const RECHECK_MS = 30_000;

/** Symbols documents whose names are not listed yet: written by a previous release, until the symbol migration reaches them. */
export const UNLISTED: Query = { bool: { filter: [{ exists: { field: 'symbolExtractor' } }], must_not: [{ term: { symbolNamesListed: true } }] } };

/**
 * The list of one store: its index, created on first write, and what this process knows of it.
 * Candidates are read from it by symbol-name-candidates.ts.
 */
export class SymbolNameList {
  readonly index: string;
  /** Creates the index (one shard) unless it exists. */
  readonly ready: () => Promise<void>;
  private readonly listed = new Set<string>();
  private complete = false;
  private checkedAt = -Infinity;

  /** `blobs`: the blobs index alias, whose symbols documents say whether their names are listed. */
  constructor(
    private readonly bulk: BulkContext,
    private readonly blobs: string,
  ) {
    this.index = `${bulk.prefix}-symbol-names`;
    this.ready = onceReady(() => createSmallIndices(bulk.client, [{ index: this.index, mappings: LIST_MAPPINGS }], bulk.replicas));
  }

  /** Lists the names each blob defines in its repository (the index first made), remembering them once written. */
  async write(byBlob: Iterable<{ repositoryId: number; blobSha: string; names: Iterable<string> }>): Promise<void> {
    const ops: BulkOperation[] = [];
    const keys = new Set<string>();
    for (const { repositoryId, blobSha, names } of byBlob)
      for (const name of names) {
        const key = listedId(repositoryId, name);
        if (this.listed.has(key) || keys.has(key)) continue;
        const lower = name.toLowerCase();
        keys.add(key);
        ops.push({ action: 'index', id: key, document: { repositoryId, name, lower, grams: gramsOf(lower), length: Array.from(lower).length, blobSha } });
      }
    if (ops.length === 0) return;
    await this.ready();
    await bulkWrite({ ...this.bulk, index: this.index, requireAlias: false, refresh: false }, ops);
    if (this.listed.size + keys.size > REMEMBERED) this.listed.clear();
    for (const key of keys) this.listed.add(key);
  }

  /** Drops a repository's names (it is deleted), here and from what this process remembers. */
  async deleteRepository(repositoryId: number): Promise<void> {
    await this.ready();
    await deleteMatching({ ...this.bulk, index: this.index, requireAlias: false, refresh: false }, { term: { repositoryId } });
    for (const key of this.listed) if (key.startsWith(`${repositoryId}:`)) this.listed.delete(key);
  }

  /** The migration listed every stored name: reads use the list from now on. */
  markComplete(): void {
    this.complete = true;
  }

  /**
   * Whether every symbols document's names are listed, so the list can answer: once true it stays
   * true for this process (this release lists what it writes); otherwise asked again after
   * RECHECK_MS, as the migration of another process may finish meanwhile.
   */
  async isComplete(options: { signal?: AbortSignal }, now = Date.now()): Promise<boolean> {
    if (this.complete || now - this.checkedAt < RECHECK_MS) return this.complete;
    const response = await this.bulk.client.search({ index: this.blobs, size: 0, terminate_after: 1, track_total_hits: true, query: UNLISTED }, options);
    this.checkedAt = now;
    const total = response.hits.total;
    this.complete = (typeof total === 'number' ? total : (total?.value ?? 1)) === 0;
    return this.complete;
  }
}

/** A listed name's id: its repository and a digest of the name, so any name makes an id of fixed length. */
function listedId(repositoryId: number, name: string): string {
  return `${repositoryId}:${createHash('sha1').update(name).digest('base64url')}`;
}
