import { ElasticsearchIndexStore } from '@gitdex/elasticsearch';
import { reconcile } from '@gitdex/indexer';
import type { CliContext } from './context';
import { CliError, EXIT } from './exit-codes';
import { formatTable, shortSha } from './table';

/** `gitdex reindex`: copy into new physical indices and swap the aliases (Elasticsearch only). */
export async function reindexCommand(ctx: CliContext): Promise<void> {
  const { index } = ctx.adapters;
  if (!(index instanceof ElasticsearchIndexStore)) {
    ctx.out.log('The embedded SQLite index has no aliases to swap: nothing to reindex.');
    return;
  }
  // Not ensureReady first: it refuses an alias of an older mapping version, the very index an
  // upgrade reindexes. reindex puts this version's template and creates what is missing itself.
  for (const kind of ['repos', 'files'] as const) {
    const result = await index.reindex(kind, { rebuild: true });
    ctx.out.log(`${kind}: copied ${result.copied} documents from ${result.from.join(', ') || '(none)'} to ${result.to}; alias swapped`);
    if (result.leftBehind.length > 0) ctx.out.error(`${kind}: could not delete the old ${result.leftBehind.join(', ')}; nothing reads them: delete them by hand to free the disk`);
  }
  await index.ensureReady();
}

export async function dlqListCommand(ctx: CliContext, options: { json?: boolean }): Promise<void> {
  const letters = await ctx.adapters.deadLetters.list(1000);
  if (options.json) {
    ctx.out.log(JSON.stringify(letters, null, 2));
    return;
  }
  if (letters.length === 0) {
    ctx.out.log('No dead letters.');
    return;
  }
  ctx.out.log(
    formatTable(
      ['ID', 'REPOSITORY', 'KIND', 'ATTEMPTS', 'FAILED AT', 'REASON'],
      letters.map(({ id, letter }) => [id, letter.event?.repository.fullName ?? '(malformed)', letter.event?.kind ?? '-', String(letter.attempts), letter.failedAt, letter.reason.slice(0, 80)]),
    ),
  );
}

export async function dlqReplayCommand(ctx: CliContext, ids: string[]): Promise<void> {
  const replayed = await ctx.adapters.deadLetters.replay(ctx.adapters.publisher, ids.length > 0 ? ids : undefined);
  if (ids.length > 0 && replayed < ids.length) throw new CliError(`replayed ${replayed} of ${ids.length}: unknown ids were skipped (see gitdex dlq list)`, EXIT.notFound);
  ctx.out.log(`Replayed ${replayed} dead letter${replayed === 1 ? '' : 's'} into the event log.`);
}

/** `gitdex reconcile`: one pass of the reconciler, with what it healed. */
export async function reconcileCommand(ctx: CliContext): Promise<void> {
  const { adapters } = ctx;
  await adapters.index.ensureReady();
  const report = await reconcile({ index: adapters.index, source: adapters.source, publisher: adapters.publisher, now: () => new Date() });
  if (report.drifted.length > 0) {
    ctx.out.log(
      formatTable(
        ['REPOSITORY', 'REF', 'INDEXED', 'GITHUB'],
        report.drifted.map((d) => [d.repository, d.ref, shortSha(d.indexed), d.head ? shortSha(d.head) : '(deleted)']),
      ),
    );
  }
  for (const m of report.metadata) ctx.out.log(`${m.repository}: ${m.changed.join(', ')} changed on GitHub; applied`);
  ctx.out.log(`Checked ${report.checked} refs: ${report.drifted.length} drifted and queued for a backfill${report.failed.length > 0 ? `, ${report.failed.length} could not be checked` : ''}.`);
  for (const f of report.failed) ctx.out.error(`${f.repository}: ${f.error}`);
  if (report.rateLimited) ctx.out.error(`GitHub's rate limit stopped the pass (what was not checked waits for the next one): ${report.rateLimited}`);
  const { lists, repositories, heads } = report.requests;
  ctx.out.log(`GitHub requests: ${lists} repository ${lists === 1 ? 'list' : 'lists'}, ${repositories} single repository reads, ${heads} branch heads.`);
  for (const failure of report.failed) ctx.out.error(`  ${failure.repository}: ${failure.error}`);
  if (report.failed.length > 0) throw new CliError('some refs could not be checked against GitHub', EXIT.failed);
}
