import type { Admin, Consumer, Kafka, KafkaMessage } from 'kafkajs';
import { EVENTS_TOPIC, GitdexEventSchema } from '@gitdex/contracts';
import { errorFields, type Log } from '@gitdex/observability';
import type { EventBatchHandler, EventConsumer, EventEnvelope } from '@gitdex/ports';
import { ensureTopics } from './topics';
import { DEFAULT_IN_FLIGHT, InFlightScheduler, type InFlightLimits } from './in-flight';
import { PartitionProgress } from './partition-progress';

/** Group members per indexer process unless told otherwise: fetch loops feeding the process's one in-flight scheduler. */
export const DEFAULT_CONSUMER_MEMBERS = 4;

export interface KafkaConsumerOptions {
  groupId?: string;
  topic?: string;
  partitions?: number;
  /** Replicas of the topic when this consumer creates it; default: chosen from the cluster's size (topics.ts). */
  replicationFactor?: number | undefined;
  /**
   * Group members in the process, each with its own fetch loop and a share of the partitions;
   * how many repositories are handled at once is `inFlight.keys`, not this.
   */
  concurrency?: number;
  sessionTimeoutMs?: number;
  /** Events, bytes and repositories in flight in the process (see InFlightScheduler); defaults: DEFAULT_IN_FLIGHT. */
  inFlight?: Partial<InFlightLimits> | undefined;
  /** Wait before the events of a repository whose handler threw are handled again. */
  retryDelayMs?: number;
  /** Where a crash, a lost heartbeat and a malformed message are told. */
  log: Log;
  /**
   * Called for a message that is not a valid event (it can never succeed), e.g. to dead-letter
   * it; it is skipped afterwards. It is always logged.
   */
  onMalformed?: (raw: string, error: unknown) => void | Promise<void>;
}

/**
 * The indexer's members of the consumer group, feeding one in-flight scheduler for the process.
 * A member's fetch loop hands each message to the scheduler and moves on (waiting only while
 * the in-flight bounds are reached: that pause is the backpressure), so one repository being
 * indexed holds back neither its partition nor its member: many repositories are handled at
 * once, each repository's events in order. Offsets are committed by hand, per partition, only
 * below the oldest unfinished event (PartitionProgress); a crash replays from there, and events
 * are idempotent. When the group rebalances, a member's progresses are retired before it fetches
 * for the new generation: what they still have in flight finishes or is dropped but never
 * commits, and the partition's owner refetches it from the last commit.
 *
 * kafkajs's eachBatch is used with eachBatchAutoResolve and autoCommit off: resolveOffset moves
 * the fetch position past what the scheduler took, and commits name their own offsets.
 */
export class KafkaConsumer implements EventConsumer {
  private readonly members: Consumer[];
  private readonly topic: string;
  private readonly partitions: number;
  private readonly concurrency: number;
  private readonly groupId: string;
  private crashed = false;
  private scheduler: InFlightScheduler | undefined;

  constructor(
    private readonly kafka: Kafka,
    private readonly options: KafkaConsumerOptions,
  ) {
    this.topic = options.topic ?? EVENTS_TOPIC;
    this.partitions = options.partitions ?? 12;
    this.concurrency = options.concurrency ?? DEFAULT_CONSUMER_MEMBERS;
    this.groupId = options.groupId ?? 'gitdex-indexer';
    this.members = Array.from({ length: this.concurrency }, () =>
      kafka.consumer({
        groupId: this.groupId,
        // A crashed member blocks the group's rebalance until its session expires; the
        // heartbeat timer below keeps long batches alive, so a short session is safe.
        sessionTimeout: options.sessionTimeoutMs ?? 10000,
        heartbeatInterval: 3000,
        rebalanceTimeout: 60000,
        retry: { retries: 10, initialRetryTime: 300, maxRetryTime: 5000 },
      }),
    );
  }

  /** False once kafkajs gave up restarting after a crash: /readyz reports it and the process should be replaced. */
  get healthy(): boolean {
    return !this.crashed;
  }

