import express, { type Router } from 'express';
import { addressOf, eventLabel, WebhookAdmission, type AdmissionOptions } from './admission';
import { webhookBody, webhookBodyReader, type WebhookBodyOptions } from './body';
import { receiveDelivery, type WebhookDeps } from './receive';
import { RecentDeliveries } from './recent-deliveries';

export { MAX_WEBHOOK_BYTES } from './body';

/** What a body refused while it was read is counted as (the deliveries counter's outcome). */
const BODY_OUTCOMES: Record<string, string> = { payload_too_large: 'too_large', address_busy: 'busy', body_timeout: 'too_slow', body_too_slow: 'too_slow' };

/** Mounts the webhook core at POST /webhooks/github; express only carries bytes in and out. */
export function createWebhookRouter(deps: WebhookDeps, admissionOptions: Partial<AdmissionOptions> = {}, bodyOptions: WebhookBodyOptions = {}): Router {
  const router = express.Router();
  // Every mounted webhook de-duplicates delivery ids (10 minutes, 10,000 ids) unless given its own.
  const deliveryDeps: WebhookDeps = { ...deps, recentDeliveries: deps.recentDeliveries ?? new RecentDeliveries() };
  const admission = new WebhookAdmission({ onRefused: (outcome, event) => deps.metrics?.deliveries.inc({ event, outcome }), ...admissionOptions });
  const body = webhookBody(webhookBodyReader(bodyOptions), (error, req) =>
    deps.metrics?.deliveries.inc({ event: eventLabel(req.get('x-github-event')), outcome: BODY_OUTCOMES[error.code] ?? error.code }),
  );
  router.post('/webhooks/github', admission.guard, body, (req, res, next) => {
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
  return router;
}
