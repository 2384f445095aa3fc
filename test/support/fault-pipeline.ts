// The whole product as separate CHILD PROCESSES (one webhook, one or more indexers, one reader)
// on real Kafka and Elasticsearch, fed by the GitHub stand-in, with a stream of pushes to several
// repositories. measureFault() (fault-measure.ts) injects one fault while the stream flows and then checks that
// nothing acknowledged was lost and that the index equals GitHub, and records how long that took.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ElasticsearchIndexStore } from '@gitdex/elasticsearch';
import { createRepo, makeTempRoot, removeTempRoot, type FileChanges } from '../github-standin/fixture-repos';
import { createGitHubStandIn, type GitHubStandIn } from '../github-standin/server';
import { uniqueName } from '../harness/engines';
import { readEventIds } from './fault-kafka';
import { RoleProcess } from './fault-process';
import { RESULTS_DIR } from './fault-results';
import { startRoundRobin, type RoundRobin } from './round-robin';
import { gitHead } from './git-truth';
import { expectIndexEqualsGit } from './index-truth';
import { FAULT_SECRET, roleEnvironment } from './role-env';
import { errorText, PushStream, type DeliveryLog, type StreamRepo } from './push-stream';

export const MAIN = 'refs/heads/main';
export { FAULT_SECRET };

export interface FaultPipelineOptions {
  /** Names the log folder test-artifacts/faults/logs/<label>/. */
  label: string;
  kafkaBrokers: string;
  elasticsearchUrl: string;
  /** Repositories that get pushes (default 5). */
  repositories?: number;
  /** Extra environment for every role. */
  env?: Record<string, string>;
  /** Delete the indices of this pipeline's prefix on close (for a shared Elasticsearch). */
  dropIndicesOnClose?: boolean;
  /** Milliseconds between two pushes to one repository (randomised ±50 %); default 400. */
  pushIntervalMs?: number;
  /** Processes of each role (default 1 each); several webhooks or readers get a round-robin front (round-robin.ts). */
  webhooks?: number;
  indexers?: number;
  readers?: number;
}

interface RepositoryStateRow {
  repository: string;
  commit: string | null;
  status: string;
}

export class FaultPipeline {
  readonly repos: StreamRepo[] = [];
  readonly indexers: RoleProcess[] = [];
  webhook!: RoleProcess;
  reader!: RoleProcess;
  /** Every webhook and reader process (the first ones are `webhook` and `reader`). */
  readonly webhooks: RoleProcess[] = [];
  readonly readers: RoleProcess[] = [];
  /** Fronts spreading deliveries and reads over several processes (when there are several). */
  webhookFront: RoundRobin | undefined;
  readerFront: RoundRobin | undefined;
  standIn!: GitHubStandIn;
  index!: ElasticsearchIndexStore;
  root = '';
  readonly prefix = uniqueName('fx').replace(/-/g, '');
  readonly brokers: string[];
  readonly logDir: string;

  private constructor(readonly options: FaultPipelineOptions) {
    this.brokers = options.kafkaBrokers
      .split(',')
      .map((b) => b.trim())
      .filter(Boolean);
    this.logDir = join(RESULTS_DIR, 'logs', options.label);
  }

  /** Starts the stand-in, the repositories and the roles (webhook, one indexer, reader); indexes every repository once. */
  static async start(options: FaultPipelineOptions): Promise<FaultPipeline> {
    const p = new FaultPipeline(options);
    try {
      await p.boot();
      return p;
    } catch (error) {
      const tails = p.tails();
      await p.close();
      throw new Error(`the fault pipeline did not start: ${errorText(error)}\n${tails}`, { cause: error });
    }
  }

