/**
 * One error base for every port. `retriable` drives the retry-or-dead-letter decision;
 * `retryAfterMs` carries what the outside system asked for (retry-after, rate-limit reset).
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

  constructor(code: PortErrorCode, message: string, options: { retriable?: boolean; retryAfterMs?: number | undefined; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'PortError';
    this.code = code;
    this.retriable = options.retriable ?? (code === 'UNAVAILABLE' || code === 'RATE_LIMITED' || code === 'CONFLICT');
    this.retryAfterMs = options.retryAfterMs;
  }
}
