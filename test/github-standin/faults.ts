// Faults injected on demand into API answers (never into admin routes or webhook deliveries).
import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import { z } from 'zod';
import { sendError } from './http';
import { primaryRateLimitMessage, SECONDARY_RATE_LIMIT_MESSAGE, type RateLimiter } from './rate-limit';

/** `count`: how many matching requests the fault hits; `route`: substring the request path must contain. */
const scope = { count: z.number().int().positive().optional(), route: z.string().min(1).optional() };

export const faultSpecSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('5xx'), status: z.number().int().min(400).max(599).default(502), message: z.string().optional(), ...scope }),
  z.object({
    type: z.literal('rate_limit'),
    kind: z.enum(['primary', 'secondary']).default('primary'),
    status: z.union([z.literal(403), z.literal(429)]).default(403),
    /** primary: x-ratelimit-reset = now + this (default: the server's rateLimitResetSeconds). */
    resetAfterSeconds: z.number().int().min(0).optional(),
    /** secondary: retry-after header value in seconds. */
    retryAfter: z.number().int().min(0).default(1),
    ...scope,
  }),
  z.object({ type: z.literal('latency'), ms: z.number().int().min(0), ...scope }),
  z.object({ type: z.literal('truncate_trees'), maxEntries: z.number().int().min(0), ...scope }),
]);

export type FaultSpec = z.input<typeof faultSpecSchema>;
export type ParsedFault = z.output<typeof faultSpecSchema>;
export type FaultType = ParsedFault['type'];

export interface ActiveFault {
  id: string;
  spec: ParsedFault;
  /** Requests left to hit; null = until cleared. */
  remaining: number | null;
  hits: number;
}

/** Error faults default to one hit, latency and truncation last until cleared. */
const DEFAULT_COUNT: Record<FaultType, number | null> = { '5xx': 1, rate_limit: 1, latency: null, truncate_trees: null };

export class FaultStore {
  private faults: ActiveFault[] = [];

  /** Validates (throws a ZodError on bad input) and activates a fault. */
  add(input: FaultSpec): ActiveFault {
    const spec = faultSpecSchema.parse(input);
    const fault: ActiveFault = { id: randomUUID(), spec, remaining: spec.count ?? DEFAULT_COUNT[spec.type], hits: 0 };
    this.faults.push(fault);
    return fault;
  }

  list(): ActiveFault[] {
    return this.faults.map((f) => ({ ...f }));
  }

  clear(): void {
    this.faults = [];
  }

  remove(id: string): boolean {
    const before = this.faults.length;
    this.faults = this.faults.filter((f) => f.id !== id);
    return this.faults.length !== before;
  }

  private use(fault: ActiveFault): ActiveFault {
    fault.hits += 1;
    if (fault.remaining !== null) fault.remaining -= 1;
    if (fault.remaining === 0) this.faults = this.faults.filter((f) => f !== fault);
    return fault;
  }

  private matches(fault: ActiveFault, types: readonly FaultType[], path: string): boolean {
    return types.includes(fault.spec.type) && (fault.spec.route === undefined || path.includes(fault.spec.route));
  }

  /** Uses the oldest matching fault of the given types. */
  takeFirst(types: readonly FaultType[], path: string): ActiveFault | undefined {
    const fault = this.faults.find((f) => this.matches(f, types, path));
    return fault && this.use(fault);
  }

  /** Uses every matching fault of the given types. */
  takeAll(types: readonly FaultType[], path: string): ActiveFault[] {
    return this.faults.filter((f) => this.matches(f, types, path)).map((f) => this.use(f));
  }
}

export interface FaultMiddlewareOptions {
  rateLimiter: RateLimiter;
  /** Default seconds until x-ratelimit-reset for primary rate-limit faults. */
  resetAfterSeconds: () => number;
  /** How latency is waited for. */
  sleep: (ms: number) => Promise<void>;
}

/** Applies latency, then answers with the first matching 5xx or rate-limit fault. */
export function faultMiddleware(store: FaultStore, options: FaultMiddlewareOptions): RequestHandler {
  return async (req, res, next) => {
    const path = req.originalUrl;
    const delay = store.takeAll(['latency'], path).reduce((ms, f) => ms + (f.spec.type === 'latency' ? f.spec.ms : 0), 0);
    if (delay > 0) await options.sleep(delay);
    const fault = store.takeFirst(['5xx', 'rate_limit'], path);
    const spec = fault?.spec;
    if (!spec) return next();
    if (spec.type === '5xx') return sendError(res, spec.status, spec.message ?? (spec.status >= 500 ? 'Server Error' : 'Injected error'));
    if (spec.type !== 'rate_limit') return next();
    const docs = 'https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api';
    if (spec.kind === 'secondary') {
      res.setHeader('retry-after', String(spec.retryAfter));
      return sendError(res, spec.status, SECONDARY_RATE_LIMIT_MESSAGE, docs);
    }
    const snap = options.rateLimiter.snapshot();
    const reset = Math.floor(Date.now() / 1000) + (spec.resetAfterSeconds ?? options.resetAfterSeconds());
    options.rateLimiter.setHeaders(res, { ...snap, remaining: 0, used: snap.limit, reset });
    const who = req.get('authorization') ? 'installation ID 1' : (req.ip ?? '127.0.0.1');
    return sendError(res, spec.status, primaryRateLimitMessage(who), docs);
  };
}