  private async boot(): Promise<void> {
    const options = this.options;
    rmSync(this.logDir, { recursive: true, force: true });
    mkdirSync(this.logDir, { recursive: true });
    this.root = await makeTempRoot('gitdex-faults-');
    this.index = new ElasticsearchIndexStore({ node: options.elasticsearchUrl, indexPrefix: this.prefix });
    this.standIn = await createGitHubStandIn({ root: this.root, secret: FAULT_SECRET, rateLimit: { limit: 10_000_000 } });
    for (let i = 1; i <= (options.repositories ?? 5); i += 1) {
      const name = `repo${i}`;
      const files: FileChanges = { 'README.md': `# faults/${name}\n`, 'package.json': `{ "name": "${name}" }\n` };
      for (let m = 0; m < 6; m += 1) files[`src/module${m}.ts`] = `export const value${m} = 0;\n`;
      for (let d = 0; d < 8; d += 1) files[`docs/part${d}/guide.md`] = `# part ${d} of ${name}\n`;
      const repo = await createRepo(this.root, 'faults', name, files, { bare: true });
      this.repos.push({ owner: 'faults', name, fullName: `faults/${name}`, dir: repo.dir, id: await this.standIn.repoId('faults', name), pushes: 0, notes: [] });
    }
    const numbered = (role: string, i: number, count: number) => (count > 1 ? `${role}-${i + 1}` : role);
    const webhooks = options.webhooks ?? 1;
    const readers = options.readers ?? 1;
    for (let i = 0; i < webhooks; i += 1) this.webhooks.push(this.role(numbered('webhook', i, webhooks), 'webhook'));
    for (let i = 0; i < readers; i += 1) this.readers.push(this.role(numbered('reader', i, readers), 'reader'));
    this.webhook = this.webhooks[0]!;
    this.reader = this.readers[0]!;
    this.indexer(0);
    // The indexer and the reader create the indices; the webhook creates the topic.
    await Promise.all([this.webhook.start(), this.indexers[0]!.start()]);
    await Promise.all([...this.webhooks.slice(1), ...this.readers, ...Array.from({ length: (options.indexers ?? 1) - 1 }, (_, i) => this.indexer(i + 1))].map((r) => r.start()));
    if (webhooks > 1) this.webhookFront = await startRoundRobin(() => this.webhooks.map((w) => w.url));
    if (readers > 1) this.readerFront = await startRoundRobin(() => this.readers.map((r) => r.url));
    this.standIn.configure({ webhookUrl: `${this.webhookFront?.url ?? this.webhook.url}/webhooks/github` });
    for (const repo of this.repos) {
      const { delivery } = await this.standIn.push(repo.owner, repo.name, { ref: MAIN });
      if (delivery.status !== 202) throw new Error(`the first push of ${repo.fullName} got ${delivery.status} ${delivery.error ?? delivery.responseBody ?? ''}`);
    }
    const converged = await this.waitConverged(120_000);
    if (converged === null) throw new Error(`the first index did not complete:\n${await this.describeState()}`);
  }

  /** The environment every role gets. */
  private env(name: string): Record<string, string> {
    const { kafkaBrokers, elasticsearchUrl, env } = this.options;
    return roleEnvironment({ root: this.root, name, kafkaBrokers, elasticsearchUrl, indexPrefix: this.prefix, githubApiUrl: this.standIn.url, ...(env ? { env } : {}) });
  }

  private role(name: string, role: 'webhook' | 'indexer' | 'reader'): RoleProcess {
    return new RoleProcess({ name, role, env: this.env(name), logFile: join(this.logDir, `${name}.log`) });
  }

  /** The i-th indexer process (0-based), created (not started) on first use; all share the consumer group. */
  indexer(i: number): RoleProcess {
    while (this.indexers.length <= i) this.indexers.push(this.role(`indexer-${this.indexers.length + 1}`, 'indexer'));
    return this.indexers[i]!;
  }

  stream(): PushStream {
    return new PushStream(this, this.options.pushIntervalMs ?? 400).start();
  }

  /**
   * Redelivers (as GitHub's "redeliver" button would) every delivery whose first attempt did
   * not get a 202, until it gets one or `timeoutMs` passes.
   */
  async redeliverRefused(deliveries: DeliveryLog[], timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    await Promise.all(
      deliveries
        .filter((d) => !d.acknowledged)
        .map(async (d) => {
          while (Date.now() < deadline) {
            const record = await this.standIn.redeliver(d.id);
            d.redeliveries.push(record.status);
            if (record.status === 202) {
              d.redeliveredOk = true;
              return;
            }
            // Only "try later" answers are worth another attempt.
            if (record.status !== null && record.status < 500 && record.status !== 429) return;
            await sleep(1000);
          }
        }),
    );
  }

  /** Current heads of every repository on GitHub (the stand-in's git). */
  heads(): Map<number, string> {
    return new Map(this.repos.map((r) => [r.id, gitHead(r.dir, 'main')]));
  }

