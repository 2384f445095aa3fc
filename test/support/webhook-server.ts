import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Registry } from 'prom-client';
import { createKafka, KafkaPublisher } from '@gitdex/kafka';
import { createWebhookApp } from '@gitdex/webhook';
import { kafkaBrokerList } from '../harness/engines';

export interface RunningWebhook {
  url: string;
  hookUrl: string;
  publisher: KafkaPublisher;
  registry: Registry;
  close(): Promise<void>;
}

/** The webhook service on a free port, publishing to `topic` on the test Kafka. */
export async function startWebhookService(topic: string, secrets: string[], options: { publishTimeoutMs?: number; brokers?: string[]; refusalsPerMinute?: number } = {}): Promise<RunningWebhook> {
  const { brokers = kafkaBrokerList(), refusalsPerMinute, ...publisherOptions } = options;
  const publisher = new KafkaPublisher(createKafka({ brokers, clientId: 'test-webhook' }), { topic, partitions: 6, ...publisherOptions });
  const registry = new Registry();
  const app = createWebhookApp({ secrets, publisher, registry, ...(refusalsPerMinute !== undefined ? { admission: { refusalsPerMinute } } : {}) });
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    hookUrl: `${url}/webhooks/github`,
    publisher,
    registry,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await publisher.close();
    },
  };
}
