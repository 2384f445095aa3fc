// A small express webhook receiver for tests: verifies X-Hub-Signature-256 over the raw body.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';

export interface ReceivedWebhook {
  event: string;
  deliveryId: string;
  headers: Record<string, string | string[] | undefined>;
  raw: Buffer;
  body: unknown;
  signatureValid: boolean;
}

export interface WebhookReceiver {
  /** URL to configure as the stand-in's webhook URL. */
  url: string;
  received: ReceivedWebhook[];
  /** The last received webhook of an event (any event when omitted). */
  last(event?: string): ReceivedWebhook | undefined;
  close(): Promise<void>;
}

export function verifySignature(secret: string, raw: Buffer, header: string | undefined): boolean {
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`);
  const actual = Buffer.from(header ?? '');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Answers 202 "accepted" to correctly signed deliveries, 401 otherwise. */
export async function startWebhookReceiver(secret: string): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const app = express();
  app.post('/hook', express.raw({ type: 'application/json' }), (req, res) => {
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const signatureValid = verifySignature(secret, raw, req.get('x-hub-signature-256'));
    received.push({ event: req.get('x-github-event') ?? '', deliveryId: req.get('x-github-delivery') ?? '', headers: req.headers, raw, body: JSON.parse(raw.toString('utf8')), signatureValid });
    res.status(signatureValid ? 202 : 401).send(signatureValid ? 'accepted' : 'bad signature');
  });
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    last: (event) => [...received].reverse().find((r) => event === undefined || r.event === event),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
