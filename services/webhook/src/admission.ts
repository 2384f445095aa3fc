import type { NextFunction, Request, Response } from 'express';

/** Exactly what GitHub sends: `sha256=` and 64 lower-case hex digits. Anything else is refused unread. */
const SIGNATURE_SHAPE = /^sha256=[0-9a-f]{64}$/;

export function signatureWellFormed(header: string | undefined): boolean {
  return typeof header === 'string' && SIGNATURE_SHAPE.test(header);
}

/**
 * GitHub's webhook event names. A metric label takes the X-GitHub-Event header only when it
 * is one of these: the header of an unsigned request is anyone's text, and each new value
 * would be a new Prometheus series.
 */
const KNOWN_EVENTS = new Set(
  (
    'branch_protection_configuration branch_protection_rule check_run check_suite code_scanning_alert commit_comment create custom_property ' +
    'custom_property_values delete dependabot_alert deploy_key deployment deployment_protection_rule deployment_review deployment_status ' +
    'discussion discussion_comment fork github_app_authorization gollum installation installation_repositories installation_target ' +
    'issue_comment issues label marketplace_purchase member membership merge_group meta milestone org_block organization package ' +
    'page_build personal_access_token_request ping project project_card project_column projects_v2 projects_v2_item public pull_request ' +
    'pull_request_review pull_request_review_comment pull_request_review_thread push registry_package release repository ' +
    'repository_advisory repository_dispatch repository_import repository_ruleset repository_vulnerability_alert secret_scanning_alert ' +
    'secret_scanning_alert_location security_advisory security_and_analysis sponsorship star status sub_issues team team_add watch ' +
    'workflow_dispatch workflow_job workflow_run'
  ).split(' '),
);

/** The `event` label for a delivery: a known GitHub event name, else `unknown`. */
export function eventLabel(event: string | undefined): string {
  return event && KNOWN_EVENTS.has(event) ? event : 'unknown';
}

export interface AdmissionOptions {
  /** 401s an address may earn a minute before it is answered 429 unread (default 60). */
  refusalsPerMinute?: number;
  /** Addresses tracked at most by the refusal throttle. */
  maxAddresses?: number;
  now?: () => number;
  /** Told of each request refused here, with its outcome (`unauthorized`, `throttled`). */
  onRefused?: (outcome: string, event: string) => void;
}

/**
 * What runs before a webhook body is read, so a caller who cannot sign costs no memory:
 * the signature header must be well formed, and an address that keeps failing to sign is
 * throttled (GitHub never redelivers on its own, so the service must stay up for the real
 * deliveries). The bytes of bodies being read are bounded where they are read (body.ts).
 */
export class WebhookAdmission {
  private readonly refusalsPerMinute: number;
  private readonly maxAddresses: number;
  private readonly now: () => number;
  private readonly refusals = new Map<string, { count: number; since: number }>();

  constructor(private readonly options: AdmissionOptions = {}) {
    this.refusalsPerMinute = options.refusalsPerMinute ?? 60;
    this.maxAddresses = options.maxAddresses ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  /** Counts a 401 against the address (called once the signature did not match). */
  refused(address: string): void {
    const now = this.now();
    const entry = this.refusals.get(address);
    if (entry && now - entry.since < 60_000) entry.count += 1;
    else {
      if (this.refusals.size >= this.maxAddresses) this.forgetOld(now);
      this.refusals.set(address, { count: 1, since: now });
    }
  }

  private throttled(address: string): number {
    const entry = this.refusals.get(address);
    if (!entry) return 0;
    const left = 60_000 - (this.now() - entry.since);
    if (left <= 0) {
      this.refusals.delete(address);
      return 0;
    }
    return entry.count >= this.refusalsPerMinute ? Math.ceil(left / 1000) : 0;
  }

  private forgetOld(now: number): void {
    for (const [key, entry] of this.refusals) if (now - entry.since >= 60_000 || this.refusals.size >= this.maxAddresses) this.refusals.delete(key);
  }

  /** The express middleware that runs before the body parser. */
  readonly guard = (req: Request, res: Response, next: NextFunction): void => {
    const event = eventLabel(req.get('x-github-event'));
    const address = addressOf(req);
    const refuse = (status: number, outcome: string, body: Record<string, unknown>, headers: Record<string, string> = {}) => {
      this.options.onRefused?.(outcome, event);
      // The body is not read: close the connection rather than drain it.
      res
        .status(status)
        .set({ ...headers, Connection: 'close' })
        .json(body);
    };
    const wait = this.throttled(address);
    if (wait > 0) {
      refuse(
        429,
        'throttled',
        { error: 'too_many_unauthorized', message: `too many deliveries with a wrong signature from this address; retry after ${wait} seconds` },
        { 'Retry-After': String(wait) },
      );
      return;
    }
    if (!signatureWellFormed(req.get('x-hub-signature-256'))) {
      this.refused(address);
      refuse(401, 'unauthorized', { error: 'signature_invalid', message: 'X-Hub-Signature-256 must be "sha256=" followed by 64 lower-case hex digits' });
      return;
    }
    next();
  };
}

/** The socket's address: gitdex does not trust X-Forwarded-For. */
export function addressOf(req: Request): string {
  return req.socket.remoteAddress ?? 'unknown';
}
