import { SingleBar } from 'cli-progress';
import { repositoryNameProblem, type BackfillEvent } from '@gitdex/contracts';
import { DEFAULT_INDEX_REF_OPTIONS, handleEvent, RefSelection } from '@gitdex/indexer';
import type { CliContext } from './context';
import { CliError, EXIT } from './exit-codes';
import { shortSha } from './table';
import { symbolParsingOf } from '../symbol-parsing';

export interface IndexOptions {
  ref?: string;
  /** Queue a backfill for the indexer service instead of indexing here. */
  queue?: boolean;
}

/**
 * `gitdex index owner/repo`: a backfill run here, with a progress bar and an ETA, or
 * queued for the indexer service with --queue. Either way the result equals what the
 * indexer would have written.
 */
export async function indexCommand(ctx: CliContext, fullName: string, options: IndexOptions): Promise<void> {
  const { adapters, env, out } = ctx;
  const problem = repositoryNameProblem(fullName);
  if (problem !== null) throw new CliError(`${JSON.stringify(fullName)} is not a GitHub owner/name: ${problem}`, EXIT.usage);
  const repository = await adapters.source.repositoryByName(fullName);
  if (!repository) throw new CliError(`${fullName} does not exist on GitHub, or the configured credentials (GITHUB_TOKEN / GitHub App) cannot see it`, EXIT.notFound);
  const ref = options.ref ? (options.ref.startsWith('refs/') ? options.ref : `refs/heads/${options.ref}`) : undefined;
  const event: BackfillEvent = {
    kind: 'backfill',
    eventId: `cli:${repository.id}:${Date.now()}`,
    repository: { id: repository.id, fullName: repository.fullName, defaultBranch: repository.defaultBranch, private: repository.private, htmlUrl: repository.htmlUrl },
    receivedAt: new Date().toISOString(),
    reason: 'cli',
    ...(ref ? { ref } : {}),
  };
  if (options.queue) {
    await adapters.publisher.publish([{ event }]);
    out.log(`queued a backfill of ${repository.fullName}${ref ? ` ${ref}` : ''} for the indexer (event ${event.eventId})`);
    return;
  }

  await adapters.index.ensureReady();
  await adapters.history.ensureHistoryReady();
  const total = await countFiles(ctx, repository, ref?.replace(/^refs\/heads\//, '') ?? repository.defaultBranch);
  const bar = new SingleBar({
    stream: process.stderr,
    format: `${repository.fullName} [{bar}] {percentage}% | {value}/{total} files | ETA {eta_formatted}`,
    noTTYOutput: true,
    notTTYSchedule: 2000,
    hideCursor: true,
  });
  bar.start(total ?? 0, 0);
  const symbols = symbolParsingOf(env, adapters.index);
  const outcome = await handleEvent(
    {
      index: adapters.index,
      source: adapters.source,
      refs: new RefSelection(ref ? [...env.GITDEX_INDEXED_REFS, ref.replace(/^refs\/heads\//, '')] : env.GITDEX_INDEXED_REFS),
      options: { ...DEFAULT_INDEX_REF_OPTIONS, maxFileBytes: env.GITDEX_MAX_FILE_BYTES },
      history: { store: adapters.history, options: { depth: env.GITDEX_HISTORY_DEPTH, maxBlobBytes: env.GITDEX_MAX_FILE_BYTES, concurrency: 8 } },
      now: () => new Date(),
      ...(symbols ? { symbols: symbols.parsing } : {}),
      onProgress: (done) => {
        if (total === undefined || done > total) bar.setTotal(done);
        bar.update(done);
      },
    },
    event,
  ).finally(async () => {
    bar.stop();
    await symbols?.close();
  });
  if (outcome.action !== 'synced') throw new CliError(`${repository.fullName}: ${outcome.action === 'skipped' ? outcome.reason : outcome.action}`, EXIT.failed);
  for (const { ref: r, outcome: result } of outcome.refs) {
    if (result === 'deleted') out.log(`${r}: branch not found on GitHub; removed from the index`);
    else if (result.status === 'unchanged') out.log(`${r}: already indexed at ${shortSha(result.commitSha)}`);
    else out.log(`${r}: indexed ${shortSha(result.commitSha)} (${result.fileCount} files, ${result.strategy}, ${result.written} documents written)`);
  }
}

/** Files at the head, for the progress bar's total and ETA; unknown when GitHub truncates the listing. */
async function countFiles(ctx: CliContext, repository: Parameters<CliContext['adapters']['source']['head']>[0], branch: string): Promise<number | undefined> {
  const head = await ctx.adapters.source.head(repository, branch);
  if (!head) throw new CliError(`${repository.fullName} has no branch ${branch}`, EXIT.notFound);
  const tree = await ctx.adapters.source.tree(repository, head.treeSha, { recursive: true });
  return tree.truncated ? undefined : tree.entries.filter((e) => e.type !== 'tree').length;
}
