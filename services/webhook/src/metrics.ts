import { Counter, Histogram, type Registry } from 'prom-client';

export interface WebhookMetrics {
  deliveries: Counter<'event' | 'outcome'>;
  publishSeconds: Histogram;
}

export function createWebhookMetrics(registry: Registry): WebhookMetrics {
  return {
    deliveries: new Counter({
      name: 'gitdex_webhook_deliveries_total',
      help: 'Webhook deliveries by GitHub event and outcome (accepted, ignored, duplicate, ping, unauthorized, invalid, unavailable)',
      labelNames: ['event', 'outcome'],
      registers: [registry],
    }),
    publishSeconds: new Histogram({
      name: 'gitdex_webhook_publish_seconds',
      help: 'Time from a verified delivery to the event log acknowledging it',
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
  };
}
