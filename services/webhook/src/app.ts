import express, { type Express } from 'express';
import type { Registry } from 'prom-client';
import type { EventPublisher } from '@gitdex/ports';
import { mountHealth } from '@gitdex/observability';
import { createWebhookRouter } from './router';
import { createWebhookMetrics } from './metrics';
import type { WebhookDeps } from './receive';
import type { AdmissionOptions } from './admission';

export interface WebhookAppOptions extends Omit<WebhookDeps, 'metrics'> {
  publisher: EventPublisher;
  registry: Registry;
  /** Limits applied before a body is read (bytes in flight, 401 throttle). */
  admission?: Partial<AdmissionOptions>;
}

/** The webhook service on its own: the router plus /healthz, /readyz (event log reachable) and /metrics. */
export function createWebhookApp(options: WebhookAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  const metrics = createWebhookMetrics(options.registry);
  const { admission, ...deps } = options;
  app.use(createWebhookRouter({ ...deps, metrics }, admission));
  mountHealth(app, { registry: options.registry, checks: { eventLog: () => options.publisher.ping() } });
  return app;
}
