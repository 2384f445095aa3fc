import { createHmac } from 'node:crypto';
import { sign, verifySignature } from '../src/signature';

const body = Buffer.from('{"zen":"Design for failure."}');

describe('verifySignature', () => {
  it('accepts the signature made with a configured secret', () => {
    expect(verifySignature(body, sign(body, 's3cret'), ['s3cret'])).toBe(true);
  });

  it('accepts either secret while a secret is being rotated', () => {
    expect(verifySignature(body, sign(body, 'old'), ['new', 'old'])).toBe(true);
    expect(verifySignature(body, sign(body, 'new'), ['new', 'old'])).toBe(true);
  });

  it('refuses a missing header, a wrong secret and a body altered by one byte', () => {
    expect(verifySignature(body, undefined, ['s3cret'])).toBe(false);
    expect(verifySignature(body, sign(body, 'other'), ['s3cret'])).toBe(false);
    const altered = Buffer.from(body);
    altered[3] = altered[3]! ^ 1;
    expect(verifySignature(altered, sign(body, 's3cret'), ['s3cret'])).toBe(false);
  });

  it('refuses the sha1 algorithm prefix and malformed digests', () => {
    const sha1 = 'sha1=' + createHmac('sha1', 's3cret').update(body).digest('hex');
    expect(verifySignature(body, sha1, ['s3cret'])).toBe(false);
    expect(verifySignature(body, 'sha256=abc', ['s3cret'])).toBe(false);
    expect(verifySignature(body, 'sha256=' + 'zz'.repeat(32), ['s3cret'])).toBe(false);
    expect(verifySignature(body, sign(body, 's3cret').toUpperCase(), ['s3cret'])).toBe(false);
  });

  it('refuses everything when no secret is configured', () => {
    expect(verifySignature(body, sign(body, ''), [])).toBe(false);
  });
});
