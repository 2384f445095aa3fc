export { createWebhookApp, type WebhookAppOptions } from './app';
export { createWebhookRouter, MAX_WEBHOOK_BYTES } from './router';
export { webhookBodyReader, type WebhookBodyOptions } from './body';
export { receiveDelivery, type WebhookDeps, type IncomingDelivery, type WebhookAnswer } from './receive';
export { normalizeDelivery, PayloadError, type Normalized } from './normalize';
export { verifySignature, sign } from './signature';
export { createWebhookMetrics, type WebhookMetrics } from './metrics';
export { permissionEventOf, PERMISSION_EVENTS } from './permission-payloads';
export { type PermissionSink } from './permission-delivery';
