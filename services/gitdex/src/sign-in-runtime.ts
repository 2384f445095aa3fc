import { encryptionKeyBytes, type Env } from '@gitdex/contracts';
import { errorFields, type Log } from '@gitdex/observability';
import { GitHubUserAccessClient } from '@gitdex/github';
import { createSignIn, PermissionMirror, startPermissionRefresh, type SignIn } from '@gitdex/reader';
import type { Adapters } from './adapters';

/** Expired codes, tokens and grants are swept this often (they already read as absent; this only frees the space). */
const SWEEP_EVERY_MS = 10 * 60_000;

export interface People {
  /** Which repositories each signed-in person may read (webhooks feed it; readers ask it). */
  mirror: PermissionMirror;
  /** gitdex's authorization server in front of GitHub. */
  signIn: SignIn;
  /** Starts the periodic permission refresh and the sweep of expired sign-in records (the reader role runs them). */
  startTimers(): void;
  /** Stops the timers and waits for refreshes a team or organisation webhook left running. */
  stop(): Promise<void>;
}

/**
 * Sign-in with GitHub and the permission mirror from the configuration, when
 * GITDEX_GITHUB_OAUTH_CLIENT_ID is set (loadEnv has already required the secret, the
 * encryption key and the public URL with it); undefined otherwise.
 */
export function peopleFromEnv(env: Env, adapters: Pick<Adapters, 'signIn' | 'permissions'>, log: Log): People | undefined {
  const clientId = env.GITDEX_GITHUB_OAUTH_CLIENT_ID;
  if (!clientId) return undefined;
  const key = encryptionKeyBytes(env.GITDEX_TOKEN_ENCRYPTION_KEY ?? '');
  if (!key || !env.GITDEX_GITHUB_OAUTH_CLIENT_SECRET || !env.GITDEX_PUBLIC_URL)
    throw new TypeError('sign-in needs GITDEX_GITHUB_OAUTH_CLIENT_SECRET, GITDEX_TOKEN_ENCRYPTION_KEY and GITDEX_PUBLIC_URL (loadEnv checks them)');
  const mirror = new PermissionMirror({
    store: adapters.permissions,
    github: new GitHubUserAccessClient({ baseUrl: env.GITHUB_API_URL }),
    refreshSeconds: env.GITDEX_PERMISSION_REFRESH_SECONDS,
    // The mirror's refresh asks GitHub with the person's own token, which sign-in keeps sealed.
    tokens: (userId) => signIn.provider.gitHubTokenOf(userId),
    onError: (userId, error) => log.warn({ ...errorFields(error), userId }, 'permission refresh failed; the person keeps their last known permissions until the next pass'),
  });
  const signIn: SignIn = createSignIn({
    store: adapters.signIn,
    people: mirror,
    github: { webUrl: env.GITHUB_WEB_URL, clientId, clientSecret: env.GITDEX_GITHUB_OAUTH_CLIENT_SECRET },
    encryptionKey: key,
    publicUrl: env.GITDEX_PUBLIC_URL,
  });
  const stops: (() => void)[] = [];
  return {
    mirror,
    signIn,
    startTimers() {
      stops.push(startPermissionRefresh(mirror, { onError: (error) => log.warn(errorFields(error), 'a permission refresh pass failed') }));
      const sweep = setInterval(() => {
        adapters.signIn.sweep(new Date()).catch((error: unknown) => log.warn(errorFields(error), 'sweeping expired sign-in records failed'));
      }, SWEEP_EVERY_MS);
      sweep.unref();
      stops.push(() => clearInterval(sweep));
    },
    async stop() {
      for (const stop of stops.splice(0)) stop();
      await mirror.settled();
    },
  };
}
