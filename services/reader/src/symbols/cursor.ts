import { z } from 'zod';
import { decodeOpaqueCursor, encodeOpaqueCursor } from '../opaque-cursor';
import { argumentsHash, pinsDigest } from '../search/cursor';
import type { Snapshot } from '@gitdex/ports';
import { invalid, ToolError } from '../tool-error';

/**
 * Where a page of find_symbol or find_references goes on: how many results earlier pages
 * showed, a hash of the arguments that decide what is found, and a digest of the snapshots
 * searched. Ranking reads every match, so a page after a push would rank other results: such
 * a cursor has expired and says so rather than skipping or repeating results.
 */
const SymbolCursorSchema = z.object({ k: z.enum(['symbols', 'references']), h: z.string(), o: z.number().int().nonnegative(), d: z.string() });
type SymbolCursor = z.infer<typeof SymbolCursorSchema>;

export interface Paging {
  offset: number;
  next(offset: number): string;
}

function digestOf(snapshots: { snapshot: Snapshot; commit: string }[]): string {
  return pinsDigest(snapshots.map((s) => ({ r: s.snapshot.repositoryId, ref: s.snapshot.ref, g: s.snapshot.generation, c: s.commit })));
}

export function symbolPaging(kind: SymbolCursor['k'], args: unknown[], cursorText: string | undefined, searched: { snapshot: Snapshot; commit: string }[]): Paging {
  const h = argumentsHash(args);
  const d = digestOf(searched);
  let offset = 0;
  if (cursorText !== undefined) {
    const cursor = decodeOpaqueCursor(SymbolCursorSchema, cursorText);
    if (cursor.k !== kind || cursor.h !== h) throw invalid('cursor: it continues a call with other arguments; pass the same arguments as for the first page, or leave cursor out');
    if (cursor.d !== d)
      throw new ToolError('CURSOR_EXPIRED', 'This cursor continues a search of commits the index no longer serves (a push was indexed, or what you may read changed). Start again without cursor.');
    offset = cursor.o;
  }
  return { offset, next: (o) => encodeOpaqueCursor({ k: kind, h, o, d } satisfies SymbolCursor) };
}
