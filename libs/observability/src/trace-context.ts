import { randomBytes } from 'node:crypto';

/**
 * W3C trace context (`traceparent`), carried from the webhook request through the event
 * log's headers to the indexer, so one push can be followed across services by any
 * OpenTelemetry-compatible backend.
 */
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

export interface TraceContext {
  traceId: string;
  spanId: string;
  sampled: boolean;
}

export function parseTraceparent(header: string | undefined): TraceContext | null {
  const match = header ? TRACEPARENT.exec(header.trim()) : null;
  if (!match || /^0+$/.test(match[1]!) || /^0+$/.test(match[2]!)) return null;
  return { traceId: match[1]!, spanId: match[2]!, sampled: (parseInt(match[3]!, 16) & 1) === 1 };
}

/** A child span of the incoming context, or the root of a new trace. */
export function childTraceparent(parent: string | undefined): string {
  const context = parseTraceparent(parent);
  const traceId = context?.traceId ?? randomBytes(16).toString('hex');
  return `00-${traceId}-${randomBytes(8).toString('hex')}-${context && !context.sampled ? '00' : '01'}`;
}
