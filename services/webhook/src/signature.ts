import { createHmac, timingSafeEqual } from 'node:crypto';
import { signatureWellFormed } from './admission';

const PREFIX = 'sha256=';

/**
 * Checks X-Hub-Signature-256 against every configured secret, so a secret can be
 * rotated by configuring old and new together. Comparison is constant-time, and
 * every secret is tried, so timing does not tell which one matched.
 */
export function verifySignature(rawBody: Buffer, header: string | undefined, secrets: readonly string[]): boolean {
  // Exactly sha256= and 64 hex digits: Node's hex decoding would stop quietly at junk.
  if (!signatureWellFormed(header) || secrets.length === 0) return false;
  const given = Buffer.from(header!.slice(PREFIX.length), 'hex');
  if (given.length !== 32) return false;
  let matched = false;
  for (const secret of secrets) {
    const expected = createHmac('sha256', secret).update(rawBody).digest();
    if (timingSafeEqual(expected, given)) matched = true;
  }
  return matched;
}

export function sign(rawBody: Buffer | string, secret: string): string {
  return PREFIX + createHmac('sha256', secret).update(rawBody).digest('hex');
}
