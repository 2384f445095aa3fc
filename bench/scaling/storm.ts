// An open-loop push storm: pushes at a fixed rate for a fixed time over many repositories, sent
// on schedule whether or not gitdex keeps up (a closed loop would slow down with the system and
// hide the backlog), then waits until every acknowledged push is readable through the reader.
import { setTimeout as sleep } from 'node:timers/promises';
import type { GitHubStandIn } from '../../test/github-standin/server';
import { topicMessageCount } from '../../test/support/fault-kafka';
import { median, percentile } from '../measure/stats';
import { countersDelta, type IndexerCounters } from './fleet';
import type { FreshnessTracker } from './freshness';
import { reading, snapshot, type MeterContext, type MeterReading } from './meter';
import { pool, prepareCommits, pushNext, type PushOutcome, type ScaleRepo } from './repos';

export interface StormOptions {
  /** Pushes a second, offered. */
  rate: number;
  seconds: number;
  /** How long to wait for the backlog to drain after the last push. */
  drainTimeoutMs: number;
}

export interface StormResult {
  indexers: number;
  offeredRate: number;
  seconds: number;
  pushes: number;
  /** Pushes a second the generator really sent (below `offeredRate` if it fell behind). */
  sentRate: number;
  acknowledged: number;
  refused: number;
  /** Refused first attempts that a redelivery got in. */
  redelivered: number;
  /** Storm start → the last acknowledged push readable, s (null: not drained within the timeout). */
  drainSeconds: number | null;
  /** Acknowledged deliveries ÷ time to drain. */
  eventsPerSecond: number | null;
  /** When not drained: pushes readable ÷ time until the timeout (a lower bound of the rate). */
  readablePerSecondAtTimeout: number | null;
  /** Readable pushes (of the acknowledged ones). */
  readable: number;
  /** Events the indexers gave up on (their dead-letter topic). */
  deadLetters: number;
  /** Events the indexers handled (fewer than acknowledged when a batch coalesced pushes of one ref) and index runs by strategy. */
  indexer: IndexerCounters;
  freshnessP50Ms: number | null;
  freshnessP99Ms: number | null;
  freshnessMaxMs: number | null;
  ackP50Ms: number | null;
  ackP99Ms: number | null;
  meter: MeterReading;
  /** Indexer CPU-seconds per acknowledged push over the storm and its drain. */
  indexerCpuPerPush: number;
  errors: string[];
}

/** Commits enough pushes for the storm on every repository (before it starts: not measured). */
export async function prepareStorm(repos: ScaleRepo[], o: StormOptions): Promise<void> {
  const perRepo = Math.ceil((o.rate * o.seconds) / repos.length) + 1;
  await pool(repos, 4, (repo) => prepareCommits(repo, perRepo));
}

export async function runStorm(
  standIn: GitHubStandIn,
  repos: ScaleRepo[],
  tracker: FreshnessTracker,
  meter: MeterContext,
  indexers: number,
  o: StormOptions & { brokers: string[]; deadLetterTopic: string },
  log: (line: string) => void,
): Promise<StormResult> {
  const total = Math.round(o.rate * o.seconds);
  const outcomes: PushOutcome[] = [];
  const errors: string[] = [];
  const inFlight: Promise<void>[] = [];
  const redelivered: Promise<boolean>[] = [];
  standIn.requests.reset();
  const deadBefore = await topicMessageCount(o.brokers, o.deadLetterTopic).catch(() => 0);
  const before = await snapshot(meter);
  const countersBefore = await meter.fleet.indexerCounters();
  const start = Date.now();
  const progress = setInterval(() => log(`  N=${indexers}: ${outcomes.length}/${total} sent, ${tracker.seen.length} readable, ${tracker.outstanding} waiting`), 10_000);
  try {
    for (let i = 0; i < total; i += 1) {
      const wait = start + (i * 1000) / o.rate - Date.now();
      if (wait > 0) await sleep(wait);
      const repo = repos[i % repos.length]!;
      inFlight.push(
        pushNext(standIn, repo).then(
          (outcome) => {
            if (!outcome) {
              errors.push(`${repo.fullName}: no prepared commit left`);
              return;
            }
            outcomes.push(outcome);
            if (outcome.status === 202) tracker.add(repo, outcome.seq, outcome.sentAt);
            else redelivered.push(redeliver(standIn, outcome).then((ok) => (ok && tracker.add(repo, outcome.seq, outcome.sentAt), ok)));
          },
          (error: unknown) => void errors.push(`${repo.fullName}: ${error instanceof Error ? error.message : String(error)}`),
        ),
      );
    }
    const sentEnd = Date.now();
    await Promise.all(inFlight);
    const redeliveredOk = (await Promise.all(redelivered)).filter(Boolean).length;
    const drainedAt = await tracker.waitAllSeen(o.drainTimeoutMs);
    const after = await snapshot(meter);
    const indexer = countersDelta(countersBefore, await meter.fleet.indexerCounters());
    const deadLetters = (await topicMessageCount(o.brokers, o.deadLetterTopic).catch(() => deadBefore)) - deadBefore;
    const acknowledged = outcomes.filter((x) => x.status === 202).length + redeliveredOk;
    const drainSeconds = drainedAt === null ? null : (drainedAt - start) / 1000;
    const elapsedSeconds = (Date.now() - start) / 1000;
    const fresh = tracker.seen.map((s) => s.freshnessMs);
    const acks = outcomes.map((x) => x.ackMs);
    const m = reading(before, after);
    return {
      indexers,
      offeredRate: o.rate,
      seconds: o.seconds,
      pushes: total,
      sentRate: total / ((sentEnd - start) / 1000),
      acknowledged,
      refused: outcomes.filter((x) => x.status !== 202).length,
      redelivered: redeliveredOk,
      drainSeconds,
      eventsPerSecond: drainSeconds === null ? null : acknowledged / drainSeconds,
      readablePerSecondAtTimeout: drainSeconds === null ? tracker.seen.length / elapsedSeconds : null,
      readable: tracker.seen.length,
      deadLetters,
      indexer,
      freshnessP50Ms: fresh.length ? median(fresh) : null,
      freshnessP99Ms: fresh.length ? percentile(fresh, 0.99) : null,
      freshnessMaxMs: fresh.length ? Math.max(...fresh) : null,
      ackP50Ms: acks.length ? median(acks) : null,
      ackP99Ms: acks.length ? percentile(acks, 0.99) : null,
      // Routes by pattern only while the request log kept every entry (it keeps the last 10,000).
      meter: m.githubRequests < 10_000 ? m : { ...m, routes: {} },
      indexerCpuPerPush: acknowledged > 0 ? m.cpu.indexer / acknowledged : 0,
      errors: [...errors, ...tracker.errors],
    };
  } finally {
    clearInterval(progress);
  }
}

/** Sends a refused delivery again (GitHub's "redeliver") until it gets a 202, for up to a minute. */
async function redeliver(standIn: GitHubStandIn, outcome: PushOutcome): Promise<boolean> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    await sleep(1000);
    const record = await standIn.redeliver(outcome.deliveryId).catch(() => null);
    if (record?.status === 202) return true;
    if (record && record.status !== null && record.status < 500 && record.status !== 429) return false;
  }
  return false;
}
