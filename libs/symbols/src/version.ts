/**
 * The `extractor` field of every BlobSymbols. Raise it when the definitions or occurrences that
 * extraction yields for the same content change (a grammar upgrade, a query, a kind mapping), so
 * that storage parses blobs of an older version again.
 */
export const SYMBOL_EXTRACTOR_VERSION = 5;
