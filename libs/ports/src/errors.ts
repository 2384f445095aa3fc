/**
 * One error base for every port. `retriable` drives the retry-or-dead-letter decision;
 * `retryAfterMs` carries what the outside system asked for (retry-after, rate-limit reset);
 * `status` is the HTTP status it answered, when it answered one. Decisions read these fields,
 * never the message, which is written for people.
 */
export type PortErrorCode =
  | 'UNAVAILABLE' // the engine or GitHub cannot be reached right now
  | 'RATE_LIMITED'
  | 'NOT_FOUND'
  | 'CONFLICT' // a concurrent writer changed the state first
  | 'INVALID' // the input can never succeed
  | 'INTERNAL';

export class PortError extends Error {
  readonly code: PortErrorCode;
  readonly retriable: boolean;
  readonly retryAfterMs: number | undefined;
  /** The HTTP status the outside system answered; undefined when it did not answer (unreachable, timed out). */
  readonly status: number | undefined;

  constructor(code: PortErrorCode, message: string, options: { retriable?: boolean; retryAfterMs?: number | undefined; status?: number | undefined; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'PortError';
    this.code = code;
    this.retriable = options.retriable ?? (code === 'UNAVAILABLE' || code === 'RATE_LIMITED' || code === 'CONFLICT');
    this.retryAfterMs = options.retryAfterMs;
    this.status = options.status;
  }
}
