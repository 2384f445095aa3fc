import express, { type ErrorRequestHandler, type Router } from 'express';
import { addressOf, eventLabel, WebhookAdmission, type AdmissionOptions } from './admission';
import { receiveDelivery, type WebhookDeps } from './receive';
import { RecentDeliveries } from './recent-deliveries';

/** GitHub caps webhook payloads at 25 MB; anything larger is refused before it is read whole. */
export const MAX_WEBHOOK_BYTES = 25 * 1024 * 1024;

/** Mounts the webhook core at POST /webhooks/github; express only carries bytes in and out. */
export function createWebhookRouter(deps: WebhookDeps, admissionOptions: Partial<AdmissionOptions> = {}): Router {
  const router = express.Router();
  // Every mounted webhook de-duplicates delivery ids (10 minutes, 10,000 ids) unless given its own.
  const deliveryDeps: WebhookDeps = { ...deps, recentDeliveries: deps.recentDeliveries ?? new RecentDeliveries() };
  const admission = new WebhookAdmission({ maxBodyBytes: MAX_WEBHOOK_BYTES, onRefused: (outcome, event) => deps.metrics?.deliveries.inc({ event, outcome }), ...admissionOptions });
  router.post('/webhooks/github', admission.guard, express.raw({ type: () => true, limit: MAX_WEBHOOK_BYTES }), (req, res, next) => {
    const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    receiveDelivery(
      {
        headers: {
          event: req.get('x-github-event') ?? undefined,
          deliveryId: req.get('x-github-delivery') ?? undefined,
          signature256: req.get('x-hub-signature-256') ?? undefined,
          traceparent: req.get('traceparent') ?? undefined,
        },
        rawBody,
      },
      deliveryDeps,
    )
      .then((answer) => {
        if (answer.status === 401) admission.refused(addressOf(req));
        res
          .status(answer.status)
          .set(answer.headers ?? {})
          .json(answer.body);
      })
      .catch(next);
  });
  const bodyErrors: ErrorRequestHandler = (error: { type?: string; status?: number }, req, res, next) => {
    if (error.type === 'entity.too.large') {
      deps.metrics?.deliveries.inc({ event: eventLabel(req.get('x-github-event')), outcome: 'too_large' });
      res.status(413).json({ error: 'payload_too_large', message: `webhook bodies are limited to ${MAX_WEBHOOK_BYTES} bytes` });
      return;
    }
    if (typeof error.status === 'number' && error.status >= 400 && error.status < 500) {
      res.status(error.status).json({ error: 'request_invalid', message: 'the request body could not be read' });
      return;
    }
    next(error);
  };
  router.use(bodyErrors);
  return router;
}
