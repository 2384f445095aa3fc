import type { SearchCodeInput, SearchCodeOutput, SearchFile, SearchMatch } from '@gitdex/contracts';
import type { Principal, ReaderDeps } from '../deps';
import { freshnessOf, shortRef, shortSha } from '../freshness';
import { cutText, formatCount } from '../format/text';
import { blobUrl } from '../github-links';
import { findRepository } from '../target';
import { invalid, ToolError } from '../tool-error';
import { argumentsHash, boundedSearchCursor, decodeSearchCursor, pinsDigest, type PinnedCursor } from '../search/cursor';
import { Deadline } from '../search/deadline';
import { searchGateOf } from '../search/gate';
import { compileGlobs } from '../search/globs';
import { lineSpans } from '../search/lines';
import { planQuery } from '../search/plan';
import { compileQuery, type CompiledQuery } from '../search/query';
import { compareRank } from '../search/rank';
import { contentKey, scanAll, type Found, type Scan, type Searched } from '../search/scan';
import { searchTargets } from '../search/scope';
import { snapshotOf } from '../snapshot-of';
import type { ToolAnswer } from './answer';

const DEFAULT_LIMIT = 20;
const DEFAULT_CONTEXT = 2;
/** Characters of a line shown; longer lines are cut. */
const MAX_LINE_CHARS = 300;
/** What the text block and structured content cost besides the files. */
const OVERHEAD_CHARS = 4_000;

/** search_code: literal or RE2 search over the contents of every readable indexed repository. */
export async function searchCode(deps: ReaderDeps, principal: Principal | null, input: SearchCodeInput): Promise<ToolAnswer<SearchCodeOutput>> {
  const deadlineMs = Math.max(100, Math.min(deps.limits.searchDeadlineMs, Math.floor(deps.limits.timeoutMs / 2)));
  // Keyed by the reader's content cache: one per reader, where deps is copied for every call.
  const leave = searchGateOf(deps.searchContents).enter(principal, Math.ceil(deadlineMs / 1000));
  try {
    return await searchWithin(deps, principal, input, deadlineMs);
  } finally {
    leave();
  }
}

async function searchWithin(deps: ReaderDeps, principal: Principal | null, input: SearchCodeInput, deadlineMs: number): Promise<ToolAnswer<SearchCodeOutput>> {
  const regex = input.regex ?? false;
  const query = compileQuery(input.query, regex, input.case_sensitive);
  const include = compileGlobs(input.path, 'path');
  const exclude = compileGlobs(input.exclude, 'exclude');
  const plan = planQuery(input.query, regex, query.caseSensitive);
  const limit = input.limit ?? DEFAULT_LIMIT;
  const context = input.context_lines ?? DEFAULT_CONTEXT;
  const hash = argumentsHash([
    input.query,
    regex,
    query.caseSensitive,
    input.repository ?? null,
    input.repositories ?? null,
    input.ref ?? null,
    ...(input.refs !== undefined ? [input.refs] : []),
    input.path ?? null,
    input.exclude ?? null,
    input.language ?? null,
    input.include_generated ?? false,
  ]);
  const cursor = input.cursor ? decodeSearchCursor(input.cursor) : null;
  if (cursor && cursor.h !== hash)
    throw invalid(
      'cursor: it continues a search with other arguments; pass the same query, repositories, ref, refs, path, exclude, language and include_generated as for the first page, or leave cursor out',
    );
  let searched: Searched[];
  if (cursor === null) searched = await freshSnapshots(deps, principal, input);
  else if (cursor.v === 1) searched = await pinnedSnapshots(deps, principal, input, cursor);
  else {
    searched = await freshSnapshots(deps, principal, input);
    if (pinsDigest(pinsOf(searched)) !== cursor.d) {
      throw new ToolError(
        'CURSOR_EXPIRED',
        `This cursor continues a search of ${searched.length} repositories, too many to pin each commit in the cursor, and one of them has moved on since the first page (a push was indexed, or what you may read changed). Start again without cursor, or name fewer repositories (repositories) to page across pushes.`,
      );
    }
  }

  const deadline = new Deadline(deadlineMs);
  try {
    const scan = await scanAll(deps, searched, query, plan, { include, exclude, language: input.language, includeGenerated: input.include_generated ?? false }, deadline);
    scan.found.sort((a, b) => compareRank(a.rank, b.rank));
    return await render(deps, input, query, searched, scan, { offset: cursor?.o ?? 0, limit, context, hash });
  } finally {
    deadline.clear();
  }
}

async function freshSnapshots(deps: ReaderDeps, principal: Principal | null, input: SearchCodeInput): Promise<Searched[]> {
  const targets = await searchTargets(deps, principal, input);
  return targets.map((t) => ({ repository: t.repository.fullName, snapshot: t.snapshot, commit: t.state.commitSha, freshness: t.freshness, fileCount: t.state.fileCount }));
}

