// An Octokit (with the retry and throttling plugins, as gitdex uses) pointed at a stand-in,
// with short waits so fault tests run fast. Handlers are recorded for assertions.
import { Octokit } from '@octokit/rest';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';

export const StandInOctokit = Octokit.plugin(retry, throttling);
export type StandInOctokitInstance = InstanceType<typeof StandInOctokit>;

export interface LimitEvent {
  kind: 'primary' | 'secondary';
  retryAfter: number;
  method: string;
  url: string;
  retryCount: number;
}

export interface TestOctokitOptions {
  baseUrl: string;
  token?: string;
  /** Milliseconds per "second" the plugins wait before retrying (default 10). */
  retryAfterBaseValue?: number;
  /** Whether rate-limit handlers ask for a retry (default: once). */
  retryOnLimit?: (event: LimitEvent) => boolean;
}

export function createTestOctokit(options: TestOctokitOptions): { octokit: StandInOctokitInstance; limits: LimitEvent[] } {
  const limits: LimitEvent[] = [];
  const base = options.retryAfterBaseValue ?? 10;
  const decide = options.retryOnLimit ?? ((event: LimitEvent) => event.retryCount < 1);
  const handler =
    (kind: LimitEvent['kind']) =>
    (retryAfter: number, request: { method: string; url: string }, _octokit: unknown, retryCount: number): boolean => {
      const event = { kind, retryAfter, method: request.method, url: request.url, retryCount };
      limits.push(event);
      return decide(event);
    };
  const octokit = new StandInOctokit({
    baseUrl: options.baseUrl,
    auth: options.token,
    retry: { retryAfterBaseValue: base },
    throttle: { retryAfterBaseValue: base, onRateLimit: handler('primary'), onSecondaryRateLimit: handler('secondary') },
    log: { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined },
  });
  return { octokit, limits };
}

/** Status and GitHub message of an octokit call that failed (200 and '' when it succeeded). */
export async function statusOf(promise: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await promise;
    return { status: 200, message: '' };
  } catch (err) {
    const e = err as { status: number; response?: { data?: { message?: string } } };
    return { status: e.status, message: e.response?.data?.message ?? '' };
  }
}
