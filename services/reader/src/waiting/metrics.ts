import { Gauge, type Registry } from 'prom-client';
import type { RepositoryWatchers } from './repository-watchers';

/**
 * What waits on repositories right now, read at scrape time: repositories watched (each one
 * ref-state read an interval) and listeners (tool calls waiting on min_commit, subscriptions,
 * changes streams). Both return to zero when every client has gone.
 */
export function watcherMetrics(registry: Registry, watchers: RepositoryWatchers): void {
  // A second router on the same registry (tests, the single process) keeps the first one's.
  if (registry.getSingleMetric('gitdex_reader_waiters')) return;
  new Gauge({
    name: 'gitdex_reader_watched_repositories',
    help: 'Repositories whose ref states the reader reads for waiters (min_commit, subscriptions, changes).',
    registers: [registry],
    collect() {
      this.set(watchers.counts().repositories);
    },
  });
  new Gauge({
    name: 'gitdex_reader_waiters',
    help: 'Tool calls waiting on min_commit, resource subscriptions and changes streams, together.',
    registers: [registry],
    collect() {
      this.set(watchers.counts().listeners);
    },
  });
}
