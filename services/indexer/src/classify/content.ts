import { isUtf8 } from 'node:buffer';

/**
 * Git's own heuristic: a NUL byte in the first 8,000 bytes means binary. Invalid UTF-8
 * counts too. `isUtf8` validates in place: decoding to a string just to throw it away
 * cost a whole extra pass and allocation per file.
 */
export function isBinary(content: Buffer): boolean {
  const head = content.subarray(0, 8000);
  if (head.includes(0)) return true;
  return !isUtf8(content);
}

/** Lines as an editor counts them: a trailing newline does not start another line. */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let lines = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines += 1;
  return text.endsWith('\n') ? lines - 1 : lines;
}
