// ensureTopics against the race a fresh three-broker cluster showed: the topic is created, and
// the broker asked for its leaders has not heard of it yet. The Admin is a stand-in that plays
// that sequence (a real cluster does not play it on demand); the integration suites run
// ensureTopics on real brokers.
import { KafkaJSAggregateError, KafkaJSProtocolError, type Admin } from 'kafkajs';
import { ensureTopics } from '@gitdex/kafka';

/** kafkajs's own error class, as its protocol layer throws it (retriable unless told otherwise). */
const protocolError = (message: string, retriable = true) => Object.assign(new KafkaJSProtocolError(message), { retriable });
const unknownTopic = () => protocolError('This server does not host this topic-partition');

function admin(metadata: (() => unknown)[], createError: Error) {
  let call = 0;
  const stand = {
    listTopics: jest.fn(async () => []),
    createTopics: jest.fn(async () => {
      throw createError;
    }),
    fetchTopicMetadata: jest.fn(async () => {
      const next = metadata[Math.min(call, metadata.length - 1)] as () => unknown;
      call += 1;
      return next();
    }),
  };
  return stand;
}

const led = (leader: number) => ({ topics: [{ name: 'events', partitions: [0, 1].map((partitionId) => ({ partitionId, leader })) }] });

describe('ensureTopics', () => {
  it('created, but a broker had not heard of it yet: waits for every partition to have a leader, then resolves', async () => {
    const stand = admin(
      [
        () => {
          throw unknownTopic();
        },
        () => led(-1),
        () => led(2),
      ],
      unknownTopic(),
    );
    await expect(ensureTopics(stand as unknown as Admin, [{ topic: 'events', partitions: 2 }], { replicationFactor: 3 })).resolves.toBeUndefined();
    expect(stand.fetchTopicMetadata).toHaveBeenCalledTimes(3);
  });

  it('a failure that is not retriable still fails the start, at once', async () => {
    const refused = protocolError('Replication factor: 3 larger than available brokers: 1', false);
    const stand = admin([() => led(1)], refused);
    await expect(ensureTopics(stand as unknown as Admin, [{ topic: 'events', partitions: 2 }], { replicationFactor: 3 })).rejects.toBe(refused);
    expect(stand.fetchTopicMetadata).not.toHaveBeenCalled();
  });

  // kafkajs's protocol errors name each topic's failure by type; the message is for people.
  const typed = (message: string, type: string) => Object.assign(protocolError(message, false), { type });
  const exists = () => typed('Topic with this name already exists', 'TOPIC_ALREADY_EXISTS');

  it('topics another creator made first are fine', async () => {
    const stand = admin([() => led(1)], new KafkaJSAggregateError('Topic creation errors', [exists(), exists()]));
    await expect(ensureTopics(stand as unknown as Admin, [{ topic: 'events', partitions: 2 }], { replicationFactor: 1 })).resolves.toBeUndefined();
  });

  it('one topic refused among topics that exist fails the start, whatever the messages say', async () => {
    const refused = new KafkaJSAggregateError('Topic creation errors', [
      exists(),
      typed('Replication factor: 3 larger than available brokers: 1 (the topic already exists on no broker)', 'INVALID_REPLICATION_FACTOR'),
    ]);
    const stand = admin([() => led(1)], refused);
    await expect(ensureTopics(stand as unknown as Admin, [{ topic: 'events', partitions: 2 }], { replicationFactor: 1 })).rejects.toBe(refused);
  });
});
