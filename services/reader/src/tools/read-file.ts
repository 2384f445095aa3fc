import { posix } from 'node:path';
import type { FileDocument, ReadFileInput, ReadFileOutput } from '@gitdex/contracts';
import { locate } from '../address/locate';
import type { Principal, ReaderDeps } from '../deps';
import { shortRef, shortSha } from '../freshness';
import { formatBytes, formatNumber, resultChars } from '../format/text';
import { fileFields } from './file-fields';
import { blobUrl, treeUrl } from '../github-links';
import { pathNotFound } from '../not-found';
import { textOf } from '../read/file-text';
import { numberLines, sliceLines, type LineSlice } from '../read/line-slice';
import { lookupByName, type Target } from '../target';
import { invalid } from '../tool-error';
import { pendingLine, type ToolAnswer } from './answer';
import { readBytes, type ByteRequest } from './read-bytes';
import { parseGithubUrl } from '../address/github-url';
import { resolvePublishedUrl, unknownPublishedUrl } from '../address/published-url';
import { parseFrontMatter } from '../read/front-matter';

/** A folder is any path that has files under it, at any depth. */
const ANY_DEPTH = 10_000;

/**
 * read_file: numbered lines of a file at the indexed commit, within the line and
 * character limits, with where to read on. Files without readable text (binary, too
 * large, symlink, submodule) are described, never dumped.
 */
export async function readFile(deps: ReaderDeps, principal: Principal | null, input: ReadFileInput): Promise<ToolAnswer<ReadFileOutput>> {
  if (input.start_line !== undefined && input.end_line !== undefined && input.end_line < input.start_line) {
    throw invalid(
      `end_line (${input.end_line}) is before start_line (${input.start_line}): give an end_line of at least ${input.start_line}, or leave end_line out to read as far as the limits allow`,
    );
  }
  const bytes = byteRequest(deps, input);
  const published = await publishedDocument(deps, principal, input);
  const repositoryInput = published?.repository ?? input.repository;
  if (repositoryInput === undefined)
    throw invalid('repository: give the repository as "owner/name" or its GitHub URL (it may be left out only when path is the published URL of a document of a configured site)');
  const located = await locate(deps, principal, { repository: repositoryInput, path: published?.path ?? input.path, ref: input.ref }, 'file');
  const { target, path } = located;
  if (path === '') throw invalid('path: give a file path, e.g. "README.md"; to see the root, use list_files or repository_overview');
  if (bytes !== null && located.startLine !== undefined)
    throw invalid('the URL names lines (#L…) and offset/max_bytes/encoding ask for bytes: read by lines or by bytes, not both (drop the #L part of the URL for a byte read)');
  const start = input.start_line ?? located.startLine;
  const end = input.end_line ?? (input.start_line === undefined ? located.endLine : undefined);
  if (start !== undefined && end !== undefined && end < start) throw invalid(`the URL's line range ends (${end}) before it starts (${start}); pass start_line and end_line instead`);

  const file = located.file !== undefined ? located.file : await deps.index.getFile(target.snapshot, path);
  if (!file) {
    const folder = await deps.index.listFiles({ ...target.snapshot, folder: path, depth: ANY_DEPTH }, null, 1);
    if (folder.total > 0) {
      throw invalid(`${path} is a folder (${formatNumber(folder.total)} files under it), not a file: list it with list_files (folder "${path}")`);
    }
    throw await pathNotFound(deps, principal, target, path, 'file');
  }
  if (bytes !== null) return readBytes(deps, target, file, bytes);
  if (published && file.content !== null) {
    const text = textOf(file);
    const front = parseFrontMatter((n) => text.lines.line(n), text.lines.count);
    const body = start ?? front?.bodyStartLine;
    const result = answer(deps, target, file, body, end);
    const { bodyStartLine, ...fields } = front ?? { bodyStartLine: 1, fields: {} };
    result.structured = { ...result.structured, published_url: input.path, ...(front ? { front_matter: { ...fields, body_start_line: bodyStartLine } } : {}) };
    const about = front ? [front.title && `Title: ${front.title}`, front.date && `Date: ${front.date}`, front.tags && `Tags: ${front.tags.join(', ')}`].filter(Boolean).join('\n') : '';
    result.text = `Published at ${input.path}${about ? `\n${about}` : ''}\n${result.text}`;
    return result;
  }
  return answer(deps, target, file, start, end);
}

/** GitHub's own hosts: their URLs are GitHub URLs (locate explains a malformed one). */
function isGithubHost(deps: ReaderDeps, raw: string): boolean {
  try {
    const host = new URL(raw).host.toLowerCase();
    return host === new URL(deps.githubWebUrl).host.toLowerCase() || host === 'raw.githubusercontent.com' || host === 'github.com' || host.endsWith('.github.com');
  } catch {
    return false;
  }
}

