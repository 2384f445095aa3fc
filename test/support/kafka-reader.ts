import { Kafka, logLevel } from 'kafkajs';
import { GitdexEventSchema, type GitdexEvent } from '@gitdex/contracts';
import { kafkaBrokerList, uniqueName } from '../harness/engines';

export interface ReadEvent {
  partition: number;
  offset: number;
  key: string;
  event: GitdexEvent;
  headers: Record<string, string>;
}

/** Reads a topic from the beginning until `count` events arrived (or the timeout passed). */
export async function readEvents(topic: string, count: number, timeoutMs = 20_000, brokers = kafkaBrokerList()): Promise<ReadEvent[]> {
  const kafka = new Kafka({ clientId: 'test-reader', brokers, logLevel: logLevel.NOTHING });
  const consumer = kafka.consumer({ groupId: uniqueName('reader') });
  const events: ReadEvent[] = [];
  await consumer.connect();
  try {
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      void consumer.run({
        eachMessage: async ({ partition, message }) => {
          events.push({
            partition,
            offset: Number(message.offset),
            key: message.key?.toString() ?? '',
            event: GitdexEventSchema.parse(JSON.parse(message.value?.toString() ?? '')),
            headers: Object.fromEntries(Object.entries(message.headers ?? {}).map(([k, v]) => [k, String(v)])),
          });
          if (events.length >= count) {
            clearTimeout(timer);
            resolve();
          }
        },
      });
    });
  } finally {
    await consumer.disconnect();
  }
  return events;
}

/** How many messages a topic holds in all. */
export async function topicSize(topic: string): Promise<number> {
  const kafka = new Kafka({ clientId: 'test-size', brokers: kafkaBrokerList(), logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  try {
    const topics = await admin.listTopics();
    if (!topics.includes(topic)) return 0;
    const offsets = await admin.fetchTopicOffsets(topic);
    return offsets.reduce((sum, p) => sum + Number(p.high) - Number(p.low), 0);
  } finally {
    await admin.disconnect();
  }
}
