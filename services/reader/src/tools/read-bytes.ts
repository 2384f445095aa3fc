import { storedBytes, type FileDocument, type ReadFileOutput } from '@gitdex/contracts';
import type { ReaderDeps } from '../deps';
import { shortRef, shortSha } from '../freshness';
import { formatBytes, formatNumber, resultChars } from '../format/text';
import { fileFields } from './file-fields';
import { blobUrl, treeUrl } from '../github-links';
import { byteWindow } from '../read/byte-window';
import { perObject } from '../per-object';
import type { Target } from '../target';
import { invalid } from '../tool-error';
import { pendingLine, type ToolAnswer } from './answer';

/** The exact bytes of a file version, decoded from the index once per document. */
const bytesOf = perObject((file: FileDocument): Buffer | null => {
  if (file.kind === 'symlink') return Buffer.from(file.target ?? file.content ?? '', 'utf8');
  return storedBytes(file);
});

export interface ByteRequest {
  offset: number;
  maxBytes: number;
  encoding: 'text' | 'base64';
}

/**
 * read_file by bytes: at most max_bytes of the file from offset, as text in the file's
 * encoding or as base64, fewer when the result budget is reached, with the offset to read
 * on from. Byte pages read in a row give back exactly the file's bytes.
 */
export function readBytes(deps: ReaderDeps, target: Target, file: FileDocument, request: ByteRequest): ToolAnswer<ReadFileOutput> {
  const { repository, freshness } = target;
  const commit = target.state.commitSha;
  if (file.kind === 'submodule') {
    throw invalid(
      `${file.path} is a submodule: it points at commit ${file.target ?? 'unknown'} of another repository and has no bytes here; open ${treeUrl(deps.githubWebUrl, repository.fullName, commit, file.path)}`,
    );
  }
  const bytes = bytesOf(file);
  if (bytes === null) {
    const why = file.flags.tooLarge ? `too large to index (${formatBytes(file.size)}): listed, but its content is not stored` : 'its content is not stored';
    throw invalid(`${file.path} is ${why}; open ${blobUrl(deps.githubWebUrl, repository.fullName, commit, file.path)} to view it`);
  }
  const url = blobUrl(deps.githubWebUrl, repository.fullName, commit, file.path);
  const header = `${repository.fullName} ${file.path} at ${shortRef(target.state.ref)} (${shortSha(commit)})`;
  let max = request.maxBytes;
  for (;;) {
    const window = byteWindow(file, bytes, request.offset, max, request.encoding);
    const structured: ReadFileOutput = {
      ...fileFields(target, file),
      ...(window.nextOffset !== null && window.bytes < request.maxBytes && window.offset + request.maxBytes < bytes.length
        ? { note: `fewer bytes than max_bytes (${formatNumber(request.maxBytes)}) fit in one result; read on from next_offset.` }
        : {}),
      content: window.content,
      start_line: 0,
      end_line: 0,
      total_lines: file.lineCount ?? 0,
      complete: window.offset === 0 && window.nextOffset === null,
      truncated: window.nextOffset !== null,
      cut_line: null,
      next_start_line: null,
      url,
      freshness,
      file_encoding: file.kind === 'symlink' ? 'utf-8' : (file.encoding ?? (file.content !== null ? 'utf-8' : null)),
      ...(file.bom ? { bom: true as const } : {}),
      content_encoding: window.encoding,
      offset: window.offset,
      bytes: window.bytes,
      next_offset: window.nextOffset,
    };
    const range =
      window.bytes === 0
        ? `no bytes (offset ${formatNumber(window.offset)} of ${formatNumber(bytes.length)})`
        : `bytes ${formatNumber(window.offset)}-${formatNumber(window.offset + window.bytes - 1)} of ${formatNumber(bytes.length)}`;
    const footer = window.nextOffset !== null ? `[${formatNumber(bytes.length - window.nextOffset)} more bytes: read on with offset ${window.nextOffset}]` : '[end of file]';
    const as = window.encoding === 'base64' ? 'base64' : `${structured.file_encoding} text`;
    const noteLine = structured.note ? `\nNote: ${structured.note}` : '';
    const text = `${header}, ${range} (${as})\n${url}${noteLine}${pendingLine(freshness)}\n\n${window.content}\n${footer}`;
    const chars = resultChars(text, structured);
    if (chars <= deps.limits.maxResultChars || max <= 64) return { structured, text };
    // The content is in the result twice, and a byte may take up to 6 characters of JSON: shrink in proportion until it fits.
    max = Math.max(64, Math.min(max - 1, Math.floor((window.bytes * deps.limits.maxResultChars * 0.95) / chars)));
  }
}
