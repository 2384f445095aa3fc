/** Why a request body was not read, with the HTTP status an adapter answers. */
export type BodyErrorCode = 'unsupported_encoding' | 'payload_too_large' | 'busy' | 'address_busy' | 'body_timeout' | 'body_too_slow' | 'body_aborted';

const STATUS: Record<BodyErrorCode, number> = {
  unsupported_encoding: 415,
  payload_too_large: 413,
  busy: 503,
  address_busy: 429,
  body_timeout: 408,
  body_too_slow: 408,
  // Nobody is left to read the answer; 400 is what is logged.
  body_aborted: 400,
};

/**
 * A body refused while (or before) it was read. The message is written for the sender;
 * `retryAfterSeconds` is set when trying again shortly can succeed.
 */
export class BodyError extends Error {
  readonly status: number;
  constructor(
    readonly code: BodyErrorCode,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'BodyError';
    this.status = STATUS[code];
  }
}
