import { z } from 'zod';
import { decodeOpaqueCursor, encodeOpaqueCursor } from '../opaque-cursor';

/**
 * The position in a listing, opaque to callers: base64url of JSON. It pins the listing
 * to the generation its first page read, so later pages list the same commit even after
 * a push, for as long as the index keeps that generation's documents.
 */
const ListCursorSchema = z.object({
  v: z.literal(1),
  /** repository id, full ref, folder and depth of the listing */
  r: z.number().int().positive(),
  ref: z.string().min(1),
  f: z.string(),
  d: z.number().int().positive(),
  /** generation, commit and indexed-at time of the snapshot listed */
  g: z.number().int().nonnegative(),
  c: z.string(),
  t: z.string().nullable(),
  /** phase (folders, then files) and the last path returned */
  p: z.enum(['folders', 'files']),
  a: z.string(),
  /** entries returned so far */
  o: z.number().int().nonnegative(),
  /** files under the folder at any depth when the listing started: a smaller number later means pruned documents */
  n: z.number().int().nonnegative(),
});
export type ListCursor = z.infer<typeof ListCursorSchema>;

export function encodeCursor(cursor: ListCursor): string {
  return encodeOpaqueCursor(cursor);
}

export function decodeCursor(text: string): ListCursor {
  return decodeOpaqueCursor(ListCursorSchema, text);
}
