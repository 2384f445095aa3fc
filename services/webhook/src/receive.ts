import type { EventPublisher } from '@gitdex/ports';
import { childTraceparent, type Log } from '@gitdex/observability';
import { GitdexEventSchema } from '@gitdex/contracts';
import { normalizeDelivery, PayloadError } from './normalize';
import { verifySignature } from './signature';
import { eventLabel } from './admission';
import type { WebhookMetrics } from './metrics';
import type { RecentDeliveries } from './recent-deliveries';
import { deliverPermission, type PermissionSink } from './permission-delivery';

export interface WebhookDeps {
  secrets: readonly string[];
  publisher: EventPublisher;
  metrics?: WebhookMetrics;
  now?: () => Date;
  log?: Log;
  /** Delivery ids published recently: a repeat within the window is answered 202 without publishing (once its first copy is stored). */
  recentDeliveries?: RecentDeliveries;
  /** The permission mirror: member, membership, team, organization, repository and github_app_authorization deliveries go to it. */
  permissions?: PermissionSink;
}

export interface IncomingDelivery {
  headers: { event?: string | undefined; deliveryId?: string | undefined; signature256?: string | undefined; traceparent?: string | undefined };
  rawBody: Buffer;
}

export interface WebhookAnswer {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** How long a sender should wait before redelivering after a 503: the event log usually recovers in seconds. */
const RETRY_AFTER_SECONDS = '5';

/**
 * The framework-free core of the webhook service: verify, parse, normalise, publish.
 * It answers 202 only once the event log acknowledged every event of the delivery.
 */
export async function receiveDelivery(delivery: IncomingDelivery, deps: WebhookDeps): Promise<WebhookAnswer> {
  const { event = '', deliveryId = '', signature256 } = delivery.headers;
  // Never a label from an unverified header: unknown names share one series.
  const count = (outcome: string) => deps.metrics?.deliveries.inc({ event: eventLabel(event), outcome });

  if (!verifySignature(delivery.rawBody, signature256, deps.secrets)) {
    count('unauthorized');
    return { status: 401, body: { error: 'signature_invalid', message: 'X-Hub-Signature-256 is missing or does not match any configured secret' } };
  }
  if (!event || !deliveryId) {
    count('invalid');
    return { status: 400, body: { error: 'headers_missing', message: 'X-GitHub-Event and X-GitHub-Delivery headers are required' } };
  }
  let payload: unknown;
  try {
    payload = JSON.parse(delivery.rawBody.toString('utf8'));
  } catch {
    count('invalid');
    return { status: 400, body: { error: 'json_invalid', message: 'the body is not valid JSON' } };
  }

  const permission = await deliverPermission(event, deliveryId, payload, deps);
  if (permission) return permission;

  let normalized;
  try {
    normalized = normalizeDelivery({ event, deliveryId, payload, receivedAt: (deps.now?.() ?? new Date()).toISOString() });
  } catch (error) {
    if (!(error instanceof PayloadError)) throw error;
    count('invalid');
    return { status: 400, body: { error: 'payload_invalid', field: error.field, message: error.message } };
  }

  // What the pipeline would refuse later is refused now, so a sender is told 400, not 503 forever.
  for (const event of normalized.outcome === 'events' ? normalized.events : []) {
    const checked = GitdexEventSchema.safeParse(event);
    if (!checked.success) {
      count('invalid');
      const issue = checked.error.issues[0];
      return { status: 400, body: { error: 'payload_invalid', field: issue?.path.join('.') ?? '(event)', message: `the delivery does not make a valid event: ${issue?.message ?? 'invalid'}` } };
    }
  }
  if (normalized.outcome === 'ping') {
    count('ping');
    return { status: 200, body: { ok: true, message: 'pong' } };
  }
  if (normalized.outcome === 'ignored') {
    count('ignored');
    return { status: 202, body: { delivery_id: deliveryId, ignored: normalized.reason } };
  }

  const copy = deps.recentDeliveries ? await deps.recentDeliveries.firstCopy(deliveryId) : undefined;
  if (copy === null) {
    count('duplicate');
    return { status: 202, body: { delivery_id: deliveryId, ignored: 'duplicate' } };
  }
  const stopTimer = deps.metrics?.publishSeconds.startTimer();
  try {
    // The trace context travels with the events, so the indexer's work joins the delivery's trace.
    const headers = { 'gitdex-delivery-id': deliveryId, traceparent: childTraceparent(delivery.headers.traceparent) };
    await deps.publisher.publish(normalized.events.map((e) => ({ event: e, headers })));
    copy?.settle(true);
  } catch (error) {
    copy?.settle(false);
    count('unavailable');
    deps.log?.error({ deliveryId, event, error: error instanceof Error ? error.message : String(error) }, 'event log did not accept a delivery; answered 503');
    return {
      status: 503,
      headers: { 'Retry-After': RETRY_AFTER_SECONDS },
      body: { error: 'event_log_unavailable', message: 'the delivery was not stored; redeliver it later' },
    };
  } finally {
    stopTimer?.();
  }
  count('accepted');
  return { status: 202, body: { delivery_id: deliveryId, events: normalized.events.length } };
}
