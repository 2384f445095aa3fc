// /_admin: runtime config, request counters, faults, webhook deliveries, rate limit.
import express, { Router, type Response } from 'express';
import { z } from 'zod';
import type { StandInContext } from './context';
import { HttpError, sendJson } from './http';
import type { DeliveryRecord } from './webhooks';

const configSchema = z
  .object({
    webhookUrl: z.url().nullable(),
    secret: z.string().nullable(),
    token: z.string().nullable(),
    htmlBaseUrl: z.url(),
    maxTreeEntries: z.number().int().min(0),
    maxTreeBytes: z.number().int().min(0),
    rateLimitResetSeconds: z.number().int().min(0),
    maxPayloadCommits: z.number().int().min(0),
    hookId: z.number().int(),
    installationId: z.number().int().nullable(),
    organizations: z.array(z.string()),
    sender: z.string().nullable(),
    deliveryTimeoutMs: z.number().int().positive(),
  })
  .partial()
  .strict();

export type ConfigPatch = z.input<typeof configSchema>;

/** Applies a config patch; null removes optional settings (webhookUrl, secret, token, ...). */
export function applyConfig(ctx: StandInContext, input: unknown): void {
  const patch = configSchema.parse(input);
  for (const [key, value] of Object.entries(patch)) {
    (ctx.config as unknown as Record<string, unknown>)[key] = value === null ? undefined : value;
  }
}

/** {delivery_id, status, body} when the receiver answered, else 502 with the error. */
export function sendDelivery(res: Response, record: DeliveryRecord, extra: Record<string, unknown> = {}): void {
  if (record.status === null) {
    res.status(502).json({ message: `Webhook delivery failed: ${record.error ?? 'unknown error'}`, delivery_id: record.id, error: record.error, ...extra });
    return;
  }
  res.status(200).json({ delivery_id: record.id, status: record.status, body: record.responseBody, ...extra });
}

/** Validation errors become 422 with the zod issues. */
export const adminErrors: express.ErrorRequestHandler = (err: unknown, _req, res, next) => {
  if (err instanceof z.ZodError) {
    res.status(422).json({ message: 'Validation Failed', errors: err.issues });
    return;
  }
  if (err instanceof HttpError) {
    res.status(err.status).json({ message: err.message });
    return;
  }
  next(err);
};

export function adminRouter(ctx: StandInContext): Router {
  const router = Router();
  router.use(express.json({ limit: '10mb' }));

  router.get('/config', (_req, res) => void res.json(ctx.config));
  router.post('/config', (req, res) => {
    applyConfig(ctx, req.body ?? {});
    res.json(ctx.config);
  });

  router.get('/requests', (_req, res) => void res.json({ total: ctx.requests.total, counts: ctx.requests.counts(), requests: ctx.requests.list() }));
  router.delete('/requests', (_req, res) => {
    ctx.requests.reset();
    res.status(204).end();
  });

  router.get('/faults', (_req, res) => void res.json(ctx.faults.list()));
  router.post('/faults', (req, res) => {
    const specs: unknown[] = Array.isArray(req.body) ? req.body : [req.body];
    const added = specs.map((spec) => ctx.faults.add(spec as Parameters<typeof ctx.faults.add>[0]));
    res.status(201).json(Array.isArray(req.body) ? added : added[0]);
  });
  router.delete('/faults', (_req, res) => {
    ctx.faults.clear();
    res.status(204).end();
  });
  router.delete('/faults/:id', (req, res) => void res.status(ctx.faults.remove(req.params.id) ? 204 : 404).end());

  router.get('/deliveries', (_req, res) => void res.json(ctx.webhooks.list()));
  router.delete('/deliveries', (_req, res) => {
    ctx.webhooks.clear();
    res.status(204).end();
  });
  router.get('/deliveries/:id', (req, res) => {
    const record = ctx.webhooks.get(req.params.id);
    if (!record) throw new HttpError(404, `No delivery ${req.params.id}`);
    res.json(record);
  });
  router.post('/deliveries/:id/redeliver', async (req, res) => sendDelivery(res, await ctx.webhooks.redeliver(req.params.id)));

  const deliverSchema = z.object({ event: z.string().min(1), payload: z.record(z.string(), z.unknown()) });
  router.post('/deliver', async (req, res) => {
    const { event, payload } = deliverSchema.parse(req.body);
    sendDelivery(res, await ctx.webhooks.deliver(event, payload), { event });
  });

  router.get('/rate_limit', (req, res) => sendJson(req, res, 200, ctx.rateLimiter.body()));
  router.post('/rate_limit', (req, res) => {
    const body = z.object({ limit: z.number().int().min(0).optional(), windowSeconds: z.number().int().positive().optional() }).parse(req.body ?? {});
    if (body.limit !== undefined) ctx.rateLimiter.limit = body.limit;
    if (body.windowSeconds !== undefined) ctx.rateLimiter.windowSeconds = body.windowSeconds;
    ctx.rateLimiter.reset();
    res.json(ctx.rateLimiter.snapshot());
  });

  /** Forgets faults, counters, deliveries and rate-limit usage (repositories stay). */
  router.post('/reset', (_req, res) => {
    ctx.faults.clear();
    ctx.requests.reset();
    ctx.webhooks.clear();
    ctx.rateLimiter.reset();
    res.status(204).end();
  });

  return router;
}
