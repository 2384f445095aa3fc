import { CompressionTypes, type Kafka, type Producer } from 'kafkajs';
import { EVENTS_TOPIC, eventKey, GitdexEventSchema, type GitdexEvent } from '@gitdex/contracts';
import type { EventHeaders, EventPublisher } from '@gitdex/ports';
import { ensureTopics } from './topics';
import { withDeadline } from './errors';

export interface KafkaPublisherOptions {
  topic?: string;
  partitions?: number;
  /** How long a publish may take before it is reported unavailable; GitHub gives a delivery 10 s. */
  publishTimeoutMs?: number;
}

/**
 * Publishes with the idempotent producer and acks from all in-sync replicas, so a
 * resolved publish is durable and a retried one is not duplicated by the broker.
 */
export class KafkaPublisher implements EventPublisher {
  private readonly producer: Producer;
  private readonly topic: string;
  private readonly partitions: number;
  private readonly publishTimeoutMs: number;
  private connecting: Promise<void> | null = null;

  constructor(private readonly kafka: Kafka, options: KafkaPublisherOptions = {}) {
    this.topic = options.topic ?? EVENTS_TOPIC;
    this.partitions = options.partitions ?? 12;
    this.publishTimeoutMs = options.publishTimeoutMs ?? 6000;
    this.producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
    this.producer.on(this.producer.events.DISCONNECT, () => {
      this.connecting = null;
    });
  }

  async publish(events: { event: GitdexEvent; headers?: EventHeaders }[]): Promise<void> {
    if (events.length === 0) return;
    const messages = events.map(({ event, headers }) => ({
      key: eventKey(event),
      value: JSON.stringify(GitdexEventSchema.parse(event)),
      headers: headers ?? {},
    }));
    await withDeadline(
      (async () => {
        await this.connect();
        await this.producer.send({ topic: this.topic, acks: -1, compression: CompressionTypes.None, messages });
      })(),
      this.publishTimeoutMs,
      'publishing',
    );
  }

  async ping(): Promise<boolean> {
    const admin = this.kafka.admin();
    try {
      await withDeadline(admin.connect().then(() => admin.describeCluster()), 3000, 'pinging');
      return true;
    } catch {
      return false;
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    await this.producer.disconnect();
  }

  private connect(): Promise<void> {
    this.connecting ??= (async () => {
      const admin = this.kafka.admin();
      try {
        await admin.connect();
        await ensureTopics(admin, [{ topic: this.topic, partitions: this.partitions }]);
      } finally {
        await admin.disconnect();
      }
      await this.producer.connect();
    })().catch((error: unknown) => {
      this.connecting = null;
      throw error;
    });
    return this.connecting;
  }
}
