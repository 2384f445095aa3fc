import { recordingLog } from '../support/recording-log';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKafka, KafkaConsumer, KafkaPublisher } from '@gitdex/kafka';
import { SqliteEventLog } from '@gitdex/sqlite';
import { kafkaBrokerList, uniqueName } from '../harness/engines';
import { describeEventLogConformance } from '../conformance/event-log.cases';

describeEventLogConformance('Kafka', async () => {
  const kafka = createKafka({ brokers: kafkaBrokerList(), clientId: 'conformance' });
  const topic = uniqueName('conformance');
  const groupId = uniqueName('group');
  const publisher = new KafkaPublisher(kafka, { topic, partitions: 3 });
  return { publisher, consumer: () => new KafkaConsumer(kafka, { topic, groupId, partitions: 3, log: recordingLog() }), close: () => publisher.close() };
});

describeEventLogConformance('embedded SQLite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gitdex-eventlog-'));
  const file = join(dir, 'events.sqlite');
  const logs: SqliteEventLog[] = [];
  const open = () => {
    const log = new SqliteEventLog({ file, retryDelayMs: 50, log: recordingLog() });
    logs.push(log);
    return log;
  };
  const publisher = open();
  return {
    publisher,
    // A new consumer is a restarted process: a new connection to the same file.
    consumer: () => (logs.length === 1 ? publisher : open()),
    async close() {
      for (const log of logs) await log.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
