import { createHash } from 'node:crypto';
import type { SymbolDefinition } from '@gitdex/contracts';
import type { BulkOperation } from './bulk-body';

/**
 * One document per (blob, definition name) in the blobs index (docs/design/symbols-storage.md):
 * `find_symbol` selects a name's documents and reads their definitions from doc values, so a
 * frequent name costs its own definitions, never the rest of each blob's outline.
 *
 * The blob's symbols document carries `symbolLayout: SYMBOL_LAYOUT` once its name documents are
 * written; a symbols document without it was written by the previous layout (outline only), which
 * reads still answer from until the symbol migration (symbol-migration.ts) has given it its name
 * documents.
 */
export const SYMBOL_LAYOUT = 2;

/** A name document's fields (mappings.ts). */
export interface NameDocument {
  repositoryId: number;
  blobSha: string;
  definedName: string;
  /** The blob's definitions of this name without their `name`, as JSON in base64 (a binary field with doc values). */
  nameDefinitions: string;
}

/**
 * The id of a blob's name document: a digest of the name, so any name (up to a signature's
 * worth of characters, with dots or stars) makes an id of fixed length.
 */
export function nameDocumentId(repositoryId: number, blobSha: string, name: string): string {
  return `${repositoryId}:${blobSha}:name:${createHash('sha1').update(name).digest('base64url')}`;
}

/** A definition as a name document holds it: without its name, with its place in the blob's outline. */
type StoredDefinition = Omit<SymbolDefinition, 'name'> & { at: number };

/** The blob's name documents, one per distinct definition name, definitions in file order. */
export function nameDocuments(repositoryId: number, blobSha: string, definitions: readonly SymbolDefinition[]): { id: string; document: NameDocument }[] {
  const byName = new Map<string, StoredDefinition[]>();
  definitions.forEach(({ name, ...rest }, at) => {
    const list = byName.get(name);
    if (list) list.push({ ...rest, at });
    else byName.set(name, [{ ...rest, at }]);
  });
  return [...byName].map(([name, list]) => ({
    id: nameDocumentId(repositoryId, blobSha, name),
    document: { repositoryId, blobSha, definedName: name, nameDefinitions: Buffer.from(JSON.stringify(list)).toString('base64') },
  }));
}

/** The definitions a name document holds (doc values answer them in base64), each with its place in the blob's outline. */
export function definitionsOfName(name: string, encoded: string): { at: number; definition: SymbolDefinition }[] {
  const list = JSON.parse(Buffer.from(encoded, 'base64').toString('utf8')) as StoredDefinition[];
  return list.map(({ at, ...rest }) => ({ at, definition: { name, ...rest } }));
}

/** Deletes of the name documents of `names` (a missing one is no failure). */
export function nameDeletes(repositoryId: number, blobSha: string, names: Iterable<string>): BulkOperation[] {
  return [...names].map((name) => ({ action: 'delete' as const, id: nameDocumentId(repositoryId, blobSha, name) }));
}