/** The snapshots a cursor pinned, if the caller may still read them and the index still keeps them. */
async function pinnedSnapshots(deps: ReaderDeps, principal: Principal | null, input: SearchCodeInput, cursor: PinnedCursor): Promise<Searched[]> {
  const readable = new Map((await deps.index.listRepositories()).filter((r) => deps.access(r, principal)).map((r) => [r.repositoryId, r]));
  if (input.repository !== undefined) await findRepository(deps, principal, input.repository);
  const out: Searched[] = [];
  for (const pin of cursor.s) {
    const repository = readable.get(pin.r);
    const expired = (why: string) => new ToolError('CURSOR_EXPIRED', `This cursor continues a search of commit ${shortSha(pin.c)}, but ${why}. Start again without cursor.`);
    if (!repository) throw expired('a repository it searched is no longer readable');
    const state = await deps.index.getRefState(pin.r, pin.ref);
    if (!state || state.commitSha === null || state.generation < pin.g) throw expired(`${repository.fullName} ${shortRef(pin.ref)} is no longer indexed at it`);
    const snapshot = snapshotOf(state, pin.g);
    if (state.generation !== pin.g && (await deps.index.stats(snapshot)).fileCount !== pin.n) {
      throw expired(`the index has moved on to ${shortSha(state.commitSha)} and no longer keeps every file of ${shortSha(pin.c)}`);
    }
    out.push({
      repository: repository.fullName,
      snapshot,
      commit: pin.c,
      freshness: { ...freshnessOf(state), commit: pin.c, indexed_at: pin.t, ...(pin.c === state.commitSha ? {} : { served_at: pin.t, lag_ms: null }) },
      fileCount: pin.n,
    });
  }
  return out;
}

function pinsOf(searched: Searched[]): PinnedCursor['s'] {
  return searched.map((t) => ({ r: t.snapshot.repositoryId, ref: t.snapshot.ref, g: t.snapshot.generation, c: t.commit, t: t.freshness.indexed_at, n: t.fileCount }));
}

interface PageOptions {
  offset: number;
  limit: number;
  context: number;
  hash: string;
}

/** The page: matches with their context lines, read again for the files shown only, within the result budget. */
async function render(deps: ReaderDeps, input: SearchCodeInput, query: CompiledQuery, searched: Searched[], scan: Scan, options: PageOptions): Promise<ToolAnswer<SearchCodeOutput>> {
  const slice = scan.found.slice(options.offset, options.offset + options.limit);
  // Contents the scan kept are used as they are; the others are read again, for the files shown only.
  const contents = scan.contents;
  for (const target of searched) {
    const paths = slice.filter((f) => f.searched === target && !contents.has(contentKey(target, f.path))).map((f) => f.path);
    if (paths.length === 0) continue;
    for (const { path, content } of await deps.index.readContents(target.snapshot, paths)) if (content !== null) contents.set(contentKey(target, path), content);
  }
  const budget = deps.limits.maxResultChars - OVERHEAD_CHARS;
  const files: SearchFile[] = [];
  const blocks: string[] = [];
  let used = 0;
  // A search of several refs of a repository names each file's ref in the text too.
  const namesRef = new Set(searched.map((t) => t.repository)).size < searched.length;
  for (const found of slice) {
    const content = contents.get(contentKey(found.searched, found.path)) ?? '';
    let { file, block } = formatFile(deps, found, content, options.context, found.hits.length, namesRef);
    let cost = block.length + JSON.stringify(file).length;
    // A file too big for the page on its own: fewer matches, no context.
    if (files.length === 0 && cost > budget) {
      for (let keep = found.hits.length; keep >= 1 && cost > budget; keep = Math.floor(keep / 2)) {
        ({ file, block } = formatFile(deps, found, content, 0, keep, namesRef));
        cost = block.length + JSON.stringify(file).length;
      }
    }
    if (files.length > 0 && used + cost > budget) break;
    files.push(file);
    blocks.push(block);
    used += cost;
  }
  const shownEnd = options.offset + files.length;
  const more = shownEnd < scan.found.length;
  const next: PinnedCursor | null = more ? { v: 1, h: options.hash, o: shownEnd, s: pinsOf(searched) } : null;
  const structured: SearchCodeOutput = {
    query: input.query,
    regex: query.regex,
    case_sensitive: query.caseSensitive,
    files,
    total_files: scan.totalFiles,
    total_matches: scan.totalMatches,
    counts_exact: scan.countsExact,
    complete: scan.complete,
    offset: options.offset,
    next_cursor: next ? boundedSearchCursor(next) : null,
    skipped: scan.skipped,
    repositories: searched.map((t) => ({ repository: t.repository, ref: t.snapshot.ref, freshness: t.freshness })),
  };
  return { structured, text: textOf(structured, searched, blocks, scan, options, shownEnd) };
}

