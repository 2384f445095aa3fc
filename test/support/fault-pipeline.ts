// The whole product as separate CHILD PROCESSES (one webhook, one or more indexers, one reader)
// on real Kafka and Elasticsearch, fed by the GitHub stand-in, with a stream of pushes to several
// repositories. measureFault() injects one fault while the stream flows and then checks that
// nothing acknowledged was lost and that the index equals GitHub, and records how long that took.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ElasticsearchIndexStore } from '@gitdex/elasticsearch';
import { commitFiles, createRepo, makeTempRoot, removeTempRoot, type FileChanges } from '../github-standin/fixture-repos';
import { createGitHubStandIn, type GitHubStandIn } from '../github-standin/server';
import { uniqueName } from '../harness/engines';
import { deadLetterCount, readEventIds } from './fault-kafka';
import { RoleProcess } from './fault-process';
import { RESULTS_DIR, type FaultResult, type FaultResults } from './fault-results';
import { startRoundRobin, type RoundRobin } from './round-robin';
import { gitHead } from './git-truth';
import { expectIndexEqualsGit } from './index-truth';

export const MAIN = 'refs/heads/main';
export const FAULT_SECRET = 'fault-suite-secret';

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

export interface StreamRepo {
  owner: string;
  name: string;
  fullName: string;
  dir: string;
  id: number;
  pushes: number;
  notes: string[];
}

export interface DeliveryLog {
  id: string;
  repository: string;
  after: string;
  /** Status of the first attempt; null when the webhook could not be reached. */
  status: number | null;
  error: string | null;
  at: number;
  /** Answered 202 at the first attempt. */
  acknowledged: boolean;
  /** Statuses of the redeliveries (null: not reachable). */
  redeliveries: (number | null)[];
  /** A redelivery got a 202. */
  redeliveredOk: boolean;
}

interface RepositoryStateRow {
  repository: string;
  commit: string | null;
  status: string;
}

/** The files of push number `n` to a repository: a few modules change, notes come and go. */
function changesOf(repo: StreamRepo, n: number): FileChanges {
  const changes: FileChanges = {
    'README.md': `# ${repo.fullName}\n\nPush ${n}.\n`,
    [`src/module${n % 6}.ts`]: `// ${repo.fullName}, push ${n}\nexport const value${n % 6} = ${n};\n`,
  };
  if (n % 3 === 0) {
    const note = `notes/n${n}.md`;
    changes[note] = `note of push ${n}\n`;
    repo.notes.push(note);
    if (repo.notes.length > 4) changes[repo.notes.shift()!] = null;
  }
  return changes;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Pushes to every repository in parallel (one loop each) until stopped, logging every delivery. */
export class PushStream {
  readonly deliveries: DeliveryLog[] = [];
  readonly errors: string[] = [];
  private stopped = false;
  private loops: Promise<void>[] = [];

  constructor(private readonly pipeline: FaultPipeline, private readonly intervalMs: number) {}

  start(): this {
    this.loops = this.pipeline.repos.map((repo) => this.loop(repo));
    return this;
  }

  get acknowledgedCount(): number {
    return this.deliveries.filter((d) => d.acknowledged).length;
  }

  /** Stops pushing; resolves once the pushes in flight got their answers. */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.loops);
  }

  private async loop(repo: StreamRepo): Promise<void> {
    while (!this.stopped) {
      try {
        repo.pushes += 1;
        await commitFiles(repo.dir, changesOf(repo, repo.pushes), `push ${repo.pushes}`);
        const at = Date.now();
        const { payload, delivery } = await this.pipeline.standIn.push(repo.owner, repo.name, { ref: MAIN });
        this.deliveries.push({
          id: delivery.id,
          repository: repo.fullName,
          after: payload.after,
          status: delivery.status,
          error: delivery.error,
          at,
          acknowledged: delivery.status === 202,
          redeliveries: [],
          redeliveredOk: false,
        });
      } catch (error) {
        this.errors.push(`${repo.fullName}: ${errorText(error)}`);
      }
      if (!this.stopped) await sleep(Math.round(this.intervalMs * (0.5 + Math.random())));
    }
  }
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
    this.brokers = options.kafkaBrokers.split(',').map((b) => b.trim()).filter(Boolean);
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
    const dataDir = join(this.root, '.data', name);
    mkdirSync(dataDir, { recursive: true });
    return {
      KAFKA_BROKERS: this.options.kafkaBrokers,
      KAFKA_CLIENT_ID: `gitdex-${name}`,
      ELASTICSEARCH_URL: this.options.elasticsearchUrl,
      ELASTICSEARCH_INDEX_PREFIX: this.prefix,
      GITHUB_API_URL: this.standIn.url,
      GITHUB_WEB_URL: 'https://github.example.test',
      GITHUB_WEBHOOK_SECRETS: FAULT_SECRET,
      GITDEX_DATA_DIR: dataDir,
      ...this.options.env,
    };
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
      const shown = typeof state === 'string' ? state : state ? `${state.commitSha?.slice(0, 10)} ${state.status} pending=${state.pendingCommitSha?.slice(0, 10) ?? '-'} attempts=${state.attempts ?? 0} error=${state.lastError ?? '-'}` : 'no state';
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

