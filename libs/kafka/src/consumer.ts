import type { Consumer, Kafka, KafkaMessage } from 'kafkajs';
import { EVENTS_TOPIC, GitdexEventSchema } from '@gitdex/contracts';
import type { EventBatchHandler, EventConsumer, EventEnvelope } from '@gitdex/ports';
import { ensureTopics } from './topics';

export interface KafkaConsumerOptions {
  groupId?: string;
  topic?: string;
  partitions?: number;
  /** Partitions handled at the same time by one worker (different repositories). */
  concurrency?: number;
  sessionTimeoutMs?: number;
  /** Called for a message that is not a valid event; it is skipped (it can never succeed). */
  onMalformed?: (raw: string, error: unknown) => void | Promise<void>;
  /** Told when the consumer crashed, and whether kafkajs restarts it. */
  onCrash?: (error: Error, restarting: boolean) => void;
}

/**
 * A member of the indexer consumer group. A batch's offsets are committed only after
 * the handler resolved; a thrown error leaves them to be delivered again. While the
 * handler runs, a timer heartbeats so long work never costs the group membership
 * (kafkajs only heartbeats between batches on its own).
 */
export class KafkaConsumer implements EventConsumer {
  private readonly consumer: Consumer;
  private readonly topic: string;
  private readonly partitions: number;
  private readonly concurrency: number;
  private readonly groupId: string;
  private crashed = false;

  constructor(private readonly kafka: Kafka, private readonly options: KafkaConsumerOptions = {}) {
    this.topic = options.topic ?? EVENTS_TOPIC;
    this.partitions = options.partitions ?? 12;
    this.concurrency = options.concurrency ?? 4;
    this.groupId = options.groupId ?? 'gitdex-indexer';
    this.consumer = kafka.consumer({
      groupId: this.groupId,
      // A crashed member blocks the group's rebalance until its session expires; the
      // heartbeat timer below keeps long batches alive, so a short session is safe.
      sessionTimeout: options.sessionTimeoutMs ?? 10000,
      heartbeatInterval: 3000,
      rebalanceTimeout: 60000,
      retry: { retries: 10, initialRetryTime: 300, maxRetryTime: 5000 },
    });
  }

  /** False once kafkajs gave up restarting after a crash: /readyz reports it and the process should be replaced. */
  get healthy(): boolean {
    return !this.crashed;
  }

  async start(handler: EventBatchHandler): Promise<void> {
    this.consumer.on(this.consumer.events.CRASH, ({ payload }) => {
      if (!payload.restart) this.crashed = true;
      this.options.onCrash?.(payload.error, payload.restart);
    });
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      await ensureTopics(admin, [{ topic: this.topic, partitions: this.partitions }]);
    } finally {
      await admin.disconnect();
    }
    await this.consumer.connect();
    await this.consumer.subscribe({ topics: [this.topic], fromBeginning: true });
    await this.consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: this.concurrency,
      eachBatch: async ({ batch, heartbeat, resolveOffset, commitOffsetsIfNecessary, isRunning, isStale }) => {
        if (!isRunning() || isStale() || batch.messages.length === 0) return;
        const envelopes: EventEnvelope[] = [];
        for (const message of batch.messages) {
          const envelope = await this.decode(message, batch.partition);
          if (envelope) envelopes.push(envelope);
        }
        const timer = setInterval(() => {
          heartbeat().catch(() => undefined);
        }, 2000);
        try {
          if (envelopes.length > 0) await handler(envelopes, { heartbeat });
        } finally {
          clearInterval(timer);
        }
        const last = batch.messages[batch.messages.length - 1];
        if (last) resolveOffset(last.offset);
        await commitOffsetsIfNecessary();
        await heartbeat();
      },
    });
  }

  async lag(): Promise<number> {
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      const [ends, committed] = await Promise.all([
        admin.fetchTopicOffsets(this.topic),
        admin.fetchOffsets({ groupId: this.groupId, topics: [this.topic] }),
      ]);
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
    await this.consumer.disconnect();
  }

  private async decode(message: KafkaMessage, partition: number): Promise<EventEnvelope | null> {
    const raw = message.value?.toString('utf8') ?? '';
    try {
      const event = GitdexEventSchema.parse(JSON.parse(raw));
      const headers = Object.fromEntries(
        Object.entries(message.headers ?? {}).flatMap(([key, value]) => (value === undefined ? [] : [[key, String(value)]])),
      );
      return { event, headers, position: `${this.topic}/${partition}/${message.offset}` };
    } catch (error) {
      await this.options.onMalformed?.(raw, error);
      return null;
    }
  }
}
