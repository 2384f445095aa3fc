// Bytes the event log holds per event: every message of a topic read from the beginning up to
// the high watermarks seen at the start, summed (key + value + header keys and values) per
// message key, which is the repository id (eventKey in @gitdex/contracts).
import { Kafka, logLevel } from 'kafkajs';
import { uniqueName } from '../../test/harness/engines';

export interface KeyBytes {
  messages: number;
  bytes: number;
}

export interface TopicBytes {
  messages: number;
  bytes: number;
  byKey: Map<string, KeyBytes>;
}

function headerBytes(headers: Record<string, unknown> | undefined): number {
  let sum = 0;
  for (const [name, value] of Object.entries(headers ?? {})) {
    sum += Buffer.byteLength(name);
    if (Buffer.isBuffer(value)) sum += value.length;
    else if (typeof value === 'string') sum += Buffer.byteLength(value);
  }
  return sum;
}

export async function topicBytes(brokers: string[], topic: string, timeoutMs = 120_000): Promise<TopicBytes> {
  const kafka = new Kafka({ clientId: 'scaling-bytes', brokers, logLevel: logLevel.NOTHING, retry: { retries: 8, initialRetryTime: 300, maxRetryTime: 3000 } });
  const admin = kafka.admin();
  await admin.connect();
  let targets: Map<number, number>;
  try {
    const offsets = await admin.fetchTopicOffsets(topic);
    targets = new Map(offsets.filter((p) => Number(p.high) > Number(p.low)).map((p) => [p.partition, Number(p.high)]));
  } finally {
    await admin.disconnect();
  }
  const result: TopicBytes = { messages: 0, bytes: 0, byKey: new Map() };
  if (targets.size === 0) return result;
  const consumer = kafka.consumer({ groupId: uniqueName('scaling-bytes'), sessionTimeout: 10_000, heartbeatInterval: 1000 });
  await consumer.connect();
  try {
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    const done = new Set<number>();
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`reading ${topic} timed out after ${timeoutMs / 1000} s (${done.size}/${targets.size} partitions read)`)), timeoutMs);
      consumer
        .run({
          autoCommit: false,
          eachBatch: ({ batch }) => {
            const end = targets.get(batch.partition);
            for (const message of batch.messages) {
              if (end === undefined || Number(message.offset) >= end) continue;
              const key = message.key?.toString('utf8') ?? '';
              const bytes = (message.key?.length ?? 0) + (message.value?.length ?? 0) + headerBytes(message.headers);
              result.messages += 1;
              result.bytes += bytes;
              const row = result.byKey.get(key) ?? { messages: 0, bytes: 0 };
              row.messages += 1;
              row.bytes += bytes;
              result.byKey.set(key, row);
              if (Number(message.offset) + 1 >= end) done.add(batch.partition);
            }
            if (done.size >= targets.size) {
              clearTimeout(timer);
              resolve();
            }
            return Promise.resolve();
          },
        })
        .catch((error: unknown) => {
          clearTimeout(timer);
          reject(error instanceof Error ? error : new Error(String(error)));
        });
    });
  } finally {
    await consumer.disconnect().catch(() => undefined);
  }
  return result;
}
