import { CompressionTypes, type Kafka, type Message } from 'kafkajs';
import { EVENTS_TOPIC, eventKey, GitdexEventSchema, type GitdexEvent } from '@gitdex/contracts';
import type { EventHeaders, EventPublisher } from '@gitdex/ports';
import { ensureTopics } from './topics';
import { withDeadline } from './errors';
import { IdempotentProducer } from './idempotent-producer';

export interface KafkaPublisherOptions {
  topic?: string;
  partitions?: number;
  /** Replicas of the topic when this publisher creates it; default: chosen from the cluster's size (topics.ts). */
  replicationFactor?: number | undefined;
  /** How long a publish may take before it is reported unavailable; GitHub gives a delivery 10 s. */
  publishTimeoutMs?: number;
}

/**
 * Publishes with the idempotent producer and acks from all in-sync replicas, so a
 * resolved publish is durable and a retried one is not duplicated by the broker
 * (nor taken for a duplicate after a failed one: idempotent-producer.ts).
 */
export class KafkaPublisher implements EventPublisher {
  private readonly producer: IdempotentProducer;
  private readonly topic: string;
  private readonly partitions: number;
  private readonly publishTimeoutMs: number;
  private readonly replicationFactor: number | undefined;
  private readonly waiting: { messages: Message[]; resolve: () => void; reject: (error: unknown) => void }[] = [];
  private sending = false;

  constructor(
    private readonly kafka: Kafka,
    options: KafkaPublisherOptions = {},
  ) {
    this.topic = options.topic ?? EVENTS_TOPIC;
    this.partitions = options.partitions ?? 12;
    this.publishTimeoutMs = options.publishTimeoutMs ?? 6000;
    this.replicationFactor = options.replicationFactor;
    this.producer = new IdempotentProducer(kafka, { allowAutoTopicCreation: false }, () => this.ensureTopic());
  }

  async publish(events: { event: GitdexEvent; headers?: EventHeaders }[]): Promise<void> {
    if (events.length === 0) return;
    const messages: Message[] = events.map(({ event, headers }) => ({
      key: eventKey(event),
      value: JSON.stringify(GitdexEventSchema.parse(event)),
      headers: headers ?? {},
    }));
    await withDeadline(this.enqueue(messages), this.publishTimeoutMs, 'publishing');
  }

  /**
   * The idempotent producer keeps one request in flight, so concurrent publishes would
   * queue one request each. Instead, everything that arrives while a request is in
   * flight goes out together in the next one: one broker round trip for many webhooks,
   * each caller still resolved only once its own messages were acknowledged.
   */
  private enqueue(messages: Message[]): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ messages, resolve, reject });
      if (!this.sending) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.sending = true;
    try {
      while (this.waiting.length > 0) {
        const batch = this.waiting.splice(0, this.waiting.length);
        try {
          await this.producer.send({ topic: this.topic, acks: -1, compression: CompressionTypes.None, messages: batch.flatMap((b) => b.messages) });
          batch.forEach((b) => b.resolve());
        } catch (error) {
          batch.forEach((b) => b.reject(error));
        }
      }
    } finally {
      this.sending = false;
    }
  }

  async ping(): Promise<boolean> {
    const admin = this.kafka.admin();
    try {
      await withDeadline(
        admin.connect().then(() => admin.describeCluster()),
        3000,
        'pinging',
      );
      return true;
    } catch {
      return false;
    } finally {
      // The ping's answer stands whether or not its admin connection closes cleanly; kafkajs logs the failure itself.
      await admin.disconnect().catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    await this.producer.disconnect();
  }

  private async ensureTopic(): Promise<void> {
    const admin = this.kafka.admin();
    try {
      await admin.connect();
      await ensureTopics(admin, [{ topic: this.topic, partitions: this.partitions }], { replicationFactor: this.replicationFactor });
    } finally {
      await admin.disconnect();
    }
  }
}
