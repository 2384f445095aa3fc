import type { Admin } from 'kafkajs';

/** Creates the topics when missing; concurrent creators and existing topics are fine. */
export async function ensureTopics(admin: Admin, topics: { topic: string; partitions: number }[]): Promise<void> {
  const existing = new Set(await admin.listTopics());
  const missing = topics.filter((t) => !existing.has(t.topic));
  if (missing.length === 0) return;
  try {
    await admin.createTopics({
      waitForLeaders: true,
      topics: missing.map((t) => ({ topic: t.topic, numPartitions: t.partitions, replicationFactor: -1 })),
    });
  } catch (error) {
    if (!(error instanceof Error) || !/already exists/i.test(String((error as { errors?: unknown[] }).errors ?? error.message))) throw error;
  }
}