/** The repository and path of a published document's URL; null when path is no such URL. */
async function publishedDocument(deps: ReaderDeps, principal: Principal | null, input: ReadFileInput): Promise<{ repository: string; path: string } | null> {
  const raw = input.path.trim();
  if (!/^https?:\/\//i.test(raw) || parseGithubUrl(raw, deps.githubWebUrl) !== null || isGithubHost(deps, raw)) return null;
  const hit = resolvePublishedUrl(deps.sites, raw);
  if (!hit || (input.repository === undefined && !(await readableSite(deps, principal, hit.repository)))) throw await unknownPublishedUrl(deps, principal, raw);
  if (input.repository !== undefined && input.repository.toLowerCase() !== hit.repository.toLowerCase()) {
    // The site's repository is not named: it may be private, and the caller passed another.
    throw invalid(`path: ${raw} is published from another repository than ${input.repository}; leave repository out`);
  }
  return { repository: hit.repository, path: hit.path };
}

/**
 * Whether the caller may read a site's repository. A page of a site it may not read (or whose
 * repository is not indexed) answers like a URL of no site: the answer would otherwise name
 * the repository, which the caller did not.
 */
async function readableSite(deps: ReaderDeps, principal: Principal | null, name: string): Promise<boolean> {
  const repository = await lookupByName(deps, name);
  return repository !== null && deps.access(repository, principal);
}

/** A byte read when offset, max_bytes or encoding is given; never mixed with line numbers. */
function byteRequest(deps: ReaderDeps, input: ReadFileInput): ByteRequest | null {
  if (input.offset === undefined && input.max_bytes === undefined && input.encoding === undefined) return null;
  if (input.start_line !== undefined || input.end_line !== undefined) {
    throw invalid('start_line/end_line read lines, offset/max_bytes/encoding read bytes: give one or the other in a call (lines are the default)');
  }
  if (input.max_bytes !== undefined && input.max_bytes > deps.limits.maxBytes) {
    throw invalid(`max_bytes: at most ${formatNumber(deps.limits.maxBytes)} bytes a call (got ${formatNumber(input.max_bytes)}); read on with next_offset`);
  }
  return { offset: input.offset ?? 0, maxBytes: input.max_bytes ?? deps.limits.defaultBytes, encoding: input.encoding ?? 'text' };
}

function answer(deps: ReaderDeps, target: Target, file: FileDocument, start: number | undefined, end: number | undefined): ToolAnswer<ReadFileOutput> {
  const { repository, freshness } = target;
  const commit = target.state.commitSha;
  const base: Omit<ReadFileOutput, 'content' | 'start_line' | 'end_line' | 'total_lines' | 'complete' | 'truncated' | 'cut_line' | 'next_start_line' | 'url'> = {
    ...fileFields(target, file),
    freshness,
    ...(file.kind === 'file' ? { file_encoding: file.encoding ?? (file.content !== null ? 'utf-8' : null) } : {}),
    ...(file.bom ? { bom: true as const } : {}),
  };
  const header = `${repository.fullName} ${file.path} at ${shortRef(target.state.ref)} (${shortSha(commit)})`;
  const opaque = describeOpaque(file);
  if (opaque !== null) {
    const url = file.kind === 'submodule' ? treeUrl(deps.githubWebUrl, repository.fullName, commit, file.path) : blobUrl(deps.githubWebUrl, repository.fullName, commit, file.path);
    const structured: ReadFileOutput = {
      ...base,
      note: opaque,
      content: '',
      start_line: 0,
      end_line: 0,
      total_lines: file.lineCount ?? 0,
      complete: true,
      truncated: false,
      cut_line: null,
      next_start_line: null,
      url,
    };
    return { structured, text: `${header}\n${opaque}\n${url}${pendingLine(freshness)}` };
  }

  const text = textOf(file);
  let maxChars = deps.limits.maxChars;
  // Text whose JSON form is much longer than itself (control characters, quotes) gets fewer lines.
  for (;;) {
    const slice = sliceLines(text.lines, { ...(start !== undefined ? { start } : {}), ...(end !== undefined ? { end } : {}), maxLines: deps.limits.maxLines, maxChars });
    const result = textAnswer(deps, target, file, base, header, slice);
    if (fits(result, text.jsonAtMostDouble, deps.limits.maxResultChars) || maxChars < 500) return result;
    maxChars = Math.floor(maxChars / 2);
  }
}

/**
 * Whether an answer is within the result budget. Serializing it to find out would cost
 * more than the rest of the read, so a bound comes first: the answer with its content left
 * out, plus the content at two characters of JSON each when its text allows that.
 */
function fits(result: ToolAnswer<ReadFileOutput>, jsonAtMostDouble: boolean, budget: number): boolean {
  const { text, structured } = result;
  if (jsonAtMostDouble && text.length + JSON.stringify({ ...structured, content: '' }).length + 2 * structured.content.length <= budget) return true;
  return resultChars(text, structured) <= budget;
}

function textAnswer(
  deps: ReaderDeps,
  target: Target,
  file: FileDocument,
  base: Omit<ReadFileOutput, 'content' | 'start_line' | 'end_line' | 'total_lines' | 'complete' | 'truncated' | 'cut_line' | 'next_start_line' | 'url'>,
  header: string,
  slice: LineSlice,
): ToolAnswer<ReadFileOutput> {
  const url = blobUrl(deps.githubWebUrl, target.repository.fullName, target.state.commitSha, file.path, { start: slice.startLine, end: slice.endLine });
  const notes: string[] = [];
  if (file.flags.vendored) notes.push('vendored: third-party code kept in the repository');
  if (file.flags.generated) notes.push('generated: produced by a tool, edit its source instead');
  if (slice.cutLine !== null)
    notes.push(
      `line ${slice.cutLine} has ${formatNumber(slice.cutLineLength)} characters; only its first ${formatNumber((slice.lines[slice.lines.length - 1] ?? '').length)} are shown (a result holds at most ${formatNumber(deps.limits.maxChars)})`,
    );
  if (slice.totalLines === 0) notes.push('the file is empty');
  if (slice.cutLine !== null) notes.push(`read line ${slice.cutLine} whole by bytes (offset and max_bytes)`);
  if (file.encoding && file.encoding !== 'utf-8') notes.push(`decoded from ${file.encoding}`);
  const structured: ReadFileOutput = {
    ...base,
    ...textOf(file).endings,
    ...(notes.length > 0 ? { note: `${notes.join('; ')}.` } : {}),
    content: slice.lines.join('\n'),
    start_line: slice.startLine,
    end_line: slice.endLine,
    total_lines: slice.totalLines,
    complete: slice.complete,
    truncated: slice.truncated,
    cut_line: slice.cutLine,
    next_start_line: slice.nextStartLine,
    url,
  };
  const range = slice.totalLines === 0 ? 'empty file' : `lines ${slice.startLine}-${slice.endLine} of ${slice.totalLines}`;
  const about = [file.language, formatBytes(file.size), ...(file.flags.vendored ? ['vendored'] : []), ...(file.flags.generated ? ['generated'] : [])].filter(Boolean).join(', ');
  let footer: string;
  if (slice.nextStartLine !== null) {
    const left = slice.totalLines - slice.endLine;
    footer = `[${formatNumber(left)} more line${left === 1 ? '' : 's'}: read on with start_line ${slice.nextStartLine}]`;
  } else footer = slice.totalLines === 0 ? '' : slice.cutLine !== null ? '[end of file; its last line was cut]' : '[end of file]';
  const noteLine = structured.note ? `\nNote: ${structured.note}` : '';
  const text = `${header}, ${range} (${about})\n${url}${noteLine}${pendingLine(target.freshness)}\n\n${numberLines(slice)}${footer ? `\n${footer}` : ''}`;
  return { structured, text };
}

/** What a file without readable text is, or null when its text can be shown. */
function describeOpaque(file: FileDocument): string | null {
  const size = formatBytes(file.size);
  if (file.kind === 'submodule') return `A submodule: it points at commit ${file.target ?? 'unknown'} of another repository; its files are not in this one.`;
  if (file.kind === 'symlink') {
    const target = file.target ?? file.content ?? '';
    const resolved = posix.normalize(posix.join(file.folder, target));
    const inside = !posix.isAbsolute(target) && !resolved.startsWith('..');
    return `A symbolic link to ${target}${inside ? `: read ${resolved} for its content` : ', outside the repository'}.`;
  }
  if (file.flags.tooLarge) return `Too large to index (${size}): listed, but its content is not stored; open the URL to view it.`;
  if (file.flags.binary) {
    const stored = file.contentBase64 !== undefined;
    return `A binary file (${size}${file.language ? `, ${file.language}` : ''}): not shown as lines; ${stored ? 'read its bytes with encoding "base64" (and offset, max_bytes), or open the URL' : 'open the URL to view it'}.`;
  }
  if (file.content === null) return `Its content is not stored (${size}); open the URL to view it.`;
  return null;
}
