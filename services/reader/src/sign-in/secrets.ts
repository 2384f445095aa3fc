import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * A new bearer secret: 32 random bytes (256 bits, past any guessing) as base64url, after a
 * prefix that says what it is (secret scanners and people reading a log line can tell a gitdex
 * access token from a refresh token).
 */
export function newSecret(prefix: string): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

/** The key a secret is stored under: its SHA-256, so a copy of the store holds no usable token. */
export function digestOf(secret: string): string {
  return createHash('sha256').update(secret).digest('base64url');
}

/** Encrypts and decrypts GitHub tokens at rest with AES-256-GCM (a fresh 96-bit nonce each time; the tag proves the text was not altered). */
export interface Sealer {
  seal(plain: string): string;
  /** Throws when the text was altered or sealed with another key. */
  open(sealed: string): string;
}

const VERSION = 'v1';

export function aesGcmSealer(key: Uint8Array): Sealer {
  if (key.length !== 32) throw new TypeError(`the token encryption key has ${key.length} bytes; AES-256-GCM needs 32`);
  return {
    seal(plain) {
      const nonce = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [VERSION, nonce.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
    },
    open(sealed) {
      const [version, nonce, body, tag] = sealed.split('.');
      if (version !== VERSION || nonce === undefined || body === undefined || tag === undefined) throw new TypeError('not a sealed token');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}
