import type { Admin } from 'kafkajs';

export interface TopicSpec {
  topic: string;
  partitions: number;
}

/**
 * How a new topic is replicated. `replicationFactor` undefined: chosen from the cluster's size
 * (see replicationFor); a number: exactly that many replicas (the broker refuses more than it has).
 */
export interface TopicReplication {
  replicationFactor?: number | undefined;
}

/**
 * The replication of a new topic on a cluster of `brokers` brokers: three replicas and two of them
 * in sync for every acknowledged write once there are three brokers, so `acks=all` survives the
 * loss of one broker without losing an acknowledged event; the broker's defaults below that.
 */
export function replicationFor(brokers: number, wanted?: number): { replicationFactor: number; minInsyncReplicas?: number } {
  const factor = wanted ?? (brokers >= 3 ? 3 : -1);
  if (factor === -1) return { replicationFactor: -1 };
  return { replicationFactor: factor, minInsyncReplicas: factor >= 3 ? 2 : 1 };
}

/** Creates the topics when missing; concurrent creators and existing topics are fine. */
export async function ensureTopics(admin: Admin, topics: TopicSpec[], replication: TopicReplication = {}): Promise<void> {
  const existing = new Set(await admin.listTopics());
  const missing = topics.filter((t) => !existing.has(t.topic));
  if (missing.length === 0) return;
  const brokers = replication.replicationFactor === undefined ? (await admin.describeCluster()).brokers.length : 0;
  const { replicationFactor, minInsyncReplicas } = replicationFor(brokers, replication.replicationFactor);
  const configEntries = minInsyncReplicas === undefined ? [] : [{ name: 'min.insync.replicas', value: String(minInsyncReplicas) }];
  try {
    await admin.createTopics({
      waitForLeaders: true,
      topics: missing.map((t) => ({ topic: t.topic, numPartitions: t.partitions, replicationFactor, configEntries })),
    });
  } catch (error) {
    if (onlyAlreadyExists(error)) return;
    // Created, but a broker asked for its leaders had not heard of it yet: kafkajs's wait retries
    // LEADER_NOT_AVAILABLE only, and throws UNKNOWN_TOPIC_OR_PARTITION (seen on a fresh
    // three-broker cluster). Retriable: wait for the leaders here.
    if (!isRetriable(error)) throw error;
    await waitForLeaders(admin, missing, error);
  }
}

/**
 * Whether a failure to create topics says only that they exist (another creator was first), by the
 * protocol's error type of each topic: one topic refused for another reason fails the whole call.
 */
export function onlyAlreadyExists(error: unknown): boolean {
  const errors = (error as { errors?: unknown } | null)?.errors;
  const each = Array.isArray(errors) && errors.length > 0 ? errors : [error];
  return each.every((e) => (e as { type?: unknown } | null)?.type === 'TOPIC_ALREADY_EXISTS');
}

/** How long a created topic may take to have a leader for every partition. */
const LEADERS_WITHIN_MS = 30_000;

function isRetriable(error: unknown): boolean {
  return error instanceof Error && (error as { retriable?: unknown }).retriable === true;
}

/** Asks for the topics' metadata until every partition has a leader; past LEADERS_WITHIN_MS, throws `cause`. */
async function waitForLeaders(admin: Admin, topics: TopicSpec[], cause: unknown, withinMs = LEADERS_WITHIN_MS): Promise<void> {
  const deadline = Date.now() + withinMs;
  for (let delay = 100; ; delay = Math.min(delay * 2, 1_000)) {
    try {
      const { topics: found } = await admin.fetchTopicMetadata({ topics: topics.map((t) => t.topic) });
      const led = (name: string) => found.find((t) => t.name === name)?.partitions.filter((p) => p.leader >= 0).length ?? 0;
      if (topics.every((t) => led(t.topic) >= t.partitions)) return;
    } catch (error) {
      if (!isRetriable(error)) throw error;
    }
    if (Date.now() + delay > deadline) throw cause;
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}
