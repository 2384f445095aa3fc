import { InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { Authenticate } from '../http/auth';
import type { SignInPeople } from './people';
import { ACCESS_TOKEN_PREFIX, type SignInProvider } from './provider';

/**
 * Who calls, for people and machines at once: a gitdex access token (issued at sign-in) is
 * verified by the provider (unexpired, for this resource, its grant live) and becomes the
 * person's Principal with what the permission mirror says they may read now; any other
 * bearer token goes to the machines' hook (static tokens), unchanged.
 */
export function signInAuthenticate(provider: SignInProvider, people: SignInPeople, machines?: Authenticate): Authenticate {
  return async (req) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    const token = match?.[1];
    if (token?.startsWith(ACCESS_TOKEN_PREFIX)) {
      try {
        const info = await provider.verifyAccessToken(token);
        const userId = info.extra?.userId;
        return typeof userId === 'number' ? await people.principalFor(userId) : null;
      } catch (error) {
        if (error instanceof InvalidTokenError) return null;
        throw error;
      }
    }
    return machines ? machines(req) : null;
  };
}
