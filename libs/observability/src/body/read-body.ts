import type { Readable } from 'node:stream';
import { BodyBudget } from './budget';
import { BodyError } from './body-error';

/** How much, how long and how slowly a body may come. */
export interface BodyLimits {
  /** Largest body (bytes actually read; a larger declared Content-Length is refused unread). */
  maxBytes: number;
  /** The whole body must have arrived this long after reading began. */
  timeoutMs: number;
  /** After graceMs, a body averaging fewer bytes a second since reading began is cut off (0: no minimum). */
  minBytesPerSecond: number;
  graceMs: number;
}

/** Time for the deadline checks; injected in tests. */
export interface BodyClock {
  now(): number;
  /** Calls tick every ms until the returned function is called. */
  every(ms: number, tick: () => void): () => void;
}

export const systemClock: BodyClock = {
  now: () => Date.now(),
  every: (ms, tick) => {
    const timer = setInterval(tick, ms);
    timer.unref();
    return () => clearInterval(timer);
  },
};

export interface ReadBodyOptions extends BodyLimits {
  budget: BodyBudget;
  /** The sender's address, for its share of the budget. */
  address: string;
  /** The request's Content-Encoding header: only identity is read. */
  contentEncoding?: string | undefined;
  /** The request's Content-Length header, when it has one. */
  contentLength?: string | undefined;
  clock?: BodyClock;
}

/** A body read whole; its bytes stay counted in the budget until release(). */
export interface BodyRead {
  bytes: Buffer;
  /** Gives the bytes back to the budget (once; later calls do nothing). */
  release: () => void;
}

/** The minimal stream a body is read from (an IncomingMessage is one). */
export type BodySource = Pick<Readable, 'on' | 'off' | 'pause' | 'resume'>;

/**
 * Reads a request body into memory, counting each chunk as it arrives against a budget
 * shared by all requests and by each address, so memory follows bytes received, never
 * bytes declared. A compressed body is refused before a byte is read (nothing is
 * inflated); so is a declared length over the limit. Reading stops at the first chunk
 * past a limit, at the deadline, or when the average rate falls under the minimum after
 * the grace period; the budget is given back at once on every failure, and by release()
 * after success.
 */
export function readBody(source: BodySource, options: ReadBodyOptions): Promise<BodyRead> {
  const encoding = (options.contentEncoding ?? '').trim().toLowerCase();
  if (encoding !== '' && encoding !== 'identity') {
    return Promise.reject(
      new BodyError('unsupported_encoding', `Content-Encoding ${JSON.stringify(encoding.slice(0, 40))} is not accepted: send the body uncompressed (no Content-Encoding, or identity)`),
    );
  }
  const declared = options.contentLength === undefined ? NaN : Number(options.contentLength);
  if (declared > options.maxBytes) return Promise.reject(tooLarge(options.maxBytes));

  const { budget, address } = options;
  const clock = options.clock ?? systemClock;
  return new Promise<BodyRead>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const started = clock.now();
    const giveBack = () => {
      budget.give(address, received);
      received = 0;
    };
    const finish = (error?: BodyError) => {
      if (settled) return;
      settled = true;
      stopTicking();
      source.off('data', onData);
      source.off('end', onEnd);
      source.off('error', onError);
      source.off('close', onClose);
      if (error) {
        // Stop taking the sender's bytes; the adapter answers and closes the connection.
        source.pause();
        chunks.length = 0;
        giveBack();
        reject(error);
        return;
      }
      const bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, received);
      chunks.length = 0;
      let released = false;
      resolve({
        bytes,
        release: () => {
          if (released) return;
          released = true;
          giveBack();
        },
      });
    };
    const onData = (chunk: Buffer | string) => {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      if (received + buffer.length > options.maxBytes) return finish(tooLarge(options.maxBytes));
      const refusal = budget.take(address, buffer.length);
      if (refusal === 'busy') return finish(new BodyError('busy', 'too many request body bytes are being received at once; retry shortly', 1));
      if (refusal === 'address_busy') return finish(new BodyError('address_busy', `requests from this address hold ${budget.maxBytesPerAddress} body bytes already; retry when they finish`, 1));
      received += buffer.length;
      chunks.push(buffer);
    };
    const onEnd = () => finish();
    const onError = () => finish(new BodyError('body_aborted', 'the request body was not received whole: the connection failed'));
    const onClose = () => finish(new BodyError('body_aborted', 'the connection closed before the request body was received whole'));
    const check = () => {
      const elapsed = clock.now() - started;
      if (elapsed >= options.timeoutMs) finish(new BodyError('body_timeout', `the request body did not arrive within ${options.timeoutMs / 1000} s`));
      else if (options.minBytesPerSecond > 0 && elapsed >= options.graceMs && received < (options.minBytesPerSecond * elapsed) / 1000)
        finish(new BodyError('body_too_slow', `the request body arrived slower than ${options.minBytesPerSecond} bytes a second`));
    };
    const stopTicking = clock.every(checkInterval(options), check);
    source.on('data', onData);
    source.on('end', onEnd);
    source.on('error', onError);
    source.on('close', onClose);
    source.resume();
  });
}

function tooLarge(maxBytes: number): BodyError {
  return new BodyError('payload_too_large', `request bodies are limited to ${maxBytes} bytes`);
}

/** Often enough that a limit is enforced within a tenth of itself, at most once a second. */
function checkInterval(limits: BodyLimits): number {
  const shortest = limits.minBytesPerSecond > 0 ? Math.min(limits.timeoutMs, Math.max(limits.graceMs, 1)) : limits.timeoutMs;
  return Math.max(5, Math.min(1000, Math.ceil(shortest / 10)));
}
