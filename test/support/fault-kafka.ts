// What the event log holds, read straight from Kafka by the fault tests: the ids of every event in
// the topic (an acknowledged delivery must be there) and how many dead letters were written.
import { Kafka, logLevel } from 'kafkajs';
import { DEAD_LETTER_TOPIC, EVENTS_TOPIC } from '@gitdex/contracts';
import { uniqueName } from '../harness/engines';

function client(brokers: string[], clientId: string): Kafka {
  return new Kafka({ clientId, brokers, logLevel: logLevel.NOTHING, retry: { retries: 8, initialRetryTime: 300, maxRetryTime: 3000 } });
}

/** Sum of (high - low) watermarks of a topic; 0 when the topic does not exist. */
export async function topicMessageCount(brokers: string[], topic: string): Promise<number> {
  const admin = client(brokers, 'fault-admin').admin();
  await admin.connect();
  try {
    if (!(await admin.listTopics()).includes(topic)) return 0;
    const offsets = await admin.fetchTopicOffsets(topic);
    return offsets.reduce((sum, p) => sum + Number(p.high) - Number(p.low), 0);
  } finally {
    await admin.disconnect();
  }
}

/** How many dead letters the indexers wrote so far. */
export function deadLetterCount(brokers: string[]): Promise<number> {
  return topicMessageCount(brokers, DEAD_LETTER_TOPIC);
}

/**
 * The `eventId` of every message in the topic (for a push, the X-GitHub-Delivery guid), read from
 * the beginning up to the high watermarks seen when the call began.
 */
export async function readEventIds(brokers: string[], topic = EVENTS_TOPIC, timeoutMs = 45_000): Promise<Set<string>> {
  const kafka = client(brokers, 'fault-event-reader');
  const admin = kafka.admin();
  await admin.connect();
  let targets: Map<number, number>;
  try {
    if (!(await admin.listTopics()).includes(topic)) return new Set();
    const offsets = await admin.fetchTopicOffsets(topic);
    targets = new Map(offsets.filter((p) => Number(p.high) > Number(p.low)).map((p) => [p.partition, Number(p.high)]));
  } finally {
    await admin.disconnect();
  }
  const ids = new Set<string>();
  if (targets.size === 0) return ids;
  const consumer = kafka.consumer({ groupId: uniqueName('fault-reader'), sessionTimeout: 10_000, heartbeatInterval: 1000 });
  await consumer.connect();
  try {
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    const done = new Set<number>();
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`reading ${topic} timed out after ${timeoutMs / 1000}s (${done.size}/${targets.size} partitions read)`)), timeoutMs);
      consumer
        .run({
          autoCommit: false,
          eachBatch: async ({ batch }) => {
            const end = targets.get(batch.partition);
            for (const message of batch.messages) {
              try {
                const id = (JSON.parse(message.value?.toString('utf8') ?? '{}') as { eventId?: unknown }).eventId;
                if (typeof id === 'string') ids.add(id);
              } catch {
                // not an event: ignored
              }
              if (end !== undefined && Number(message.offset) + 1 >= end) done.add(batch.partition);
            }
            if (done.size >= targets.size) {
              clearTimeout(timer);
              resolve();
            }
          },
        })
        .catch((error: Error) => {
          clearTimeout(timer);
          reject(error);
        });
    });
  } finally {
    await consumer.disconnect().catch(() => undefined);
  }
  return ids;
}

export interface GroupSnapshot {
  state: string;
  members: number;
}

/** State and member count of a consumer group, or null when it cannot be described. */
export async function describeGroup(brokers: string[], groupId: string): Promise<GroupSnapshot | null> {
  const admin = client(brokers, 'fault-group-admin').admin();
  try {
    await admin.connect();
    const { groups } = await admin.describeGroups([groupId]);
    const group = groups[0];
    return group ? { state: group.state, members: group.members.length } : null;
  } catch {
    return null;
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

/**
 * Polls a consumer group until it is Stable with `members` members (or `timeoutMs` passes);
 * answers how long that took and what was seen on the way, e.g. "PreparingRebalance/2".
 */
export async function waitGroupStable(brokers: string[], groupId: string, members: number, timeoutMs = 90_000): Promise<{ ms: number | null; seen: string[] }> {
  const began = Date.now();
  const seen: string[] = [];
  while (Date.now() - began < timeoutMs) {
    const snapshot = await describeGroup(brokers, groupId);
    const label = snapshot ? `${snapshot.state}/${snapshot.members}` : 'unavailable';
    if (seen[seen.length - 1] !== label) seen.push(label);
    if (snapshot?.state === 'Stable' && snapshot.members === members) return { ms: Date.now() - began, seen };
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return { ms: null, seen };
}

/** Records the states a consumer group goes through (e.g. "Stable/1 -> PreparingRebalance/2 -> Stable/1") until stopped. */
export function observeGroup(brokers: string[], groupId: string, everyMs = 500, maxMs = 180_000): { changes(): { label: string; at: number }[]; stop(): Promise<string[]> } {
  const seen: { label: string; at: number }[] = [];
  let stopped = false;
  const until = Date.now() + maxMs;
  const loop = (async () => {
    while (!stopped && Date.now() < until) {
      const snapshot = await describeGroup(brokers, groupId);
      const label = snapshot ? `${snapshot.state}/${snapshot.members}` : 'unavailable';
      if (seen[seen.length - 1]?.label !== label) seen.push({ label, at: Date.now() });
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    changes: () => [...seen],
    async stop() {
      stopped = true;
      await loop;
      return seen.map((s) => s.label);
    },
  };
}
