/**
 * A file as xdiff sees it: records (lines, each with its '\n' when it has one) over a byte string
 * (one UTF-16 unit per byte, 'latin1'), so that every comparison, indent and width is counted in
 * bytes exactly as git counts them, whatever the encoding of the file.
 */
export interface Records {
  /** each line's bytes, its terminating '\n' included when present */
  readonly lines: readonly string[];
}

export function bytesToText(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

/** Turns byte text (as bytesToText makes) back into the string a caller reads. */
export function textToUtf8(text: string): string {
  return Buffer.from(text, 'latin1').toString('utf8');
}

export function splitRecords(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  while (start < text.length) {
    const nl = text.indexOf('\n', start);
    const end = nl === -1 ? text.length : nl + 1;
    lines.push(text.slice(start, end));
    start = end;
  }
  return lines;
}

/** git's rule: a NUL in the first 8,000 bytes makes a file binary (xdiff-interface.c, buffer_is_binary). */
export const BINARY_SNIFF_BYTES = 8000;

export function isBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, BINARY_SNIFF_BYTES);
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true;
  return false;
}

/** git's own ctype table (ctype.c): only tab, newline, carriage return and space are space. */
export function isGitSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}
