import { encryptionKeyBytes, type Env } from '@gitdex/contracts';
import { createSignIn, type PermissionMirror, type SignIn } from '@gitdex/reader';
import type { SignInStore } from '@gitdex/ports';

/**
 * Sign-in with GitHub from the configuration, when GITDEX_GITHUB_OAUTH_CLIENT_ID is set
 * (loadEnv has already required the secret, the encryption key and the public URL with it).
 */
export function signInFromEnv(env: Env, store: SignInStore, mirror: Pick<PermissionMirror, 'resolveOnSignIn' | 'principalFor' | 'onRevoked'>): SignIn | undefined {
  const clientId = env.GITDEX_GITHUB_OAUTH_CLIENT_ID;
  if (!clientId) return undefined;
  const key = encryptionKeyBytes(env.GITDEX_TOKEN_ENCRYPTION_KEY ?? '');
  if (!key || !env.GITDEX_GITHUB_OAUTH_CLIENT_SECRET || !env.GITDEX_PUBLIC_URL)
    throw new TypeError('sign-in needs GITDEX_GITHUB_OAUTH_CLIENT_SECRET, GITDEX_TOKEN_ENCRYPTION_KEY and GITDEX_PUBLIC_URL (loadEnv checks them)');
  return createSignIn({
    store,
    people: mirror,
    github: { webUrl: env.GITHUB_WEB_URL, clientId, clientSecret: env.GITDEX_GITHUB_OAUTH_CLIENT_SECRET },
    encryptionKey: key,
    publicUrl: env.GITDEX_PUBLIC_URL,
  });
}
