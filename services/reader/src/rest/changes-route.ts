import { MAX_WAIT_MS, type ChangesOutput, type RefState, type ServedCommit } from '@gitdex/contracts';
import type { Request, Response } from 'express';
import type { ReaderDeps } from '../deps';
import { principalOf } from '../http/auth';
import { findRepository } from '../target';
import { asToolError, withCallDeadline } from '../tools/call-tool';
import { invalid, ToolError } from '../tool-error';
import { changesAfter, changesSince, generationsOf, newestServed, servedAtOf } from '../waiting/changes';

/** A comment line down an idle event stream, so proxies that drop quiet connections keep it. */
const HEARTBEAT_MS = 15_000;

interface ChangesQuery {
  since: string | null;
  waitMs: number;
}

function parseQuery(req: Request): ChangesQuery {
  const { since, wait_ms: wait, ...rest } = req.query;
  const unknown = Object.keys(rest).filter((key) => !key.startsWith('_'));
  if (unknown.length > 0) throw invalid(`unknown parameter ${unknown.map((key) => `"${key}"`).join(', ')}: changes takes since and wait_ms`);
  if (since !== undefined && (typeof since !== 'string' || !/^[0-9a-fA-F]{7,40}$/.test(since.trim()))) throw invalid('since: a commit sha, 7 to 40 hex digits (the cursor of the last answer)');
  if (wait !== undefined && (typeof wait !== 'string' || !/^\d{1,5}$/.test(wait.trim()) || Number(wait) > MAX_WAIT_MS))
    throw invalid(`wait_ms: a whole number of milliseconds from 0 to ${MAX_WAIT_MS}`);
  return { since: typeof since === 'string' ? since.trim().toLowerCase() : null, waitMs: wait === undefined ? 0 : Number(wait) };
}

/**
 * GET /v1/repositories/{owner}/{repo}/changes?since=COMMIT: the commits the repository's refs
 * served after `since`, oldest first. As JSON it answers at once, or with wait_ms waits (a long
 * poll) until there is one; with Accept: text/event-stream it streams one `commit` event per
 * served commit until the client goes away. Both wait on the process's one watcher of the
 * repository; a client that leaves stops its listener.
 */
export function changesRoute(deps: ReaderDeps, sendError: (res: Response, error: ToolError) => void) {
  return async (req: Request, res: Response): Promise<void> => {
    let query: ChangesQuery;
    let states: RefState[];
    let name: string;
    let repositoryId: number;
    try {
      query = parseQuery(req);
      const repository = await withCallDeadline(deps, (scoped) => findRepository(scoped, principalOf(res), `${String(req.params.owner)}/${String(req.params.repo)}`));
      ({ repositoryId } = repository);
      name = repository.fullName;
      states = await deps.index.listRefStates(repositoryId);
    } catch (error) {
      sendError(res, asToolError(deps, 'changes', error));
      return;
    }
    const servedAt = query.since === null ? null : servedAtOf(states, query.since);
    // An unknown since (not served yet, or older than the index holds) starts the feed now.
    const first = servedAt === null ? [] : changesAfter(states, servedAt);
    const start = generationsOf(states);
    const cursorOf = (changes: ServedCommit[]) => changes.at(-1)?.sha ?? query.since ?? newestServed(states);
    if ((req.headers.accept ?? '').includes('text/event-stream')) {
      stream(deps, req, res, repositoryId, first, start);
      return;
    }
    if (first.length > 0 || query.waitMs === 0) {
      res.json({ repository: name, changes: first, cursor: cursorOf(first) } satisfies ChangesOutput);
      return;
    }
    let done = false;
    const finish = (changes: ServedCommit[]) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      stop();
      if (!res.writableEnded && !res.destroyed) res.json({ repository: name, changes, cursor: cursorOf(changes) } satisfies ChangesOutput);
    };
    const stop = deps.watchers.listen(repositoryId, (now) => {
      const changes = changesSince(now, start);
      if (changes.length > 0) finish(changes);
    });
    const timer = setTimeout(() => finish([]), query.waitMs);
    timer.unref();
    res.on('close', () => finish([]));
  };
}

function stream(deps: ReaderDeps, _req: Request, res: Response, repositoryId: number, first: ServedCommit[], start: Map<string, number>): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no' });
  const send = (change: ServedCommit) => res.write(`event: commit\nid: ${change.sha}\ndata: ${JSON.stringify(change)}\n\n`);
  for (const change of first) send(change);
  res.write(': gitdex changes stream open\n\n');
  let seen = start;
  const stop = deps.watchers.listen(repositoryId, (now) => {
    for (const change of changesSince(now, seen)) send(change);
    seen = generationsOf(now);
  });
  const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), HEARTBEAT_MS);
  heartbeat.unref();
  res.on('close', () => {
    clearInterval(heartbeat);
    stop();
  });
}
