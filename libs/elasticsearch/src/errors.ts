import { errors } from '@elastic/elasticsearch';
import { PortError } from '@gitdex/ports';

interface EsErrorBody {
  error?: { type?: string; reason?: string; root_cause?: { type?: string; reason?: string }[] } | string;
  status?: number;
}

/** "type: reason" of an Elasticsearch error body, for messages. */
export function describeEsError(body: unknown): string {
  const error = (body as EsErrorBody | undefined)?.error;
  if (!error) return typeof body === 'string' ? body : JSON.stringify(body ?? null).slice(0, 300);
  if (typeof error === 'string') return error;
  return `${error.type ?? 'error'}: ${error.reason ?? error.root_cause?.[0]?.reason ?? ''}`.trim();
}

function retryAfterMs(headers: Record<string, unknown> | undefined): number | undefined {
  const value = headers?.['retry-after'];
  const seconds = typeof value === 'string' ? Number(value) : NaN;
  return Number.isFinite(seconds) ? seconds * 1000 : undefined;
}

/**
 * Maps a client failure to the port's error, naming the engine, the node and the action.
 * Unreachable, timed out or overloaded → retriable; a rejected request → INVALID/INTERNAL.
 */
export function toPortError(error: unknown, node: string, action: string): PortError {
  if (error instanceof PortError) return error;
  const where = `Elasticsearch at ${node}`;
  if (error instanceof errors.ConnectionError || error instanceof errors.TimeoutError || error instanceof errors.NoLivingConnectionsError || error instanceof errors.RequestAbortedError) {
    return new PortError('UNAVAILABLE', `${where} is unreachable (${action}): ${error.message}`, { cause: error });
  }
  if (error instanceof errors.ResponseError) {
    const status = error.statusCode ?? 0;
    const detail = describeEsError(error.body);
    const message = `${where} answered ${status} to ${action}: ${detail}`;
    if (status === 429) return new PortError('RATE_LIMITED', message, { status, cause: error, retryAfterMs: retryAfterMs(error.headers) });
    if (status >= 500) return new PortError('UNAVAILABLE', message, { status, cause: error });
    if (status === 409) return new PortError('CONFLICT', message, { status, cause: error });
    if (errorTypes(error.body).some((type) => LOST_SEARCH_CONTEXT.has(type))) {
      return new PortError('UNAVAILABLE', `${message} (a node holding the scroll left or restarted: the operation starts again)`, { status, cause: error });
    }
    if (errorType(error.body) === 'index_not_found_exception') {
      return new PortError('INTERNAL', `${message} (run ensureReady() to create the indices)`, { status, cause: error });
    }
    if (status === 400) return new PortError('INVALID', message, { status, cause: error });
    return new PortError('INTERNAL', message, { status, cause: error });
  }
  const text = error instanceof Error ? error.message : String(error);
  return new PortError('INTERNAL', `${where} failed during ${action}: ${text}`, { cause: error });
}

/**
 * Whether Elasticsearch answered that it is overloaded or failing (429, 5xx): a request worth
 * sending again after a pause, unlike a node that cannot be reached at all.
 */
export function answeredOverloaded(error: PortError): boolean {
  return error.status !== undefined && (error.status === 429 || error.status >= 500);
}

/**
 * A scroll or point in time whose search context is gone: the node holding it left the cluster
 * or restarted (404). Nothing was wrong with the request; run again, it finds the shards where
 * they are now.
 */
const LOST_SEARCH_CONTEXT = new Set(['search_context_missing_exception', 'search_context_missing_nodes_exception']);

/** The error's type and its root causes' types. */
function errorTypes(body: unknown): string[] {
  const error = (body as EsErrorBody | undefined)?.error;
  if (typeof error !== 'object') return [];
  return [error.type, ...(error.root_cause ?? []).map((cause) => cause.type)].filter((type): type is string => type !== undefined);
}

function errorType(body: unknown): string | undefined {
  const error = (body as EsErrorBody | undefined)?.error;
  return typeof error === 'object' ? error.type : undefined;
}

/** Whether a client failure is a 404 "document not found" (not an index that is missing). */
export function isDocumentNotFound(error: unknown): boolean {
  return error instanceof errors.ResponseError && error.statusCode === 404 && (error.body as { found?: boolean })?.found === false;
}
