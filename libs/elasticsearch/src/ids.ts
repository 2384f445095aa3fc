import { createHash } from 'node:crypto';

const sha1 = (text: string): string => createHash('sha1').update(text).digest('hex');

/**
 * Deterministic id of one file version, identical to the SQLite adapter's (this belongs in
 * @gitdex/contracts; duplicated until it moves). Re-writing a version overwrites it.
 */
export function fileDocumentId(repositoryId: number, ref: string, path: string, fromGeneration: number): string {
  return sha1(`${repositoryId}\0${ref}\0${path}\0${fromGeneration}`);
}

export function repositoryDocumentId(repositoryId: number): string {
  return `repository:${repositoryId}`;
}

/** Refs can be long and hold any character: hashed to stay within the 512-byte id limit. */
export function refStateDocumentId(repositoryId: number, ref: string): string {
  return `ref:${sha1(`${repositoryId}\0${ref}`)}`;
}
