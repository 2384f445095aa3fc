import type { Express } from 'express';
import type { Registry } from 'prom-client';

export interface HealthOptions {
  registry: Registry;
  /** Each dependency the service needs to do its work; /readyz is 503 while one answers false. */
  checks: Record<string, () => Promise<boolean>>;
  /** Serve /metrics here too (default); false when another port serves it (GITDEX_METRICS_PORT). */
  metrics?: boolean;
  /**
   * What a part reports without deciding readiness (a background job that failed or is late):
   * shown under `notes`, and its `degraded` line, when set, in the `degraded` list. The answer
   * stays 200: the service still serves what it has.
   */
  notes?: Record<string, () => HealthNote | undefined>;
}

export interface HealthNote {
  /** Null while all is well; otherwise one line saying what is wrong. */
  degraded: string | null;
  [field: string]: unknown;
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
        const notes = Object.entries(options.notes ?? {}).flatMap(([name, note]) => {
          const value = note();
          return value ? [[name, value] as const] : [];
        });
        const degraded = notes.flatMap(([name, note]) => (note.degraded ? [`${name}: ${note.degraded}`] : []));
        res.status(ready ? 200 : 503).json({
          status: ready ? 'ready' : 'not_ready',
          checks,
          ...(notes.length > 0 ? { notes: Object.fromEntries(notes) } : {}),
          ...(degraded.length > 0 ? { degraded } : {}),
        });
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
