import express, { type Express } from 'express';
import type { Registry } from 'prom-client';
import type { EventPublisher } from '@gitdex/ports';
import { mountHealth } from '@gitdex/observability';
import { createWebhookRouter } from './router';
import { createWebhookMetrics } from './metrics';
import type { WebhookDeps } from './receive';
import type { AdmissionOptions } from './admission';
import type { WebhookBodyOptions } from './body';

export interface WebhookAppOptions extends Omit<WebhookDeps, 'metrics'> {
  publisher: EventPublisher;
  registry: Registry;
  /** Limits applied before a body is read (bytes in flight, 401 throttle). */
  admission?: Partial<AdmissionOptions>;
  /** How bodies are read: size, budgets in flight (all and per address), deadline and minimum rate. */
  body?: WebhookBodyOptions;
}

/** The webhook service on its own: the router plus /healthz, /readyz (event log reachable) and /metrics. */
export function createWebhookApp(options: WebhookAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  const metrics = createWebhookMetrics(options.registry);
  const { admission, body, ...deps } = options;
  app.use(createWebhookRouter({ ...deps, metrics }, admission, body));
  mountHealth(app, { registry: options.registry, checks: { eventLog: () => options.publisher.ping() } });
  return app;
}
