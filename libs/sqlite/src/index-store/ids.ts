import { createHash } from 'node:crypto';

/**
 * Deterministic id of one file version: the same (repository, ref, path, fromGeneration)
 * always lands on the same row, so every write is idempotent. The Elasticsearch adapter
 * computes the very same id (this belongs in @gitdex/contracts; duplicated until it moves).
 */
export function fileDocumentId(repositoryId: number, ref: string, path: string, fromGeneration: number): string {
  return createHash('sha1').update(`${repositoryId}\0${ref}\0${path}\0${fromGeneration}`).digest('hex');
}
