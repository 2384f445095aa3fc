import type { Express } from 'express';
import type { Registry } from 'prom-client';

export interface HealthOptions {
  registry: Registry;
  /** Each dependency the service needs to do its work; /readyz is 503 while one answers false. */
  checks: Record<string, () => Promise<boolean>>;
  /** Serve /metrics here too (default); false when another port serves it (GITDEX_METRICS_PORT). */
  metrics?: boolean;
}

/** /healthz: the process runs. /readyz: its dependencies answer. /metrics: Prometheus text. */
export function mountHealth(app: Express, options: HealthOptions): void {
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', (_req, res, next) => {
    const names = Object.keys(options.checks);
    // A check that throws is the answer itself: that dependency is reported unavailable.
    Promise.all(names.map((name) => options.checks[name]!().catch(() => false)))
      .then((results) => {
        const checks = Object.fromEntries(names.map((name, i) => [name, results[i] ? 'ok' : 'unavailable']));
        const ready = results.every(Boolean);
        res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not_ready', checks });
      })
      .catch(next);
  });
  if (options.metrics === false) return;
  app.get('/metrics', (_req, res, next) => {
    options.registry
      .metrics()
      .then((text) => {
        res.type(options.registry.contentType).send(text);
      })
      .catch(next);
  });
}
