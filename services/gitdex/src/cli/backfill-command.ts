import { setTimeout as sleep } from 'node:timers/promises';
import { SingleBar } from 'cli-progress';
import type { BackfillEvent } from '@gitdex/contracts';
import type { SourceInstallation, SourceRepository } from '@gitdex/ports';
import type { CliContext } from './context';
import { CliError, EXIT } from './exit-codes';
import { installationProgress, progressLine, type InstallationProgress } from './installation-progress';

export interface BackfillOptions {
  installation?: string;
  org?: string;
  all?: boolean;
  /** Queue and return at once (commander's --no-wait sets wait false). */
  wait?: boolean;
  /** Give up waiting after this many seconds (the backfills stay queued). */
  timeout?: string;
  /** How often the index is read while waiting; tests make it short. */
  pollMs?: number;
}

/**
 * `gitdex backfill --installation ID | --org NAME | --all`: every repository the App's
 * installation(s) can see, listed with the installation's token and queued for the indexer
 * service (with the installation id, so no lookup is needed), then progress until every one is
 * indexed or failed. One `installation` webhook used to be the only way, and GitHub does not
 * redeliver a failed one.
 */
export async function backfillCommand(ctx: CliContext, options: BackfillOptions): Promise<void> {
  const { adapters, out } = ctx;
  const installations = await chosenInstallations(ctx, options);
  const source = adapters.source;
  if (!source.installationRepositories) throw new CliError('backfill lists an installation’s repositories: it needs GitHub App credentials (GITHUB_APP_ID, GITHUB_APP_PRIVATE_KEY)', EXIT.usage);
  const listed: { installation: SourceInstallation; repositories: SourceRepository[] }[] = [];
  for (const installation of installations) listed.push({ installation, repositories: await source.installationRepositories(installation.id) });

  const stamp = Date.now();
  const events: BackfillEvent[] = listed.flatMap(({ installation, repositories }) =>
    repositories.map((repository) => ({
      kind: 'backfill' as const,
      eventId: `cli-backfill:${installation.id}:${repository.id}:${stamp}`,
      repository: { id: repository.id, fullName: repository.fullName, defaultBranch: repository.defaultBranch, private: repository.private, htmlUrl: repository.htmlUrl },
      receivedAt: new Date(stamp).toISOString(),
      reason: 'installation' as const,
      installationId: installation.id,
    })),
  );
  await adapters.publisher.publish(events.map((event) => ({ event })));
  for (const { installation, repositories } of listed) out.log(`installation ${installation.id} (${installation.account}): queued ${repositories.length} repositories`);
  if (options.wait === false) return;

  const timeoutSeconds = options.timeout === undefined ? 3600 : Number(options.timeout);
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0) throw new CliError(`--timeout must be a positive number of seconds, got ${JSON.stringify(options.timeout)}`, EXIT.usage);
  const deadline = Date.now() + timeoutSeconds * 1000;
  const bar = new SingleBar({
    stream: process.stderr,
    format: 'backfill [{bar}] {value}/{total} indexed | {failed} failed | ETA {eta_formatted}',
    noTTYOutput: true,
    notTTYSchedule: 2000,
    hideCursor: true,
  });
  bar.start(events.length, 0, { failed: 0 });
  let progress: InstallationProgress[];
  try {
    for (;;) {
      const [repositories, states] = await Promise.all([adapters.index.listRepositories(), adapters.index.listRefStates()]);
      progress = listed.map(({ installation, repositories: expected }) => installationProgress(installation, expected, repositories, states));
      const done = progress.reduce((n, p) => n + p.indexed, 0);
      const failed = progress.reduce((n, p) => n + p.failed, 0);
      bar.update(done, { failed });
      if (progress.every((p) => p.queued === 0) || Date.now() >= deadline) break;
      await sleep(options.pollMs ?? 2000);
    }
  } finally {
    bar.stop();
  }
  for (const p of progress) out.log(progressLine(p));
  const failed = progress.flatMap((p) => p.failedRepositories);
  const queued = progress.reduce((n, p) => n + p.queued, 0);
  if (queued > 0) throw new CliError(`${queued} repositories were still queued after ${timeoutSeconds} s; they stay queued (see gitdex status)`, EXIT.failed);
  if (failed.length > 0) throw new CliError(`${failed.length} repositories failed, first ${failed[0]}: see gitdex status and gitdex dlq list`, EXIT.failed);
}

async function chosenInstallations(ctx: CliContext, options: BackfillOptions): Promise<SourceInstallation[]> {
  const chosen = [options.installation !== undefined, options.org !== undefined, options.all === true].filter(Boolean).length;
  if (chosen !== 1) throw new CliError('say which installations: exactly one of --installation ID, --org NAME or --all', EXIT.usage);
  const source = ctx.adapters.source;
  if (!source.appInstallations || !source.accountInstallation) throw new CliError('backfill needs GitHub App credentials (GITHUB_APP_ID, GITHUB_APP_PRIVATE_KEY)', EXIT.usage);
  if (options.installation !== undefined) {
    const id = Number(options.installation);
    if (!Number.isSafeInteger(id) || id <= 0) throw new CliError(`--installation takes the installation's numeric id, got ${JSON.stringify(options.installation)}`, EXIT.usage);
    const known = (await source.appInstallations())?.find((i) => i.id === id);
    if (!known) throw new CliError(`the GitHub App has no installation ${id} (see gitdex backfill --all, or the App's settings)`, EXIT.notFound);
    return [known];
  }
  if (options.org !== undefined) {
    const found = await source.accountInstallation(options.org);
    if (!found) throw new CliError(`the GitHub App is not installed on ${options.org}`, EXIT.notFound);
    return [found];
  }
  const all = (await source.appInstallations()) ?? [];
  if (all.length === 0) throw new CliError('the GitHub App has no installations', EXIT.notFound);
  return all;
}
