import type { Consumer, Kafka, KafkaMessage } from 'kafkajs';
import { EVENTS_TOPIC, GitdexEventSchema } from '@gitdex/contracts';
import { errorFields, type Log } from '@gitdex/observability';
import type { EventBatchHandler, EventConsumer, EventEnvelope } from '@gitdex/ports';
import { ensureTopics } from './topics';

/** Group members per indexer process unless told otherwise: partitions worked on at once. */
export const DEFAULT_CONSUMER_MEMBERS = 4;

export interface KafkaConsumerOptions {
  groupId?: string;
  topic?: string;
  partitions?: number;
  /** Replicas of the topic when this consumer creates it; default: chosen from the cluster's size (topics.ts). */
  replicationFactor?: number | undefined;
  /**
   * Partitions handled at the same time by one worker (different repositories): this many
   * group members in the process, each with its own fetch loop and a share of the partitions.
   */
  concurrency?: number;
  sessionTimeoutMs?: number;
  /** Where a crash, a lost heartbeat and a malformed message are told. */
  log: Log;
  /**
   * Called for a message that is not a valid event (it can never succeed), e.g. to dead-letter
   * it; it is skipped afterwards. It is always logged.
   */
  onMalformed?: (raw: string, error: unknown) => void | Promise<void>;
}

/**
 * The indexer's members of the consumer group. A batch's offsets are committed only after
 * the handler resolved; a thrown error leaves them to be delivered again. While the
 * handler runs, a timer heartbeats so long work never costs the group membership
 * (kafkajs only heartbeats between batches on its own).
 *
 * Concurrency comes from several members, not from partitionsConsumedConcurrently: kafkajs
 * fetches a broker's next batches only once every batch of the last fetch is handled, so
 * with one member one repository being indexed held back the pushes of all the others
 * (196 ms median wait under a stream of pushes). Each member fetches on its own.
 */
export class KafkaConsumer implements EventConsumer {
  private readonly members: Consumer[];
  private readonly topic: string;
  private readonly partitions: number;
  private readonly concurrency: number;
  private readonly groupId: string;
  private crashed = false;

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
    } finally {
      await admin.disconnect();
    }
    await Promise.all(this.members.map((member) => this.run(member, handler)));
  }

  private async run(member: Consumer, handler: EventBatchHandler): Promise<void> {
    await member.connect();
    await member.subscribe({ topics: [this.topic], fromBeginning: true });
    await member.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      // kafkajs declares the payload's functions as methods: called through the payload, not destructured.
      eachBatch: async (payload) => {
        const { batch } = payload;
        const heartbeat = () => payload.heartbeat();
        if (!payload.isRunning() || payload.isStale() || batch.messages.length === 0) return;
        const envelopes: EventEnvelope[] = [];
        for (const message of batch.messages) {
          const envelope = await this.decode(message, batch.partition);
          if (envelope) envelopes.push(envelope);
        }
        const timer = setInterval(() => {
          heartbeat().catch((error: unknown) => this.options.log.warn({ ...errorFields(error), partition: batch.partition }, 'Kafka heartbeat failed during a long batch; the group may rebalance'));
        }, 2000);
        try {
          if (envelopes.length > 0) await handler(envelopes, { heartbeat });
        } finally {
          clearInterval(timer);
        }
        const last = batch.messages[batch.messages.length - 1];
        if (last) payload.resolveOffset(last.offset);
        await payload.commitOffsetsIfNecessary();
        await heartbeat();
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

  async stop(): Promise<void> {
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
