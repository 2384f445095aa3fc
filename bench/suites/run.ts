import type { Backend } from '../setup/backends';
import { pushAndWait } from '../measure/push';
import { settleElasticsearch } from '../measure/settle';
import { ZERO_SHA, type SuiteContext } from './context';
import { freshnessSuite } from './freshness';
import { indexingSuite } from './indexing';
import { readsSuite } from './reads';
import { readsLoadSuite } from './reads-load';
import { searchSuite } from './search';
import { suggestSuite } from './suggest';

export const SUITES = ['indexing', 'freshness', 'reads', 'suggest', 'search', 'reads-load'] as const;
export type SuiteName = (typeof SUITES)[number];

/**
 * The suites of one backend, in an order where each finds what it needs: indexing (and
 * the one-file pushes) and freshness run with the pipeline up; the read suites run after
 * the pipeline stopped, on the index it left.
 */
export async function runBackend(ctx: SuiteContext, backend: Backend, suites: readonly SuiteName[]): Promise<void> {
  const t = (name: string) => ctx.log(`${backend.name}: ${name}`);
  if (suites.includes('indexing')) {
    t('indexing');
    await indexingSuite(ctx, backend);
  } else if (suites.some((s) => s === 'reads' || s === 'suggest' || s === 'search' || s === 'reads-load')) {
    t('indexing the medium repository for the read suites');
    await pushAndWait({ standIn: ctx.standIn, readerUrl: backend.readerUrl }, ctx.repos.medium, null, { intervalMs: 100, timeoutMs: 10 * 60_000, before: ZERO_SHA });
  }
  if (suites.includes('freshness')) {
    if (backend.name === 'elasticsearch' && ctx.engines) {
      const { waitedMs, settled } = await settleElasticsearch(ctx.engines.elasticsearchUrl);
      const line = `before freshness, waited ${(waitedMs / 1000).toFixed(0)} s for Elasticsearch to finish merging what the indexing suite wrote${settled ? '' : ' (gave up: still merging)'}`;
      t(line);
      ctx.results.notes.push(`${backend.name}: ${line}`);
    }
    t('freshness');
    await freshnessSuite(ctx, backend);
  }
  await backend.stopPipeline();
  if (suites.includes('reads')) {
    t('reads');
    await readsSuite(ctx, backend);
  }
  if (suites.includes('suggest')) {
    t('suggest');
    await suggestSuite(ctx, backend);
  }
  if (suites.includes('search')) {
    t('search');
    await searchSuite(ctx, backend);
  }
  if (suites.includes('reads-load')) {
    t('reads under load');
    await readsLoadSuite(ctx, backend);
  }
}
