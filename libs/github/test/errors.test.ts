import { toPortError } from '../src/errors';

describe('GitHub errors carry the status GitHub answered', () => {
  it.each([
    [503, 'UNAVAILABLE', true],
    [404, 'NOT_FOUND', false],
    [401, 'INVALID', false],
    [429, 'RATE_LIMITED', true],
  ])('%i', (status, code, retriable) => {
    expect(toPortError({ status, message: 'Something' }, 'get tree')).toMatchObject({ status, code, retriable });
  });

  it('no answer at all has no status and is retried', () => {
    expect(toPortError(new Error('connect ECONNREFUSED 127.0.0.1:443'), 'get tree')).toMatchObject({ status: undefined, code: 'UNAVAILABLE', retriable: true });
  });

  it('a 403 is a rate limit when its headers say so, whatever the message', () => {
    const limited = toPortError({ status: 403, message: 'Forbidden', response: { headers: { 'retry-after': '7' } } }, 'get blob');
    expect(limited).toMatchObject({ code: 'RATE_LIMITED', status: 403, retryAfterMs: 7000 });
  });
});
