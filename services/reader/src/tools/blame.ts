import type { BlameInput, BlameOutput, BlameRange } from '@gitdex/contracts';
import { openRepository } from '../address/open-repository';
import { normalizeRepoPath } from '../address/repo-path';
import type { Principal, ReaderDeps } from '../deps';
import { shortRef, shortSha } from '../freshness';
import { blame as blameLines, BlamePathMissing, memoKey } from '@gitdex/diff';
import { pathNotFound } from '../not-found';
import { invalid } from '../tool-error';
import { pendingLine, type ToolAnswer } from './answer';
import { blameMemoOf, keepStored } from './blame-memo';
import { HeldHistory } from './held-history';
import { historyNotRecorded, historyOf } from './held-commits';
import { resolveServed } from './history-ends';

/**
 * blame: for each line of a file at a ref, the commit `git blame` names, from the history the
 * index holds; lines older than that history go to its oldest commit, marked boundary.
 */
export async function blame(deps: ReaderDeps, principal: Principal | null, input: BlameInput): Promise<ToolAnswer<BlameOutput>> {
  const history = historyOf(deps);
  if (input.start_line !== undefined && input.end_line !== undefined && input.end_line < input.start_line) {
    throw invalid(`end_line (${input.end_line}) is before start_line (${input.start_line}): give an end_line of at least ${input.start_line}`);
  }
  const path = normalizeRepoPath(input.path, 'path');
  if (path === '') throw invalid('path: give a file path, e.g. "README.md"');
  const opened = await openRepository(deps, principal, input.repository);
  const served = await resolveServed(deps, opened, input.ref);
  if ('error' in served) throw served.error;
  const target = served.end.target!;
  const commit = target.state.commitSha;
  const held = await HeldHistory.load(deps, history, opened.repository.repositoryId, [target.state.ref], { commit, snapshot: target.snapshot });
  if (!held.commits.has(commit)) throw historyNotRecorded(target);

  const memo = blameMemoOf(history);
  const headKey = memoKey(held.heldKey(commit), path);
  // A blame the indexer stored with the commit is a cold blame's fast path: one read, no diff.
  if (!memo.has(headKey)) await keepStored(memo, history, opened.repository.repositoryId, held, commit, path, headKey);
  // Versions the memo lacks are read in one batch, unless a blame of the head or its first parent
  // is kept, when the few versions since are read one by one.
  const parent = held.commits.get(commit)!.parents[0];
  if (!memo.has(headKey) && !(parent && held.commits.has(parent) && memo.has(memoKey(held.heldKey(parent), path)))) await held.prefetchPath(path);
  let lines;
  try {
    lines = await blameLines(held.blameHistory(), commit, path, memo);
  } catch (error) {
    if (error instanceof BlamePathMissing) throw await pathNotFound(deps, principal, target, path, 'file');
    throw error;
  }
  const total = lines.length;
  const start = Math.min(input.start_line ?? 1, Math.max(total, 1));
  const end = Math.min(input.end_line ?? total, total);
  const ranges: BlameRange[] = [];
  for (let n = start; n <= end; n++) {
    const line = lines[n - 1]!;
    const last = ranges[ranges.length - 1];
    if (last && last.commit.sha === line.commit && last.end_line === n - 1 && (last.path ?? path) === line.path) {
      last.end_line = n;
      continue;
    }
    const c = held.commits.get(line.commit)!;
    ranges.push({
      start_line: n,
      end_line: n,
      commit: { sha: c.sha, author: { name: c.author.name, email: c.author.email }, date: c.author.date, summary: c.message.split('\n')[0] ?? '' },
      ...(line.boundary ? { boundary: true as const } : {}),
      ...(line.path !== path ? { path: line.path } : {}),
    });
  }
  const structured: BlameOutput = {
    repository: opened.repository.fullName,
    path,
    ref: shortRef(target.state.ref),
    commit,
    total_lines: total,
    ranges,
    freshness: target.freshness,
  };
  const text = [
    `${structured.repository} ${path} at ${structured.ref} (${shortSha(commit)}), lines ${start}-${end} of ${total}:`,
    ...ranges.map(
      (r) =>
        `${r.start_line}-${r.end_line} ${r.boundary ? '^' : ''}${shortSha(r.commit.sha)} ${r.commit.author.name} ${r.commit.date.slice(0, 10)} ${r.commit.summary}${r.path ? ` (as ${r.path})` : ''}`,
    ),
  ].join('\n');
  return { structured, text: text + pendingLine(target.freshness) };
}
