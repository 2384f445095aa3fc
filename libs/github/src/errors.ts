import { PortError } from '@gitdex/ports';

interface HttpLikeError {
  status?: number;
  message?: string;
  response?: { headers?: Record<string, string | number | undefined> };
}

/** Milliseconds GitHub asked us to wait: retry-after, else until x-ratelimit-reset. */
export function waitFromHeaders(headers: Record<string, string | number | undefined> | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const retryAfter = Number(headers['retry-after']);
  if (Number.isFinite(retryAfter) && retryAfter >= 0) return retryAfter * 1000;
  if (String(headers['x-ratelimit-remaining']) === '0') {
    const reset = Number(headers['x-ratelimit-reset']);
    if (Number.isFinite(reset)) return Math.max(0, reset * 1000 - now);
  }
  return undefined;
}

/** Maps an octokit or fetch failure to the decision the indexer needs: wait, retry, or give up. */
export function toPortError(error: unknown, action: string): PortError {
  if (error instanceof PortError) return error;
  const e = (error ?? {}) as HttpLikeError;
  const status = typeof e.status === 'number' ? e.status : undefined;
  const headers = e.response?.headers;
  const message = `GitHub ${action}: ${status ? `HTTP ${status} ` : ''}${e.message ?? String(error)}`;
  const wait = waitFromHeaders(headers);
  // A 403 is a rate limit when its headers say so; GitHub's secondary limit may come with no header,
  // and then its documented body ("You have exceeded a secondary rate limit") is the only sign.
  if (status === 429 || (status === 403 && (wait !== undefined || /rate limit/i.test(e.message ?? '')))) {
    return new PortError('RATE_LIMITED', message, { retriable: true, retryAfterMs: wait ?? 60_000, status, cause: error });
  }
  if (status === 404 || status === 410) return new PortError('NOT_FOUND', message, { retriable: false, status, cause: error });
  if (status === 422) return new PortError('NOT_FOUND', message, { retriable: false, status, cause: error });
  if (status === undefined || status >= 500 || status === 408)
    return new PortError('UNAVAILABLE', message, { retriable: true, ...(wait === undefined ? {} : { retryAfterMs: wait }), status, cause: error });
  return new PortError('INVALID', message, { retriable: false, status, cause: error });
}
