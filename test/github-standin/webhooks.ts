// Signs and delivers webhook payloads like GitHub (HMAC of the exact raw body) and keeps a log.
import { createHmac, randomUUID } from 'node:crypto';
import { HttpError } from './http';

export interface WebhookTarget {
  url?: string | undefined;
  secret?: string | undefined;
  hookId: number;
  timeoutMs: number;
}

export interface DeliveryRecord {
  /** The X-GitHub-Delivery guid (kept by redeliveries). */
  id: string;
  event: string;
  action: string | null;
  url: string;
  requestHeaders: Record<string, string>;
  /** The exact raw body that was signed and sent. */
  body: string;
  /** HTTP status the receiver answered; null when it could not be reached. */
  status: number | null;
  responseBody: string | null;
  error: string | null;
  redelivery: boolean;
  deliveredAt: string;
  durationMs: number;
}

/** X-Hub-Signature (sha1) and X-Hub-Signature-256 values for a raw body. */
export function signBody(secret: string, body: string | Buffer): { sha1: string; sha256: string } {
  return {
    sha1: `sha1=${createHmac('sha1', secret).update(body).digest('hex')}`,
    sha256: `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
  };
}

function repositoryId(payload: unknown): number | undefined {
  const repo = (payload as { repository?: { id?: unknown } } | null)?.repository;
  return typeof repo?.id === 'number' ? repo.id : undefined;
}

export class WebhookSender {
  private log: DeliveryRecord[] = [];

  constructor(private readonly target: () => WebhookTarget) {}

  /** Signs and posts `payload` as event `event`; the record tells how the receiver answered. */
  deliver(event: string, payload: unknown): Promise<DeliveryRecord> {
    return this.send(event, JSON.stringify(payload), randomUUID(), false);
  }

  /** Sends a logged delivery again with the same guid and body (signed with the current secret). */
  async redeliver(id: string): Promise<DeliveryRecord> {
    const previous = this.get(id);
    if (!previous) throw new HttpError(404, `No delivery ${id}`);
    return this.send(previous.event, previous.body, previous.id, true);
  }

  list(): DeliveryRecord[] {
    return [...this.log];
  }

  /** The latest attempt for a delivery guid. */
  get(id: string): DeliveryRecord | undefined {
    return [...this.log].reverse().find((d) => d.id === id);
  }

  clear(): void {
    this.log = [];
  }

  private async send(event: string, body: string, id: string, redelivery: boolean): Promise<DeliveryRecord> {
    const { url, secret, hookId, timeoutMs } = this.target();
    if (!url) throw new HttpError(422, 'No webhook URL configured (use --webhook-url or POST /_admin/config).');
    const parsed: unknown = JSON.parse(body);
    const targetId = repositoryId(parsed);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'GitHub-Hookshot/standin',
      'x-github-event': event,
      'x-github-delivery': id,
      'x-github-hook-id': String(hookId),
      'x-github-hook-installation-target-type': 'repository',
      ...(targetId !== undefined ? { 'x-github-hook-installation-target-id': String(targetId) } : {}),
    };
    if (secret) {
      const signatures = signBody(secret, body);
      headers['x-hub-signature'] = signatures.sha1;
      headers['x-hub-signature-256'] = signatures.sha256;
    }
    const action = (parsed as { action?: unknown }).action;
    const record: DeliveryRecord = {
      id,
      event,
      action: typeof action === 'string' ? action : null,
      url,
      requestHeaders: headers,
      body,
      status: null,
      responseBody: null,
      error: null,
      redelivery,
      deliveredAt: new Date().toISOString(),
      durationMs: 0,
    };
    const started = Date.now();
    try {
      const response = await fetch(url, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
      record.status = response.status;
      record.responseBody = await response.text();
    } catch (err) {
      const cause = (err as { cause?: { message?: string } }).cause?.message;
      record.error = cause ? `${(err as Error).message}: ${cause}` : (err as Error).message;
    }
    record.durationMs = Date.now() - started;
    this.log.push(record);
    return record;
  }
}
