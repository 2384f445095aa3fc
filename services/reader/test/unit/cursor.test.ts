import { decodeCursor, encodeCursor, type ListCursor } from '../../src/list/cursor';
import { ToolError } from '../../src/tool-error';

const cursor: ListCursor = { v: 1, r: 7, ref: 'refs/heads/main', f: 'src/ünï', d: 2, g: 3, c: 'a'.repeat(40), t: '2025-01-01T00:00:00.000Z', p: 'files', a: 'src/ünï/x.ts', o: 300, n: 9000 };

test('round-trips through opaque URL-safe text', () => {
  const text = encodeCursor(cursor);
  expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
  expect(decodeCursor(text)).toEqual(cursor);
});

test.each([
  ['not base64', 'a b c'],
  ['not JSON', Buffer.from('{oops').toString('base64url')],
  ['wrong shape', Buffer.from(JSON.stringify({ v: 1, r: 'x' })).toString('base64url')],
  ['another version', encodeCursor({ ...cursor, v: 2 } as unknown as ListCursor)],
])('refuses a cursor that is %s, saying what to do', (_why, text) => {
  expect(() => decodeCursor(text)).toThrow(ToolError);
  expect(() => decodeCursor(text)).toThrow(/pass next_cursor exactly as the previous page gave it/);
});