export interface FaultContext {
  pipeline: FaultPipeline;
  stream: PushStream;
  /** Marks the moment the fault was injected (default: when inject() was called). */
  injected: () => void;
  /**
   * Marks the end of the fault (default: when inject() resolves) and stops the stream: e.g. the
   * moment a killed process is started again, so that its start-up counts as recovery.
   */
  ended: () => void;
  /** Adds a sentence to the row's notes. */
  note: (text: string) => void;
  /** Adds a sentence known later (e.g. an observation running on), awaited before the row is written. */
  noteLater: (text: Promise<string>) => void;
}

export interface FaultSpec {
  fault: string;
  /** How many times inject() injects the fault (for the table); default 1. */
  injections?: number;
  /** Injects the fault while the stream flows; resolves when the fault is over (engine or process back). */
  inject(ctx: FaultContext): Promise<void>;
  /** Pushes before the fault; default 2 s. */
  streamBeforeMs?: number;
  /** How long the index may take to equal GitHub after the fault; default 120 s. */
  recoveryTimeoutMs?: number;
}

/**
 * Runs one fault: starts a push stream, injects the fault, stops the stream when the fault is
 * over, redelivers what was not acknowledged, waits until the index equals GitHub, records the
 * row and asserts: nothing acknowledged lost, everything redelivered, index equals GitHub.
 */
export async function measureFault(p: FaultPipeline, results: FaultResults, spec: FaultSpec): Promise<FaultResult> {
  const deadBefore = await deadLetterCount(p.brokers).catch(() => 0);
  const notes: string[] = [];
  const stream = p.stream();
  await sleep(spec.streamBeforeMs ?? 2000);
  let injectedAt = Date.now();
  let endedAt: number | undefined;
  let stopping: Promise<void> | undefined;
  const later: Promise<string>[] = [];
  let injectError: unknown;
  try {
    await spec.inject({
      pipeline: p,
      stream,
      injected: () => void (injectedAt = Date.now()),
      ended: () => {
        endedAt ??= Date.now();
        stopping ??= stream.stop();
      },
      note: (text) => void notes.push(text),
      noteLater: (text) => void later.push(text.catch((error: unknown) => `(${errorText(error)})`)),
    });
  } catch (error) {
    injectError = error;
  }
  const faultEnd = endedAt ?? Date.now();
  await (stopping ?? stream.stop());
  await p.redeliverRefused(stream.deliveries);
  const convergedAt = injectError === undefined ? await p.waitConverged(spec.recoveryTimeoutMs ?? 120_000) : null;
  const state = convergedAt === null ? await p.describeState() : '';
  let lost: { delivery: DeliveryLog; why: string }[] = [];
  let lostError: unknown;
  try {
    lost = await p.lostDeliveries(stream.deliveries);
  } catch (error) {
    lostError = error;
  }
  const deadAfter = await deadLetterCount(p.brokers).catch(() => deadBefore);
  notes.push(...(await Promise.all(later)));
  const refused = stream.deliveries.filter((d) => !d.acknowledged);
  const statuses = [...new Set(refused.map((d) => (d.status === null ? 'no connection' : String(d.status))))];
  if (refused.length > 0) notes.push(`first attempts without 202: ${refused.length} (${statuses.join(', ')})`);
  const row = results.add({
    fault: spec.fault,
    injections: spec.injections ?? 1,
    deliveries: stream.deliveries.length,
    acknowledged: stream.acknowledgedCount,
    refused: refused.length,
    redelivered: refused.filter((d) => d.redeliveredOk).length,
    lost: lostError === undefined ? lost.length : -1,
    deadLettered: deadAfter - deadBefore,
    faultSeconds: (faultEnd - injectedAt) / 1000,
    recoverySeconds: convergedAt === null ? null : (convergedAt - faultEnd) / 1000,
    notes: notes.join('; '),
  });
  process.stdout.write(`[faults] ${JSON.stringify(row)}\n`);

  if (injectError !== undefined) throw injectError as Error;
  expect(stream.errors).toEqual([]);
  if (lostError !== undefined) throw lostError as Error;
  expect(lost.map((l) => `${l.delivery.repository} ${l.delivery.id}: ${l.why}`)).toEqual([]);
  expect(refused.filter((d) => !d.redeliveredOk).map((d) => `${d.repository} ${d.id}: first ${d.status ?? d.error}, redeliveries ${JSON.stringify(d.redeliveries)}`)).toEqual([]);
  if (convergedAt === null) {
    throw new Error(`${spec.fault}: the index did not equal GitHub within ${(spec.recoveryTimeoutMs ?? 120_000) / 1000}s of the fault's end:\n${state}\n${p.tails()}`);
  }
  await p.expectIndexEqualsGitEverywhere();
  // The stream really flowed: several repositories got acknowledged pushes.
  expect(new Set(stream.deliveries.filter((d) => d.acknowledged || d.redeliveredOk).map((d) => d.repository)).size).toBe(p.repos.length);
  return row;
}
