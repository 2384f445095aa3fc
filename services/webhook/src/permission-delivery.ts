import type { PermissionEvent } from '@gitdex/contracts';
import { eventLabel } from './admission';
import { PayloadError } from './normalize';
import { PERMISSION_EVENTS, permissionEventOf } from './permission-payloads';
import type { Log } from '@gitdex/observability';
import type { WebhookMetrics } from './metrics';

/** Applies a permission event to the mirror (a store write, at most a few GitHub reads); the delivery is answered once it is done. */
export type PermissionSink = (event: PermissionEvent) => Promise<void>;

interface PermissionDeps {
  permissions?: PermissionSink | undefined;
  metrics?: WebhookMetrics | undefined;
  log?: Log | undefined;
}

/** The same shape receive.ts answers with. */
interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

/**
 * Hands a permission delivery to the mirror, directly rather than through the event log: the
 * mirror's state is the shared store itself, so the write is the acknowledgement, and a
 * removal is visible to every reader replica as soon as the delivery is answered. Null when the
 * delivery goes on to the event log as well (`repository`) or is not a permission event.
 */
export async function deliverPermission(event: string, deliveryId: string, payload: unknown, deps: PermissionDeps): Promise<Answer | null> {
  if (!deps.permissions || !PERMISSION_EVENTS.has(event)) return null;
  const count = (outcome: string) => deps.metrics?.deliveries.inc({ event: eventLabel(event), outcome });
  let normalized;
  try {
    normalized = permissionEventOf(event, payload);
  } catch (error) {
    if (!(error instanceof PayloadError)) throw error;
    // A repository event the mirror cannot read still has its own path (and its own 400).
    if (event === 'repository') return null;
    count('invalid');
    return { status: 400, body: { error: 'payload_invalid', field: error.field, message: error.message } };
  }
  if (normalized.outcome === 'ignored') {
    if (event === 'repository') return null;
    count('ignored');
    return { status: 202, body: { delivery_id: deliveryId, ignored: normalized.reason } };
  }
  try {
    await deps.permissions(normalized.event);
  } catch (error) {
    count('unavailable');
    deps.log?.error({ deliveryId, event, error: error instanceof Error ? error.message : String(error) }, 'the permission mirror did not take a delivery; answered 503');
    return { status: 503, headers: { 'Retry-After': '5' }, body: { error: 'permissions_unavailable', message: 'the permission change was not stored; redeliver it later' } };
  }
  if (event === 'repository') return null;
  count('accepted');
  return { status: 202, body: { delivery_id: deliveryId, permission: normalized.event.kind } };
}
