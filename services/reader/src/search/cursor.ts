import { createHash } from 'node:crypto';
import { z } from 'zod';
import { decodeOpaqueCursor, encodeOpaqueCursor } from '../opaque-cursor';

/**
 * Where a search goes on: which snapshots the first page searched (pinned, like list_files
 * cursors, so later pages read the same commits after a push) and how many files earlier
 * pages showed. `h` ties it to the arguments that decide what matches.
 */
const PinnedCursorSchema = z.object({
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
export type PinnedCursor = z.infer<typeof PinnedCursorSchema>;

/**
 * A search too wide for its pins to fit (PINNED_CURSOR_CHARS): the cursor holds a digest of
 * the snapshots instead (pinsDigest), and the next page searches the snapshots served then,
 * if they are still the same ones; if any moved, the cursor has expired.
 */
const DigestCursorSchema = z.object({
  v: z.literal(2),
  h: z.string(),
  o: z.number().int().nonnegative(),
  d: z.string(),
});
export type DigestCursor = z.infer<typeof DigestCursorSchema>;

const SearchCursorSchema = z.union([PinnedCursorSchema, DigestCursorSchema]);
export type SearchCursor = z.infer<typeof SearchCursorSchema>;

/**
 * Longest pinned cursor: the input schema takes 8,192 characters, and a pin costs ~150 (a
 * search of ~50 repositories passed the limit, and its next page could not be asked for).
 */
export const PINNED_CURSOR_CHARS = 6_000;

/** The pins of a search, as a digest: which snapshots (repository, ref, generation, commit) and in which order. */
export function pinsDigest(pins: { r: number; ref: string; g: number; c: string }[]): string {
  return createHash('sha256')
    .update(JSON.stringify(pins.map((p) => [p.r, p.ref, p.g, p.c])))
    .digest('base64url')
    .slice(0, 22);
}

/** The pinned cursor if it fits, else the digest one: bounded whatever the number of repositories. */
export function boundedSearchCursor(cursor: PinnedCursor): string {
  const pinned = encodeOpaqueCursor(cursor);
  if (pinned.length <= PINNED_CURSOR_CHARS) return pinned;
  return encodeOpaqueCursor({ v: 2, h: cursor.h, o: cursor.o, d: pinsDigest(cursor.s) } satisfies DigestCursor);
}

export function argumentsHash(args: unknown): string {
  return createHash('sha256').update(JSON.stringify(args)).digest('base64url').slice(0, 16);
}

export function decodeSearchCursor(text: string): SearchCursor {
  return decodeOpaqueCursor(SearchCursorSchema, text);
}
