import { createHash } from 'node:crypto';

const sha1 = (text: string): string => createHash('sha1').update(text).digest('hex');

export function repositoryDocumentId(repositoryId: number): string {
  return `repository:${repositoryId}`;
}

/** Refs can be long and hold any character: hashed to stay within the 512-byte id limit. */
export function refStateDocumentId(repositoryId: number, ref: string): string {
  return `ref:${sha1(`${repositoryId}\0${ref}`)}`;
}
