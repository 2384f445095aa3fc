import { createHash } from 'node:crypto';
import { z } from 'zod';
import { decodeOpaqueCursor, encodeOpaqueCursor } from '../opaque-cursor';

/**
 * Where a search goes on: which snapshots the first page searched (pinned, like list_files
 * cursors, so later pages read the same commits after a push) and how many files earlier
 * pages showed. `h` ties it to the arguments that decide what matches.
 */
const SearchCursorSchema = z.object({
  v: z.literal(1),
  h: z.string(),
  o: z.number().int().nonnegative(),
  s: z.array(
    z.object({
      r: z.number().int().positive(),
      ref: z.string().min(1),
      g: z.number().int().nonnegative(),
      c: z.string(),
      t: z.string().nullable(),
      /** Files of the snapshot when it was pinned: fewer later means the index pruned it. */
      n: z.number().int().nonnegative(),
    }),
  ),
});
export type SearchCursor = z.infer<typeof SearchCursorSchema>;

export function argumentsHash(args: unknown): string {
  return createHash('sha256').update(JSON.stringify(args)).digest('base64url').slice(0, 16);
}

export function encodeSearchCursor(cursor: SearchCursor): string {
  return encodeOpaqueCursor(cursor);
}

export function decodeSearchCursor(text: string): SearchCursor {
  return decodeOpaqueCursor(SearchCursorSchema, text);
}
