// Options, runtime configuration and the shared state every route works with.
import type { FaultStore } from './faults';
import type { RateLimiter } from './rate-limit';
import type { OwnerType, Urls } from './repo-json';
import type { RepoStore } from './repo-store';
import type { RequestLog } from './request-log';
import type { WebhookSender } from './webhooks';

export interface GitHubStandInOptions {
  /** Directory holding <owner>/<repo> git repositories. */
  root: string;
  /** Port to listen on; 0 (default) picks a free one. */
  port?: number | undefined;
  /** Interface to listen on (default 127.0.0.1). */
  host?: string | undefined;
  /** Where push/repository webhooks are delivered. */
  webhookUrl?: string | undefined;
  /** Webhook secret for X-Hub-Signature(-256); unsigned when absent. */
  secret?: string | undefined;
  /** When set, API requests need "Authorization: token <token>" (or Bearer). */
  token?: string | undefined;
  /** Base of html_url/compare links (default https://github.com). */
  htmlBaseUrl?: string | undefined;
  /** Recursive trees truncate after this many entries (GitHub: 100,000). */
  maxTreeEntries?: number | undefined;
  /** Recursive trees truncate when the entries' JSON exceeds this size (GitHub: 7 MB). */
  maxTreeBytes?: number | undefined;
  /** Core rate limit per window (default 5000 per 3600 s). */
  rateLimit?: { limit?: number | undefined; windowSeconds?: number | undefined };
  /** Seconds until x-ratelimit-reset for primary rate-limit faults (default 1). */
  rateLimitResetSeconds?: number | undefined;
  /** Maximum commits listed in a push payload (default 20). */
  maxPayloadCommits?: number | undefined;
  /** X-GitHub-Hook-ID (default 1). */
  hookId?: number | undefined;
  /** Adds `installation: {id, node_id}` to payloads and backs the /app installation endpoints. */
  installationId?: number | undefined;
  /** Owners that are organizations (owner.type "Organization", `organization` in payloads). */
  organizations?: string[] | undefined;
  /** Login of the webhook `sender`/`pusher` (default: the repository owner). */
  sender?: string | undefined;
  /** Webhook delivery timeout (default 10 s). */
  deliveryTimeoutMs?: number | undefined;
  /** Where ids and delivery state persist (default <root>/.github-standin.json). */
  stateFile?: string | undefined;
  /** Called with one line per API request (for the CLI). */
  onRequestLog?: ((line: string) => void) | undefined;
  /**
   * Where generated archives are kept, by repository, commit and format, and served again
   * from: codeload serves archives it made before from its cache, so benchmarks time the
   * reader of an archive, not the stand-in's gzip. Off by default (no disk use).
   */
  archiveCacheDir?: string | undefined;
  /** How a latency fault waits (default: a timer); a test passes its own to see the delay without spending it. */
  sleep?: ((ms: number) => Promise<void>) | undefined;
}

/** The part of the options that can change at runtime (POST /_admin/config). */
export interface StandInConfig {
  webhookUrl?: string | undefined;
  secret?: string | undefined;
  token?: string | undefined;
  htmlBaseUrl: string;
  maxTreeEntries: number;
  maxTreeBytes: number;
  rateLimitResetSeconds: number;
  maxPayloadCommits: number;
  hookId: number;
  installationId?: number | undefined;
  organizations: string[];
  sender?: string | undefined;
  deliveryTimeoutMs: number;
}

export function resolveConfig(o: GitHubStandInOptions): StandInConfig {
  return {
    webhookUrl: o.webhookUrl,
    secret: o.secret,
    token: o.token,
    htmlBaseUrl: (o.htmlBaseUrl ?? 'https://github.com').replace(/\/$/, ''),
    maxTreeEntries: o.maxTreeEntries ?? 100_000,
    maxTreeBytes: o.maxTreeBytes ?? 7 * 1024 * 1024,
    rateLimitResetSeconds: o.rateLimitResetSeconds ?? 1,
    maxPayloadCommits: o.maxPayloadCommits ?? 20,
    hookId: o.hookId ?? 1,
    installationId: o.installationId,
    organizations: o.organizations ?? [],
    sender: o.sender,
    deliveryTimeoutMs: o.deliveryTimeoutMs ?? 10_000,
  };
}

export interface StandInContext {
  config: StandInConfig;
  store: RepoStore;
  faults: FaultStore;
  rateLimiter: RateLimiter;
  requests: RequestLog;
  webhooks: WebhookSender;
  /** Installation tokens minted by POST /app/installations/{id}/access_tokens. */
  mintedTokens: Set<string>;
  /** The stand-in's own base url (known once it listens). */
  apiUrl: string;
  archiveCacheDir?: string;
  /** How a latency fault waits. */
  sleep: (ms: number) => Promise<void>;
}

export function ownerType(ctx: StandInContext, login: string): OwnerType {
  return ctx.config.organizations.some((o) => o.toLowerCase() === login.toLowerCase()) ? 'Organization' : 'User';
}

export function urlsOf(ctx: StandInContext): Urls {
  return { apiUrl: ctx.apiUrl, htmlUrl: ctx.config.htmlBaseUrl };
}