  async start(handler: EventBatchHandler): Promise<void> {
    // Members' batches are ended by the fetch loop moving on, so heartbeats come from kafkajs itself.
    const heartbeat = () => Promise.resolve();
    const scheduler = new InFlightScheduler({
      limits: { ...DEFAULT_IN_FLIGHT, ...definedOf(this.options.inFlight ?? {}) },
      handle: (envelopes) => handler(envelopes, { heartbeat }),
      retryDelayMs: this.options.retryDelayMs ?? 1000,
      onRetry: (error, key, events) => this.options.log.warn({ ...errorFields(error), partitionKey: key, events }, 'events of a repository failed; handled again after the retry delay'),
    });
    this.scheduler = scheduler;
    for (const member of this.members) {
      member.on(member.events.CRASH, ({ payload }) => {
        if (!payload.restart) this.crashed = true;
        this.options.log.error(
          { ...errorFields(payload.error), restarting: payload.restart, groupId: payload.groupId },
          payload.restart ? 'Kafka consumer crashed; kafkajs restarts it' : 'Kafka consumer crashed for good; /readyz now fails',
        );
      });
    }
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      await ensureTopics(admin, [{ topic: this.topic, partitions: this.partitions }], { replicationFactor: this.options.replicationFactor });
      await this.awaitCoordinator(admin);
    } finally {
      await admin.disconnect();
    }
    await Promise.all(this.members.map((member) => this.run(member, scheduler)));
  }

  /**
   * On a fresh cluster the group's coordinator exists only once the broker has created its
   * offsets topic, and kafkajs gives a member up for good (no restart) when it cannot find it in
   * its few retries: asking for the group first, for up to a minute, lets the members join.
   */
  private async awaitCoordinator(admin: Admin): Promise<void> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        await admin.describeGroups([this.groupId]);
        return;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        this.options.log.warn({ ...errorFields(error), groupId: this.groupId }, 'Kafka group coordinator not available yet; asking again');
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  }

  private async run(member: Consumer, scheduler: InFlightScheduler): Promise<void> {
    let progresses = new Map<number, PartitionProgress>();
    // A new generation may have moved any partition: nothing fetched before it commits after it.
    member.on(member.events.GROUP_JOIN, () => {
      for (const progress of progresses.values()) progress.retire();
      progresses = new Map();
    });
    const progressOf = (partition: number): PartitionProgress => {
      let progress = progresses.get(partition);
      if (!progress) {
        progress = new PartitionProgress(
          (offset) => member.commitOffsets([{ topic: this.topic, partition, offset: offset.toString() }]),
          (error) => this.options.log.warn({ ...errorFields(error), partition }, 'Kafka offset commit failed; the next finished event commits again'),
        );
        progresses.set(partition, progress);
      }
      return progress;
    };
    await member.connect();
    await member.subscribe({ topics: [this.topic], fromBeginning: true });
    await member.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      // kafkajs declares the payload's functions as methods: called through the payload, not destructured.
      eachBatch: async (payload) => {
        const { batch } = payload;
        if (!payload.isRunning() || payload.isStale() || batch.messages.length === 0) return;
        const progress = progressOf(batch.partition);
        // Waiting for room can outlast the session: heartbeat meanwhile.
        const timer = setInterval(() => {
          payload
            .heartbeat()
            .catch((error: unknown) =>
              this.options.log.warn({ ...errorFields(error), partition: batch.partition }, 'Kafka heartbeat failed while the in-flight bound held fetching; the group may rebalance'),
            );
        }, 2000);
        try {
          for (const message of batch.messages) {
            if (!payload.isRunning() || payload.isStale() || progress.retired) return;
            const offset = BigInt(message.offset);
            if (!progress.see(offset)) continue;
            const envelope = await this.decode(message, batch.partition);
            if (!envelope) {
              progress.finish(offset);
            } else {
              const key = message.key?.toString('utf8') || String(envelope.event.repository.id);
              const admitted = await scheduler.admit({ envelope, key, bytes: message.value?.length ?? 0, progress, offset });
              if (!admitted) return;
            }
            payload.resolveOffset(message.offset);
          }
        } finally {
          clearInterval(timer);
        }
      },
    });
  }

  async lag(): Promise<number> {
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      const [ends, committed] = await Promise.all([admin.fetchTopicOffsets(this.topic), admin.fetchOffsets({ groupId: this.groupId, topics: [this.topic] })]);
      const done = new Map((committed[0]?.partitions ?? []).map((p) => [p.partition, Number(p.offset)]));
      return ends.reduce((sum, end) => {
        const at = done.get(end.partition) ?? -1;
        const from = at < 0 ? Number(end.low) : at;
        return sum + Math.max(0, Number(end.high) - from);
      }, 0);
    } finally {
      await admin.disconnect();
    }
  }

  /** Stops fetching and handling; events under way finish and commit first, the rest are left to the group. */
  async stop(): Promise<void> {
    await this.scheduler?.close();
    await Promise.all(this.members.map((member) => member.disconnect()));
  }

  private async decode(message: KafkaMessage, partition: number): Promise<EventEnvelope | null> {
    const raw = message.value?.toString('utf8') ?? '';
    try {
      const event = GitdexEventSchema.parse(JSON.parse(raw));
      const headers = Object.fromEntries(Object.entries(message.headers ?? {}).flatMap(([key, value]) => (value === undefined ? [] : [[key, String(value)]])));
      return { event, headers, position: `${this.topic}/${partition}/${message.offset}` };
    } catch (error) {
      this.options.log.error({ ...errorFields(error), topic: this.topic, partition, offset: message.offset }, 'Kafka message is not a valid event; skipped');
      await this.options.onMalformed?.(raw, error);
      return null;
    }
  }
}

function definedOf<T extends object>(partial: Partial<T>): Partial<T> {
  return Object.fromEntries(Object.entries(partial).filter(([, value]) => value !== undefined)) as Partial<T>;
}
