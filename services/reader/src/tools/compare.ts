import { COMPARE_FILE_PATCH_CHARS, COMPARE_PAGE_FILES, COMPARE_PAGE_PATCH_CHARS, type CompareFile, type CompareInput, type CompareOutput } from '@gitdex/contracts';
import { z } from 'zod';
import { openRepository } from '../address/open-repository';
import { normalizeRepoPath } from '../address/repo-path';
import type { Principal, ReaderDeps } from '../deps';
import { shortSha } from '../freshness';
import { diffPair, pairTrees, type Tree } from '@gitdex/diff';
import { decodeOpaqueCursor, encodeOpaqueCursor } from '../opaque-cursor';
import { invalid } from '../tool-error';
import { formatCount } from '../format/text';
import { pendingLine, type ToolAnswer } from './answer';
import { HeldHistory } from './held-history';
import { historyOf } from './held-commits';
import { resolveHeld, resolveServed, type End } from './history-ends';

const CursorSchema = z.object({ o: z.number().int().min(0), b: z.string(), h: z.string() });

/** Read in place of a version history does not keep (binary, or past its size limit): shown as binary. */
const NOT_KEPT = Uint8Array.of(0);

/**
 * compare: the change from the merge base of base and head to head, as `git diff -M base...head`
 * prints it, from the history the index holds; files in git's order, paged.
 */
export async function compare(deps: ReaderDeps, principal: Principal | null, input: CompareInput): Promise<ToolAnswer<CompareOutput>> {
  const history = historyOf(deps);
  const context = input.context_lines ?? 3;
  const scope = input.path === undefined ? undefined : normalizeRepoPath(input.path, 'path');
  const cursor = input.cursor === undefined ? undefined : decodeOpaqueCursor(CursorSchema, input.cursor);
  const opened = await openRepository(deps, principal, input.repository);
  const repositoryId = opened.repository.repositoryId;

  const headServed = await resolveServed(deps, opened, input.head);
  const anchorEnd = 'end' in headServed ? headServed.end : await defaultEnd(deps, opened);
  const anchorTarget = anchorEnd.target!;
  const baseServed = await resolveServed(deps, opened, input.base);
  const refs = [anchorTarget.state.ref, ...('end' in baseServed && baseServed.end.target ? [baseServed.end.target.state.ref] : [])];
  const held = await HeldHistory.load(deps, history, repositoryId, refs, { commit: anchorTarget.state.commitSha, snapshot: anchorTarget.snapshot });
  const head: End = 'end' in headServed ? headServed.end : await resolveHeld(deps, opened, held, input.head, headServed.error);
  const base: End = 'end' in baseServed ? baseServed.end : await resolveHeld(deps, opened, held, input.base, baseServed.error);
  // Later pages compare the commits the first page compared, whatever was pushed since.
  const headSha = cursor?.h ?? head.commit;
  const baseSha = cursor?.b ?? base.commit;

  const mergeBase = held.mergeBase(baseSha, headSha);
  const heldNote = `the history held (${held.commits.size} commits)`;
  if (!mergeBase) {
    throw invalid(`${input.base} and ${input.head} have no common commit within ${heldNote}: compare refs that share recent history, or a nearer base`);
  }
  const [baseTree, headTree] = await Promise.all([held.tree(mergeBase), held.tree(headSha)]);
  if (!baseTree || !headTree) throw invalid(`the files at ${shortSha(baseTree ? headSha : mergeBase)} cannot be rebuilt from ${heldNote}: compare nearer commits`);
  const within = (tree: Tree): Tree => (scope === undefined || scope === '' ? tree : new Map([...tree].filter(([p]) => p === scope || p.startsWith(`${scope}/`))));
  const [from, to] = [within(baseTree), within(headTree)];

  const changedShas = [...from].filter(([p, e]) => to.get(p)?.sha !== e.sha).map(([, e]) => e.sha);
  changedShas.push(...[...to].filter(([p, e]) => from.get(p)?.sha !== e.sha).map(([, e]) => e.sha));
  await held.prefetch(changedShas);
  const read = async (sha: string): Promise<Uint8Array> => (await held.read(sha)) ?? NOT_KEPT;
  const pairs = await pairTrees(from, to, read);

  const offset = cursor?.o ?? 0;
  if (offset > pairs.length) throw invalid('cursor: past the last file; leave cursor out to start again');
  const files: CompareFile[] = [];
  let chars = 0;
  let i = offset;
  for (; i < pairs.length && files.length < COMPARE_PAGE_FILES; i++) {
    const change = await diffPair(pairs[i]!, read, context);
    const patch = change.patch;
    const cut = patch !== undefined && patch.length > COMPARE_FILE_PATCH_CHARS;
    const shown = cut ? patch.slice(0, patch.lastIndexOf('\n', COMPARE_FILE_PATCH_CHARS) + 1) : patch;
    if (files.length > 0 && chars + (shown?.length ?? 0) > COMPARE_PAGE_PATCH_CHARS) break;
    chars += shown?.length ?? 0;
    files.push({
      path: change.path,
      ...(change.previousPath ? { previous_path: change.previousPath } : {}),
      status: change.status,
      additions: change.additions,
      deletions: change.deletions,
      binary: change.binary,
      ...(shown !== undefined ? { patch: shown } : {}),
      ...(cut ? { patch_truncated: true as const } : {}),
    });
  }
  const nextCursor = i < pairs.length ? encodeOpaqueCursor({ o: i, b: baseSha, h: headSha }) : undefined;
  const limits = [
    `${files.length} of ${formatCount(pairs.length, 'file')} from file ${offset + 1}`,
    nextCursor ? 'pass next_cursor for the rest' : 'no more files',
    `at most ${COMPARE_PAGE_FILES} files and ${COMPARE_PAGE_PATCH_CHARS.toLocaleString('en')} characters of patches a page, ${COMPARE_FILE_PATCH_CHARS.toLocaleString('en')} a file (patch_truncated)`,
    `from ${heldNote}; versions it does not keep (binary, or too large) show as binary`,
  ].join('; ');
  const structured: CompareOutput = {
    repository: opened.repository.fullName,
    base: { ref: input.base, commit: baseSha },
    head: { ref: input.head, commit: headSha },
    merge_base: mergeBase,
    files,
    total_files: pairs.length,
    ...(nextCursor ? { next_cursor: nextCursor } : {}),
    limits,
    freshness: anchorTarget.freshness,
  };
  const lines = files.map((f) => {
    const name = f.previous_path ? `${f.previous_path} → ${f.path}` : f.path;
    return `${f.status} ${name} +${f.additions} -${f.deletions}${f.binary ? ' (binary)' : ''}${f.patch ? `\n${f.patch}` : ''}`;
  });
  const text = [
    `${structured.repository} ${input.base}...${input.head}: ${shortSha(mergeBase)}..${shortSha(headSha)}, ${formatCount(pairs.length, 'file')} changed`,
    ...lines,
    `(${limits})${nextCursor ? `\nnext_cursor: ${nextCursor}` : ''}${pendingLine(anchorTarget.freshness)}`,
  ].join('\n');
  return { structured, text };
}

async function defaultEnd(deps: ReaderDeps, opened: Parameters<typeof resolveServed>[1]): Promise<End> {
  const served = await resolveServed(deps, opened, undefined);
  if ('error' in served) throw served.error;
  return served.end;
}
