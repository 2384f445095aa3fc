// A publish that failed after the broker wrote it must not make the next publish vanish. The
// broker's answer to one produce request is lost (its connection closes once the write is in the
// topic, as when a broker shuts down between writing and answering); the next publish, to the same
// partition with as many messages, must be in the topic when it resolves. Real Kafka; the lost
// answer comes from a socket made through kafkajs's own socket factory seam.
import { connect, type Socket } from 'node:net';
import { Kafka, logLevel, type ISocketFactory } from 'kafkajs';
import type { GitdexEvent } from '@gitdex/contracts';
import { KafkaPublisher } from '@gitdex/kafka';
import { kafkaBrokerList, uniqueName } from '../harness/engines';
import { readEventIds, topicMessageCount } from '../support/fault-kafka';

const PRODUCE_API_KEY = 0;

const push = (eventId: string): GitdexEvent => ({
  kind: 'push',
  eventId,
  repository: { id: 7, fullName: 'lost/answer' },
  receivedAt: new Date(0).toISOString(),
  ref: 'refs/heads/main',
  before: '0'.repeat(40),
  after: '1'.repeat(40),
  created: false,
  deleted: false,
  forced: false,
});

/**
 * Sockets as kafkajs makes them, except that once armed, the next produce request is written and
 * its connection stops reading: the answer waits unread until `dropHeldConnection` closes it.
 * While `refusing`, every new connection fails, so kafkajs's retries of the request fail too.
 */
class AnswerLosingSockets {
  refusing = false;
  private armed = false;
  private held: Socket | null = null;

  readonly factory: ISocketFactory = ({ host, port, onConnect }) => {
    if (this.refusing) {
      const refused = connect({ host, port });
      refused.once('connect', () => refused.destroy(new Error('connection refused by the test')));
      return refused;
    }
    const socket = connect({ host, port }, onConnect);
    const write = socket.write.bind(socket) as (chunk: Buffer, encoding: BufferEncoding) => boolean;
    socket.write = ((chunk: Buffer, encoding: BufferEncoding) => {
      const produce = Buffer.isBuffer(chunk) && chunk.length >= 6 && chunk.readInt16BE(4) === PRODUCE_API_KEY;
      if (this.armed && produce) {
        this.armed = false;
        this.held = socket;
        socket.pause();
      }
      return write(chunk, encoding);
    }) as Socket['write'];
    return socket;
  };

  armForNextProduce(): void {
    this.armed = true;
  }

  get holding(): boolean {
    return this.held !== null;
  }

  dropHeldConnection(): void {
    this.held?.destroy(new Error('connection lost by the test'));
    this.held = null;
  }
}

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('Kafka publisher: a publish whose answer was lost', () => {
  it('does not make the next publish to the same partition vanish', async () => {
    const brokers = kafkaBrokerList();
    const topic = uniqueName('lost-answer');
    const sockets = new AnswerLosingSockets();
    // kafkajs retries once (an idempotent producer must retry) and fails, as with a broker gone for longer than the retries.
    const kafka = new Kafka({ clientId: 'lost-answer', brokers, logLevel: logLevel.NOTHING, socketFactory: sockets.factory, retry: { retries: 1, initialRetryTime: 50, maxRetryTime: 100 } });
    const publisher = new KafkaPublisher(kafka, { topic, partitions: 1, publishTimeoutMs: 30_000 });
    try {
      await publisher.publish([{ event: push('before') }]);

      sockets.armForNextProduce();
      const lost = publisher.publish([{ event: push('answer-lost') }]);
      const failure = lost.then(
        () => null,
        (error: unknown) => error,
      );
      await until(async () => sockets.holding && (await topicMessageCount(brokers, topic)) === 2, 'the broker to write the batch whose answer is held');
      sockets.refusing = true;
      sockets.dropHeldConnection();
      expect(await failure).toBeInstanceOf(Error);
      sockets.refusing = false;

      await publisher.publish([{ event: push('after') }]);
      expect(await topicMessageCount(brokers, topic)).toBe(3);
      expect([...(await readEventIds(brokers, topic))].sort()).toEqual(['after', 'answer-lost', 'before']);
    } finally {
      await publisher.close();
    }
  }, 90_000);
});
