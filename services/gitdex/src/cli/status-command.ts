import type { CliContext } from './context';
import { installationProgress, progressLine, type InstallationProgress } from './installation-progress';
import { defaultServerUrl, reconcilerView } from './reconciler-status';
import { age, formatTable, shortSha } from './table';

/** `gitdex status`: repositories, refs, commits, freshness, failures, lag, dead letters and the reconciler. */
export async function statusCommand(ctx: CliContext, options: { json?: boolean; server?: string }): Promise<void> {
  const { adapters, out } = ctx;
  const [repositories, states, lag, letters, reconciler] = await Promise.all([
    adapters.index.listRepositories(),
    adapters.index.listRefStates(),
    // An engine that does not answer is shown as unknown in the status, which is the outcome the user sees.
    adapters
      .consumer()
      .lag()
      .catch(() => null),
    adapters.deadLetters.list(1000).catch(() => null),
    reconcilerView(options.server ?? defaultServerUrl(ctx.env)),
  ]);
  const installations = await installationsView(ctx, repositories, states);
  const names = new Map(repositories.map((r) => [r.repositoryId, r.fullName]));
  const rows = states
    .map((s) => ({
      repository: names.get(s.repositoryId) ?? `#${s.repositoryId}`,
      ref: s.ref.replace(/^refs\/heads\//, ''),
      commit: s.commitSha,
      files: s.fileCount,
      indexedAt: s.indexedAt,
      status: s.status,
      pending: s.pendingCommitSha,
      lastError: s.lastError,
    }))
    .sort((a, b) => a.repository.localeCompare(b.repository) || a.ref.localeCompare(b.ref));
  const summary = {
    repositories: repositories.length,
    refs: states.length,
    failed: states.filter((s) => s.status === 'failed').length,
    lag,
    deadLetters: letters?.length ?? null,
    eventLog: adapters.engines.eventLog,
    index: adapters.engines.index,
    reconciler: { state: reconciler.state, ...(reconciler.status ?? {}) },
    ...(installations ? { installations } : {}),
  };
  if (options.json) {
    out.log(JSON.stringify({ summary, refs: rows }, null, 2));
    return;
  }
  out.log(
    formatTable(
      ['REPOSITORY', 'REF', 'COMMIT', 'FILES', 'INDEXED', 'STATUS', 'PENDING', 'LAST ERROR'],
      rows.map((r) => [r.repository, r.ref, shortSha(r.commit), String(r.files), age(r.indexedAt), r.status, r.pending ? shortSha(r.pending) : '-', (r.lastError ?? '-').slice(0, 60)]),
    ),
  );
  out.log('');
  out.log(
    `${summary.repositories} repositories, ${summary.refs} refs, ${summary.failed} failed; lag ${lag ?? 'unknown'}; dead letters ${summary.deadLetters ?? 'unknown'} (event log: ${summary.eventLog}, index: ${summary.index})`,
  );
  if (installations && 'error' in installations) out.log(`installations: unknown (${installations.error})`);
  else for (const p of installations ?? []) out.log(progressLine(p));
  out.log(`reconciler: ${reconciler.line}`);
}

/**
 * With a GitHub App: per installation, the repositories it can see (from GitHub, a request per
 * 100) against what the index holds. Without one: nothing (a token has no installations).
 */
async function installationsView(
  ctx: CliContext,
  repositories: Parameters<typeof installationProgress>[2],
  states: Parameters<typeof installationProgress>[3],
): Promise<InstallationProgress[] | { error: string } | null> {
  const source = ctx.adapters.source;
  if (!source.appInstallations || !source.installationRepositories) return null;
  try {
    const installations = await source.appInstallations();
    if (!installations) return null;
    const view: InstallationProgress[] = [];
    for (const installation of installations) view.push(installationProgress(installation, await source.installationRepositories(installation.id), repositories, states));
    return view;
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}
