import { z } from 'zod';
import type { CommitOutput, ListCommitsInput, ListCommitsOutput } from '@gitdex/contracts';
import type { CommitRecord } from '@gitdex/ports';
import type { Principal, ReaderDeps } from '../deps';
import { openRepository, openTarget } from '../address/open-repository';
import { refOfRepositoryUrl } from '../address/repository-name';
import { shortRef, shortSha } from '../freshness';
import { gitLog } from '../history/git-log';
import { heldCommits } from './held-commits';
import { decodeOpaqueCursor, encodeOpaqueCursor } from '../opaque-cursor';
import { ToolError, invalid } from '../tool-error';
import type { Target } from '../target';
import { pendingLine, type ToolAnswer } from './answer';

const DEFAULT_LIMIT = 30;
/** Characters of a message shown in the text block; the structured answer has it whole. */
const TEXT_SUBJECT_CHARS = 100;

/** A page's place: the commit the first page listed from (pages stay on it) and how many were listed before. */
const CursorSchema = z.object({ h: z.string().regex(/^[0-9a-f]{40}$/), o: z.number().int().nonnegative() });

function commitOutput(web: string, fullName: string, commit: CommitRecord): CommitOutput {
  return {
    sha: commit.sha,
    parents: commit.parents,
    author: commit.author,
    committed_at: commit.committer.date,
    message: commit.message,
    files_changed: commit.files.length,
    ...(commit.filesComplete ? {} : { files_complete: false as const }),
    url: `${web}/${fullName}/commit/${commit.sha}`,
  };
}

function timeOf(field: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const time = Date.parse(value);
  if (Number.isNaN(time)) throw invalid(`${field}: an ISO 8601 date or time, e.g. "2026-01-31"`);
  return time;
}

const SHA_PREFIX = /^[0-9a-f]{7,40}$/i;

/**
 * The ref to list and, for a sha the ref no longer serves (older than the commits the index keeps
 * readable), the commit to start from: a sha prefix is looked up in the default branch's history.
 */
async function openHistoryTarget(deps: ReaderDeps, opened: Awaited<ReturnType<typeof openRepository>>, refInput: string | undefined): Promise<{ target: Target; start?: string }> {
  try {
    return { target: (await openTarget(deps, opened, refInput)).target };
  } catch (error) {
    if (!(error instanceof ToolError) || refInput === undefined || !SHA_PREFIX.test(refInput.trim())) throw error;
    const { target } = await openTarget(deps, opened, undefined);
    return { target, start: refInput.trim().toLowerCase() };
  }
}

/** The one held commit a sha prefix names; a caller error when none or several do. */
function uniqueCommit(commits: ReadonlyMap<string, CommitRecord>, prefix: string): string {
  const found = [...commits.keys()].filter((sha) => sha.startsWith(prefix));
  if (found.length === 1) return found[0] as string;
  throw invalid(found.length === 0 ? `ref: no commit ${prefix} in the history the index holds; list_commits without ref shows it` : `ref: ${prefix} names ${found.length} commits; give more digits`);
}

/** list_commits: `git log REF [-- PATH]` over the history the index holds, newest first, in pages. */
export async function listCommits(deps: ReaderDeps, principal: Principal | null, input: ListCommitsInput): Promise<ToolAnswer<ListCommitsOutput>> {
  const opened = await openRepository(deps, principal, input.repository);
  const refInput = input.ref ?? refOfRepositoryUrl(input.repository, deps.githubWebUrl);
  const { target, start } = await openHistoryTarget(deps, opened, refInput);
  const { repository } = target;
  const cursor = input.cursor === undefined ? undefined : decodeOpaqueCursor(CursorSchema, input.cursor);
  const held = await heldCommits(deps, target);
  const head = cursor?.h ?? (start ? uniqueCommit(held.commits, start) : held.head);
  if (!held.commits.has(head))
    throw new ToolError('CURSOR_EXPIRED', `The commits this cursor pages through are no longer held for ${shortRef(target.snapshot.ref)} (the branch was force-pushed). Call again without cursor.`);

  const since = timeOf('since', input.since);
  const until = timeOf('until', input.until);
  const author = input.author?.toLowerCase();
  const log = gitLog(held.commits, head, input.path);
  const selected = log.shas
    .map((sha) => held.commits.get(sha) as CommitRecord)
    .filter((c) => {
      const committed = Date.parse(c.committer.date);
      if (since !== undefined && committed < since) return false;
      if (until !== undefined && committed > until) return false;
      return author === undefined || c.author.name.toLowerCase().includes(author) || c.author.email.toLowerCase().includes(author);
    });
  const offset = cursor?.o ?? 0;
  const limit = input.limit ?? DEFAULT_LIMIT;
  const page = selected.slice(offset, offset + limit);
  const more = offset + page.length < selected.length;
  const path = input.path?.replace(/^\/+|\/+$/g, '');
  const structured: ListCommitsOutput = {
    repository: repository.fullName,
    ref: target.snapshot.ref,
    ...(path ? { path } : {}),
    commits: page.map((c) => commitOutput(deps.githubWebUrl, repository.fullName, c)),
    ...(more ? { next_cursor: encodeOpaqueCursor({ h: head, o: offset + page.length }) } : {}),
    history_held: held.commits.size,
    reached_oldest_held: !more && log.reachedBoundary,
    freshness: target.freshness,
  };
  const lines = page.map(
    (c) => `${shortSha(c.sha)} ${c.committer.date} ${c.author.name} <${c.author.email}> ${(c.message.split('\n')[0] ?? '').slice(0, TEXT_SUBJECT_CHARS)} (${c.files.length} files)`,
  );
  const header = `${repository.fullName} at ${shortRef(target.snapshot.ref)} (${shortSha(target.state.commitSha)})${path ? ` -- ${path}` : ''}: ${page.length === 0 ? 'no commits' : `commits ${offset + 1}-${offset + page.length}`} of ${selected.length} listed from ${held.commits.size} held${pendingLine(target.freshness)}`;
  const tail = more ? `\nMore: call again with cursor "${structured.next_cursor}".` : structured.reached_oldest_held ? '\nOlder commits are not held by the index.' : '';
  return { structured, text: [header, ...lines].join('\n') + tail };
}
