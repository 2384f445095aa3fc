import { recordingLog } from './recording-log';
import type { IndexReads, IndexStore } from '@gitdex/ports';
import type { Log } from '@gitdex/observability';
import { ElasticsearchIndexStore } from '@gitdex/elasticsearch';
import { GitHubSource, type GitHubClientOptions } from '@gitdex/github';
import { createKafka, KafkaConsumer, KafkaDeadLetters, KafkaPublisher } from '@gitdex/kafka';
import { createBatchHandler, DEFAULT_INDEX_REF_OPTIONS, RefSelection, type IndexRefOptions } from '@gitdex/indexer';
import { createGitHubStandIn, type GitHubStandIn } from '../github-standin/server';
import { makeTempRoot, removeTempRoot } from '../github-standin/fixture-repos';
import { engineEndpoints, kafkaBrokerList, uniqueName } from '../harness/engines';
import { startWebhookService, type RunningWebhook } from './webhook-server';

export const SECRET = 'pipeline-secret';

export interface Pipeline {
  root: string;
  standIn: GitHubStandIn;
  webhook: RunningWebhook;
  index: IndexStore;
  topic: string;
  indexPrefix: string;
  deadLetters: KafkaDeadLetters;
  publisher: KafkaPublisher;
  logs: { level: string; message: string; context: object }[];
  /** Waits until a ref of a repository is served at `commitSha`. */
  waitForCommit(repositoryId: number, ref: string, commitSha: string, timeoutMs?: number): Promise<void>;
  waitFor(check: () => Promise<boolean>, what: string, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** Webhook → Kafka → indexer → Elasticsearch, in this process, against the GitHub stand-in. */
export async function startPipeline(
  options: { indexRef?: Partial<IndexRefOptions>; maxAttempts?: number; retryBudgetMs?: number; refs?: string[]; indexer?: boolean; github?: Partial<GitHubClientOptions>; token?: string } = {},
): Promise<Pipeline> {
  const root = await makeTempRoot('gitdex-pipeline-');
  const topic = uniqueName('events');
  const prefix = uniqueName('t').replace(/-/g, '');
  const index = new ElasticsearchIndexStore({ node: engineEndpoints().elasticsearchUrl, indexPrefix: prefix });
  await index.ensureReady();
  const webhook = await startWebhookService(topic, [SECRET]);
  const standIn = await createGitHubStandIn({ root, webhookUrl: webhook.hookUrl, secret: SECRET, rateLimit: { limit: 1_000_000 }, ...(options.token ? { token: options.token } : {}) });
  const kafka = createKafka({ brokers: kafkaBrokerList(), clientId: 'test-indexer' });
  const deadLetters = new KafkaDeadLetters(kafka, `${topic}.dlq`);
  const publisher = new KafkaPublisher(kafka, { topic, partitions: 6 });
  const consumer = new KafkaConsumer(kafka, { topic, groupId: uniqueName('indexer'), partitions: 6, log: recordingLog() });
  const logs: Pipeline['logs'] = [];
  const log: Log = {
    info: (context, message) => logs.push({ level: 'info', message, context }),
    warn: (context, message) => logs.push({ level: 'warn', message, context }),
    error: (context, message) => logs.push({ level: 'error', message, context }),
  };
  if (options.indexer !== false) {
    await consumer.start(
      createBatchHandler({
        index,
        source: new GitHubSource({ baseUrl: standIn.url, maxInlineWaitSeconds: 2, ...(options.token ? { token: options.token } : {}), ...options.github }),
        deadLetters,
        refs: new RefSelection(options.refs ?? ['default']),
        options: { ...DEFAULT_INDEX_REF_OPTIONS, ...options.indexRef },
        retry: { maxAttempts: options.maxAttempts ?? 5, retryBudgetMs: options.retryBudgetMs ?? 0, baseDelayMs: 100, maxDelayMs: 2000 },
        now: () => new Date(),
        log,
      }),
    );
  }

  const waitFor = async (check: () => Promise<boolean>, what: string, timeoutMs = 60_000) => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (await check().catch(() => false)) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const recent = logs
      .slice(-5)
      .map((l) => `${l.level} ${l.message} ${JSON.stringify(l.context)}`)
      .join('\n');
    throw new Error(`timed out waiting for ${what}; last indexer logs:\n${recent}`);
  };

  return {
    root,
    standIn,
    webhook,
    index,
    topic,
    indexPrefix: prefix,
    deadLetters,
    publisher,
    logs,
    waitFor,
    waitForCommit: (repositoryId, ref, commitSha, timeoutMs) => waitFor(() => servedToReaders(index, repositoryId, ref, commitSha), `${repositoryId} ${ref} at ${commitSha}`, timeoutMs),
    async close() {
      await consumer.stop().catch(() => undefined);
      await standIn.close();
      await webhook.close();
      await publisher.close();
      await deadLetters.close();
      await dropIndices(prefix);
      await index.close();
      await removeTempRoot(root);
    },
  };
}

/**
 * Whether a ref is served at `commitSha` as the reader's tools see it: from listRefStates, the
 * search the reader's lookups make (lookupForRead, target.ts), not from getRefState. On
 * Elasticsearch getRefState is a real-time get, which answers a flip as soon as its write is
 * indexed, while that write's refresh (what makes it searchable) is still under way: a test that
 * waited on it and then called a tool could read the ref's previous generation.
 */
export async function servedToReaders(index: Pick<IndexReads, 'listRefStates'>, repositoryId: number, ref: string, commitSha: string): Promise<boolean> {
  const state = (await index.listRefStates(repositoryId)).find((candidate) => candidate.ref === ref);
  return state?.commitSha === commitSha && state.status === 'ready';
}

async function dropIndices(prefix: string): Promise<void> {
  await fetch(`${engineEndpoints().elasticsearchUrl}/${prefix}-*?expand_wildcards=all`, { method: 'DELETE' }).catch(() => undefined);
}
