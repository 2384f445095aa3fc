import { isUtf8 } from 'node:buffer';
import type { TextEncoding } from '@gitdex/contracts';

/** A file's bytes read as text, or found to be binary. */
export type DecodedContent =
  { binary: false; encoding: TextEncoding; bom: boolean; text: string; /** `text` as UTF-8 (after a UTF-8 BOM) is exactly the bytes. */ utf8Exact: boolean } | { binary: true };

const UTF8_BOM = [0xef, 0xbb, 0xbf];
/** Bytes no text file in a single-byte encoding holds: C0 controls but \t \n \v \f \r and ESC. */
const CONTROL = new Uint8Array(256);
for (const byte of [0, 1, 2, 3, 4, 5, 6, 7, 8, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 28, 29, 30, 31]) CONTROL[byte] = 1;

function startsWith(bytes: Buffer, prefix: readonly number[]): boolean {
  return prefix.every((byte, i) => bytes[i] === byte);
}

function decodeStrict(encoding: 'utf-16le' | 'utf-16be', bytes: Buffer): string | null {
  try {
    return new TextDecoder(encoding, { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return null;
  }
}

/**
 * Which text a file holds (docs/reader.md, "Bytes and encodings"), in this order:
 * a byte-order mark (UTF-8, UTF-16LE, UTF-16BE) decides; then a NUL byte in the first
 * 8,000 bytes means binary (git's heuristic); valid UTF-8 is UTF-8; anything else is read
 * as Windows-1252 (a superset of Latin-1's printable characters, as browsers do) unless it
 * holds control bytes no text has, which makes it binary.
 */
export function decodeContent(bytes: Buffer): DecodedContent {
  if (startsWith(bytes, UTF8_BOM) && isUtf8(bytes.subarray(3))) {
    return { binary: false, encoding: 'utf-8', bom: true, text: bytes.subarray(3).toString('utf8'), utf8Exact: true };
  }
  for (const [encoding, mark] of [
    ['utf-16le', [0xff, 0xfe]],
    ['utf-16be', [0xfe, 0xff]],
  ] as const) {
    if (!startsWith(bytes, mark) || bytes.length % 2 !== 0) continue;
    const text = decodeStrict(encoding, bytes);
    if (text !== null && !text.includes('\u0000')) return { binary: false, encoding, bom: true, text, utf8Exact: false };
  }
  if (bytes.subarray(0, 8000).includes(0)) return { binary: true };
  if (isUtf8(bytes)) return { binary: false, encoding: 'utf-8', bom: false, text: bytes.toString('utf8'), utf8Exact: true };
  for (const byte of bytes) if (CONTROL[byte] === 1) return { binary: true };
  return { binary: false, encoding: 'windows-1252', bom: false, text: new TextDecoder('windows-1252').decode(bytes), utf8Exact: false };
}
