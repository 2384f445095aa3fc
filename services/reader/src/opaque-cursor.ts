import type { z } from 'zod';
import { invalid } from './tool-error';

/** A cursor as the caller sees it: its fields as JSON in base64url, opaque to them. */
export function encodeOpaqueCursor(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

/** The cursor back, checked against its schema; anything else is a caller error that says what to do. */
export function decodeOpaqueCursor<T>(schema: z.ZodType<T>, text: string): T {
  const fail = () => invalid('cursor: not a cursor this server returned; pass next_cursor exactly as the previous page gave it, or leave cursor out to start again');
  if (!/^[A-Za-z0-9_-]+$/.test(text)) throw fail();
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw fail();
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw fail();
  return parsed.data;
}