  /**
   * Polls until every repository's default branch is indexed at GitHub's head, as the index
   * store AND the reader process tell; answers the time it was first seen so, or null.
   */
  async waitConverged(timeoutMs: number): Promise<number | null> {
    const heads = this.heads();
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if ((await this.indexAtHeads(heads).catch(() => false)) && (await this.readersAtHeads(heads))) return Date.now();
      await sleep(250);
    }
    return null;
  }

  private async indexAtHeads(heads: Map<number, string>): Promise<boolean> {
    for (const repo of this.repos) {
      const state = await this.index.getRefState(repo.id, MAIN);
      if (!state || state.commitSha !== heads.get(repo.id) || state.status !== 'ready') return false;
    }
    return true;
  }

  /** Every running reader process answers the heads. */
  private async readersAtHeads(heads: Map<number, string>): Promise<boolean> {
    for (const reader of this.readers.filter((r) => r.running)) {
      if (!(await this.readerAtHeads(reader, heads).catch(() => false))) return false;
    }
    return true;
  }

  private async readerAtHeads(reader: RoleProcess, heads: Map<number, string>): Promise<boolean> {
    const names = this.repos.map((r) => r.fullName).join(',');
    const answer = await fetch(`${reader.url}/v1/repositories?repositories=${encodeURIComponent(names)}`, { signal: AbortSignal.timeout(5000) });
    if (answer.status !== 200) return false;
    const body = (await answer.json()) as { repositories: RepositoryStateRow[] };
    return this.repos.every((repo) => {
      const row = body.repositories.find((r) => r.repository.toLowerCase() === repo.fullName);
      return row !== undefined && row.commit === heads.get(repo.id) && row.status === 'ready';
    });
  }

  /** Index state against GitHub, for failure messages. */
  async describeState(): Promise<string> {
    const heads = this.heads();
    const lines: string[] = [];
    for (const repo of this.repos) {
      const state = await this.index.getRefState(repo.id, MAIN).catch((error: unknown) => `(${errorText(error)})`);
      const shown =
        typeof state === 'string'
          ? state
          : state
            ? `${state.commitSha?.slice(0, 10)} ${state.status} pending=${state.pendingCommitSha?.slice(0, 10) ?? '-'} attempts=${state.attempts ?? 0} error=${state.lastError ?? '-'}`
            : 'no state';
      lines.push(`  ${repo.fullName}: GitHub ${heads.get(repo.id)?.slice(0, 10)}, index ${shown}`);
    }
    return lines.join('\n');
  }

  /**
   * Every acknowledged delivery (first attempt or redelivery) must be in Kafka and its commit must
   * be in the history of what the index serves for its repository.
   */
  async lostDeliveries(deliveries: DeliveryLog[]): Promise<{ delivery: DeliveryLog; why: string }[]> {
    const ids = await readEventIds(this.brokers);
    const reachable = new Map<string, Set<string>>();
    for (const repo of this.repos) {
      const state = await this.index.getRefState(repo.id, MAIN);
      const history = state?.commitSha ? execFileSync('git', ['rev-list', state.commitSha], { cwd: repo.dir }).toString().split('\n').filter(Boolean) : [];
      reachable.set(repo.fullName, new Set(history));
    }
    const lost: { delivery: DeliveryLog; why: string }[] = [];
    for (const d of deliveries.filter((x) => x.acknowledged || x.redeliveredOk)) {
      if (!ids.has(d.id)) lost.push({ delivery: d, why: 'acknowledged but not in the Kafka topic' });
      else if (!reachable.get(d.repository)?.has(d.after)) lost.push({ delivery: d, why: `commit ${d.after.slice(0, 10)} is not in what the index serves` });
    }
    return lost;
  }

  /** The full check: every repository's index equals GitHub (entries, shas, a content sample). */
  async expectIndexEqualsGitEverywhere(): Promise<void> {
    for (const repo of this.repos) await expectIndexEqualsGit(this.index, repo.id, MAIN, repo.dir, { contentSample: 20 });
  }

  /** The last lines of every process's output, for failure messages. */
  tails(lines = 15): string {
    return [...this.webhooks, ...this.indexers, ...this.readers]
      .filter((r) => r !== undefined && r.starts > 0)
      .map((r) => `--- ${r.name} (${r.running ? 'running' : 'not running'}) ---\n${r.output().split('\n').slice(-lines).join('\n')}`)
      .join('\n');
  }

  async close(): Promise<void> {
    await Promise.all([this.webhookFront, this.readerFront].filter((front) => front !== undefined).map((front) => front.close().catch(() => undefined)));
    await Promise.all([...this.webhooks, ...this.readers, ...this.indexers].map((r) => r.stop(10_000).catch(() => undefined)));
    await this.standIn?.close().catch(() => undefined);
    if (this.options.dropIndicesOnClose) {
      await fetch(`${this.options.elasticsearchUrl}/${this.prefix}-*?expand_wildcards=all`, { method: 'DELETE' }).catch(() => undefined);
    }
    await this.index?.close().catch(() => undefined);
    if (this.root) await removeTempRoot(this.root);
  }
}
