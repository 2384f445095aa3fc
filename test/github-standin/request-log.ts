// Counts API requests per route pattern so tests can assert how much an indexer fetched.
import type { RequestHandler } from 'express';

export interface RequestLogEntry {
  method: string;
  path: string;
  /** "GET /repos/:owner/:repo/git/blobs/:sha", or "GET (unmatched)". */
  route: string;
  status: number;
  durationMs: number;
  at: string;
}

export class RequestLog {
  private entries: RequestLogEntry[] = [];
  private recordedTotal = 0;

  constructor(private readonly maxEntries = 10_000) {}

  record(entry: RequestLogEntry): void {
    this.recordedTotal += 1;
    this.entries.push(entry);
    if (this.entries.length > this.maxEntries) this.entries.shift();
  }

  /** Counts by route pattern, e.g. { "GET /repos/:owner/:repo/git/trees/*tree_sha": 2 }. */
  counts(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const e of this.entries) counts[e.route] = (counts[e.route] ?? 0) + 1;
    return counts;
  }

  /** Number of requests whose route pattern (without method) equals `pattern`. */
  count(pattern: string, method = 'GET'): number {
    return this.entries.filter((e) => e.route === `${method} ${pattern}`).length;
  }

  list(): RequestLogEntry[] {
    return [...this.entries];
  }

  get total(): number {
    return this.entries.length;
  }

  /** Every request recorded since the log was made, including those the size cap dropped and reset() cleared (a counter for benchmarks). */
  get recorded(): number {
    return this.recordedTotal;
  }

  reset(): void {
    this.entries = [];
  }
}

/** Records each finished request with the pattern of the express route that handled it. */
export function requestLogMiddleware(log: RequestLog): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const pattern = (req.route as { path?: unknown } | undefined)?.path;
      log.record({
        method: req.method,
        path: req.originalUrl,
        route: `${req.method} ${typeof pattern === 'string' ? pattern : '(unmatched)'}`,
        status: res.statusCode,
        durationMs: Number(process.hrtime.bigint() - started) / 1e6,
        at: new Date().toISOString(),
      });
    });
    next();
  };
}
