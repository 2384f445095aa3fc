import { PortError } from '@gitdex/ports';
import { Kafka, logLevel } from 'kafkajs';

export interface KafkaOptions {
  brokers: string[];
  clientId?: string;
  /** Topic of the pipeline's events; tests use a random one. */
  topic?: string;
  /** Partitions to create the topic with when it does not exist. */
  partitions?: number;
}

export function createKafka(options: KafkaOptions): Kafka {
  if (options.brokers.length === 0) throw new PortError('INVALID', 'KafkaOptions.brokers must name at least one broker (host:port)');
  return new Kafka({
    clientId: options.clientId ?? 'gitdex',
    brokers: options.brokers,
    logLevel: logLevel.NOTHING,
    // Fail fast: the webhook must answer GitHub within its 10 s delivery timeout,
    // and a 503 lets the sender retry rather than hang.
    connectionTimeout: 1500,
    requestTimeout: 5000,
    retry: { retries: 3, initialRetryTime: 100, maxRetryTime: 1000 },
  });
}