function formatFile(deps: ReaderDeps, found: Found, content: string, context: number, keep: number, namesRef: boolean): { file: SearchFile; block: string } {
  const hits = found.hits.slice(0, keep);
  const wanted = new Set<number>();
  for (const hit of hits) for (let n = Math.max(1, hit.line - context); n <= hit.line + context; n += 1) wanted.add(n);
  const last = (hits[hits.length - 1]?.line ?? 0) + context;
  const lines = lineSpans(content, wanted, last);
  const show = (n: number) => cutText(lines.get(n) ?? '', MAX_LINE_CHARS);
  const matches: SearchMatch[] = hits.map((hit) => {
    const text = show(hit.line);
    const before: string[] = [];
    const after: string[] = [];
    for (let n = Math.max(1, hit.line - context); n < hit.line; n += 1) before.push(show(n));
    for (let n = hit.line + 1; n <= hit.line + context && lines.has(n); n += 1) after.push(show(n));
    return { line: hit.line, text, ranges: hit.ranges.filter(([s]) => s <= text.length).map(([s, e]) => [s, Math.min(e, text.length)] as [number, number]), before, after };
  });
  const url = blobUrl(deps.githubWebUrl, found.searched.repository, found.searched.commit, found.path);
  const file: SearchFile = {
    repository: found.searched.repository,
    path: found.path,
    ref: found.searched.snapshot.ref,
    commit: found.searched.commit,
    language: found.language,
    url,
    match_count: found.count,
    matches,
  };
  // git grep -n -C style: "path:line: text" for matches, "path-line- text" for context, "--" between groups.
  const at = namesRef ? ` at ${shortRef(found.searched.snapshot.ref)}` : '';
  const out: string[] = [`${found.searched.repository}${at} ${found.path} (${formatCount(found.count, 'matching line')}) ${url}`];
  let previous = 0;
  for (const hit of hits) {
    const from = Math.max(1, hit.line - context, previous + 1);
    if (previous > 0 && from > previous + 1) out.push('--');
    for (let n = from; n <= hit.line + context && (n <= hit.line || lines.has(n)); n += 1) {
      if (n <= previous) continue;
      const isMatch = hits.some((h) => h.line === n);
      out.push(`${found.path}${isMatch ? ':' : '-'}${n}${isMatch ? ':' : '-'} ${show(n)}`);
      previous = n;
    }
  }
  if (found.count > hits.length) out.push(`[${formatCount(found.count - hits.length, 'more matching line')} in this file: read_file it]`);
  return { file, block: out.join('\n') };
}

function textOf(out: SearchCodeOutput, searched: Searched[], blocks: string[], scan: Scan, options: PageOptions, shownEnd: number): string {
  const mode = `${out.regex ? 'regex' : 'literal'}, ${out.case_sensitive ? 'case-sensitive' : 'case-insensitive'}`;
  const oneRepository = searched.length > 0 && searched.every((t) => t.repository === searched[0]?.repository);
  const where = oneRepository
    ? `${searched[0]?.repository} at ${searched.map((t) => `${shortRef(t.snapshot.ref)} (${shortSha(t.commit)})`).join(', ')}`
    : formatCount(searched.length, 'repository', 'repositories');
  const totals = `${formatCount(out.total_files, 'file')}, ${formatCount(out.total_matches, 'matching line')}${out.counts_exact ? '' : ' at least'}`;
  const lines = [`search_code ${JSON.stringify(out.query)} (${mode}) in ${where}: ${totals}`];
  if (scan.stoppedBy === 'result cap')
    lines.push(
      `Note: the search stopped at its cap of ${formatCount(scan.found.length, 'matching file')}, the first in path order, and ranked those: more files may match. Narrow it with repository, path or language.`,
    );
  else if (!out.complete) lines.push('Note: the search stopped at its deadline before every file was searched: more files may match. Narrow it with repository, path or language.');
  if (out.skipped.binary + out.skipped.too_large > 0) lines.push(`Not searched: ${formatCount(out.skipped.binary, 'binary file')}, ${formatCount(out.skipped.too_large, 'file')} too large to index.`);
  const pending = searched.filter((t) => t.freshness.pending);
  if (pending.length > 0) lines.push(`Note: newer pushes are being indexed for ${pending.map((t) => t.repository).join(', ')}; this searched the commits shown.`);
  if (blocks.length === 0) lines.push(out.total_files === 0 ? 'No matches.' : 'No more matches on this page.');
  else lines.push(`Files ${options.offset + 1}-${shownEnd} of ${scan.found.length}:`, '', blocks.join('\n\n'));
  if (out.next_cursor) lines.push('', `[${formatCount(scan.found.length - shownEnd, 'more file')}: pass cursor "${out.next_cursor}" for the next page]`);
  return lines.join('\n');
}
