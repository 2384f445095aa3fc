import type { FileDocument } from '@gitdex/contracts';
import { invalid } from '../tool-error';

/** One byte-addressed page of a file. */
export interface ByteWindow {
  content: string;
  encoding: 'text' | 'base64';
  offset: number;
  /** Bytes of the file the content holds. */
  bytes: number;
  /** Where the next page starts, or null when this one reached the end. */
  nextOffset: number | null;
}

const isContinuation = (byte: number | undefined) => byte !== undefined && (byte & 0xc0) === 0x80;

/**
 * Bytes offset..offset+max of a file, as base64 or as text in the file's encoding. A text
 * page never splits a character: it ends before a character the limit would cut (or, when
 * even the first character is longer than the limit, after it), and an offset inside a
 * character is refused with the offsets around it. So text pages read in a row, from 0 or
 * from any next_offset, decode to exactly the file's text.
 */
export function byteWindow(file: FileDocument, bytes: Buffer, offset: number, max: number, encoding: 'text' | 'base64'): ByteWindow {
  const size = bytes.length;
  const start = Math.min(offset, size);
  let end = Math.min(size, start + max);
  if (encoding === 'base64') return page(bytes.subarray(start, end).toString('base64'), encoding, start, end, size);
  const fileEncoding = file.encoding ?? (file.content !== null ? 'utf-8' : null);
  if (fileEncoding === null) {
    throw invalid(`${file.path} is binary: read its bytes with encoding "base64" (offset ${offset}), or open its URL`);
  }
  if (fileEncoding === 'utf-8') {
    if (start < size && isContinuation(bytes[start])) {
      let before = start;
      while (before > 0 && isContinuation(bytes[before])) before -= 1;
      let after = start;
      while (after < size && isContinuation(bytes[after])) after += 1;
      throw invalid(`offset ${offset} is inside a UTF-8 character of ${file.path}: start at ${before} or ${after}, or read with encoding "base64"`);
    }
    if (end < size) {
      let cut = end;
      while (cut > start && isContinuation(bytes[cut])) cut -= 1;
      if (cut === start) while (end < size && isContinuation(bytes[end])) end += 1;
      else end = cut;
    }
    return page(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes.subarray(start, end)), encoding, start, end, size);
  }
  if (fileEncoding === 'utf-16le' || fileEncoding === 'utf-16be') {
    if (start % 2 === 1) throw invalid(`offset ${offset} is inside a UTF-16 code unit of ${file.path}: start at ${start - 1} or ${start + 1}, or read with encoding "base64"`);
    end = start + Math.max(2, (end - start) & ~1);
    end = Math.min(end, size);
    // A high surrogate at the end would split a pair: stop before it (or take the pair).
    const high = (at: number) => {
      const unit = fileEncoding === 'utf-16le' ? bytes.readUInt16LE(at) : bytes.readUInt16BE(at);
      return unit >= 0xd800 && unit <= 0xdbff;
    };
    if (end < size && end - start >= 2 && high(end - 2)) end = end - start > 2 ? end - 2 : Math.min(size, end + 2);
    return page(new TextDecoder(fileEncoding, { ignoreBOM: true }).decode(bytes.subarray(start, end)), encoding, start, end, size);
  }
  return page(new TextDecoder(fileEncoding).decode(bytes.subarray(start, end)), encoding, start, end, size);
}

function page(content: string, encoding: 'text' | 'base64', start: number, end: number, size: number): ByteWindow {
  return { content, encoding, offset: start, bytes: end - start, nextOffset: end < size ? end : null };
}
