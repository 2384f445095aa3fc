import type { Kafka, Producer, ProducerConfig, ProducerRecord } from 'kafkajs';

/**
 * kafkajs's idempotent producer, one request in flight, that takes a new producer id after a send
 * fails.
 *
 * When a produce request fails, kafkajs hands the partition's sequence numbers back for the next
 * request. But a request can fail after the broker wrote it (the connection closed before the
 * answer came, as when a broker shuts down). The next send to that partition then carries the
 * written batch's sequence numbers; with as many messages, the broker takes it for a retry of that
 * batch, answers with the batch's offset and drops the new messages: the caller is told they are
 * stored, and they are not. A new producer id starts sequences the broker holds nothing against.
 */
export class IdempotentProducer {
  private producer: Producer;
  /** The current producer's connection, made once and again after it dropped. */
  private connecting: Promise<void> | null = null;

  constructor(
    private readonly kafka: Kafka,
    private readonly config: Omit<ProducerConfig, 'idempotent' | 'maxInFlightRequests'> = {},
    /** Runs before each connection (creating the topics, say); a failure fails the send. */
    private readonly beforeConnect: () => Promise<void> = () => Promise.resolve(),
  ) {
    this.producer = this.create();
  }

  async send(record: ProducerRecord): Promise<void> {
    const producer = this.producer;
    try {
      await this.connect(producer);
      await producer.send(record);
    } catch (error) {
      this.renew(producer);
      throw error;
    }
  }

  async disconnect(): Promise<void> {
    await this.producer.disconnect();
  }

  private create(): Producer {
    const producer = this.kafka.producer({ ...this.config, idempotent: true, maxInFlightRequests: 1 });
    producer.on(producer.events.DISCONNECT, () => {
      if (this.producer === producer) this.connecting = null;
    });
    return producer;
  }

  private connect(producer: Producer): Promise<void> {
    const connecting = (this.connecting ??= (async () => {
      await this.beforeConnect();
      await producer.connect();
    })());
    return connecting.catch((error: unknown) => {
      if (this.connecting === connecting) this.connecting = null;
      throw error;
    });
  }

  /** Replaces the producer that failed (once, however many of its sends failed). */
  private renew(failed: Producer): void {
    if (this.producer !== failed) return;
    this.producer = this.create();
    this.connecting = null;
    // The failed producer's connection goes; whether it closes cleanly changes nothing here.
    void failed.disconnect().catch(() => undefined);
  }
}
