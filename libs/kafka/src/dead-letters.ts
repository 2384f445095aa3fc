import type { Kafka } from 'kafkajs';
import { DEAD_LETTER_TOPIC, DeadLetterSchema, eventOfDeadLetter, type DeadLetter } from '@gitdex/contracts';
import type { DeadLetterStore, EventPublisher } from '@gitdex/ports';
import { ensureTopics } from './topics';
import { IdempotentProducer } from './idempotent-producer';

const REPLAY_GROUP = 'gitdex-dlq-replay';

/**
 * Dead letters live in their own topic. The replay group's committed offset marks
 * which ones were replayed: everything after it is still pending.
 */
export class KafkaDeadLetters implements DeadLetterStore {
  private readonly producer: IdempotentProducer;

  constructor(
    private readonly kafka: Kafka,
    private readonly topic: string = DEAD_LETTER_TOPIC,
    /** Replicas of the topic when it is created; default: chosen from the cluster's size (topics.ts). */
    private readonly replication: { replicationFactor?: number | undefined } = {},
  ) {
    this.producer = new IdempotentProducer(kafka, {}, () => this.ensure());
  }

  async add(letter: DeadLetter): Promise<void> {
    await this.producer.send({ topic: this.topic, acks: -1, messages: [{ key: letter.event ? String(letter.event.repository.id) : null, value: JSON.stringify(DeadLetterSchema.parse(letter)) }] });
  }

  async list(limit: number): Promise<{ id: string; letter: DeadLetter }[]> {
    const pending = await this.readPending(limit);
    return pending.map(({ id, letter }) => ({ id, letter }));
  }

  async replay(publisher: EventPublisher, ids?: string[]): Promise<number> {
    const pending = await this.readPending(Number.MAX_SAFE_INTEGER);
    const chosen = ids ? pending.filter((p) => ids.includes(p.id)) : pending;
    const events = chosen.flatMap(({ letter }) => {
      const event = eventOfDeadLetter(letter);
      return event ? [{ event, headers: { 'gitdex-replayed-from': 'dlq' } }] : [];
    });
    await publisher.publish(events);
    // Only a full replay moves the mark: a partial one leaves the rest listed.
    if (!ids) {
      const admin = this.kafka.admin();
      await admin.connect();
      try {
        const ends = await admin.fetchTopicOffsets(this.topic);
        await admin.setOffsets({ groupId: REPLAY_GROUP, topic: this.topic, partitions: ends.map((e) => ({ partition: e.partition, offset: e.high })) });
      } finally {
        await admin.disconnect();
      }
    }
    return events.length;
  }

  async close(): Promise<void> {
    await this.producer.disconnect();
  }

  private async ensure(): Promise<void> {
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      await ensureTopics(admin, [{ topic: this.topic, partitions: 1 }], this.replication);
    } finally {
      await admin.disconnect();
    }
  }

  /** Reads the letters after the replay mark, by fetching the partition directly. */
  private async readPending(limit: number): Promise<{ id: string; letter: DeadLetter }[]> {
    await this.ensure();
    const admin = this.kafka.admin();
    await admin.connect();
    let ranges: { partition: number; from: number; to: number }[];
    try {
      const ends = await admin.fetchTopicOffsets(this.topic);
      const marks = await admin.fetchOffsets({ groupId: REPLAY_GROUP, topics: [this.topic] });
      const mark = new Map((marks[0]?.partitions ?? []).map((p) => [p.partition, Number(p.offset)]));
      ranges = ends.map((e) => ({ partition: e.partition, from: Math.max(Number(e.low), mark.get(e.partition) ?? -1), to: Number(e.high) }));
    } finally {
      await admin.disconnect();
    }
    const wanted = ranges.filter((r) => r.to > r.from);
    if (wanted.length === 0) return [];
    const total = wanted.reduce((sum, r) => sum + r.to - r.from, 0);
    const result: { id: string; letter: DeadLetter }[] = [];
    const consumer = this.kafka.consumer({ groupId: `gitdex-dlq-reader-${process.pid}-${Date.now()}` });
    await consumer.connect();
    try {
      await consumer.subscribe({ topics: [this.topic], fromBeginning: true });
      await new Promise<void>((resolve, reject) => {
        let seen = 0;
        const timeout = setTimeout(() => reject(new Error('reading dead letters timed out')), 30000);
        consumer
          .run({
            autoCommit: false,
            eachMessage: ({ partition, message }) => {
              const range = wanted.find((r) => r.partition === partition);
              const offset = Number(message.offset);
              if (!range || offset < range.from || offset >= range.to) return Promise.resolve();
              seen += 1;
              if (result.length < limit) result.push({ id: `${partition}:${offset}`, letter: DeadLetterSchema.parse(JSON.parse(message.value?.toString('utf8') ?? '{}')) });
              if (seen >= total) {
                clearTimeout(timeout);
                resolve();
              }
              return Promise.resolve();
            },
          })
          .catch((error: unknown) => {
            // The read failed: its deadline must not keep the process alive for the rest of it.
            clearTimeout(timeout);
            reject(error instanceof Error ? error : new Error(String(error)));
          });
      });
    } finally {
      await consumer.disconnect();
    }
    return result;
  }
}
