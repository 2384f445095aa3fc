import type { z } from 'zod';
import { MAX_PUSH_COMMITS, type GitdexEvent, type RepositoryIdentity } from '@gitdex/contracts';
import {
  InstallationPayloadSchema,
  InstallationRepositoriesPayloadSchema,
  PullRequestActionSchema,
  PullRequestPayloadSchema,
  PushPayloadSchema,
  RefEventPayloadSchema,
  RepositoryPayloadSchema,
  type GitHubRepository,
} from './github-payloads';

export type Normalized = { outcome: 'events'; events: GitdexEvent[] } | { outcome: 'ping' } | { outcome: 'ignored'; reason: string };

/** The `pull_request` actions that change what gitdex serves; others are acknowledged and ignored. */
const PULL_ACTIONS = new Set(['opened', 'reopened', 'synchronize', 'edited', 'closed']);

/** A payload that lacks what the pipeline needs; `field` names the first such field. */
export class PayloadError extends Error {
  readonly code = 'PAYLOAD_INVALID';
  constructor(
    readonly field: string,
    detail: string,
  ) {
    super(`payload field "${field}": ${detail}`);
  }
}

interface Delivery {
  event: string;
  deliveryId: string;
  payload: unknown;
  receivedAt: string;
}

function parse<T extends z.ZodType>(schema: T, payload: unknown): z.infer<T> {
  const result = schema.safeParse(payload);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new PayloadError(issue?.path.join('.') || '(body)', issue?.message ?? 'invalid');
}

function identity(full: Pick<GitHubRepository, 'id' | 'full_name'> & Partial<GitHubRepository>): RepositoryIdentity {
  return {
    id: full.id,
    fullName: full.full_name,
    ...((full.default_branch ?? full.master_branch) ? { defaultBranch: full.default_branch ?? full.master_branch } : {}),
    ...(full.private === undefined ? {} : { private: full.private }),
    ...(full.html_url ? { htmlUrl: full.html_url } : {}),
  };
}

function pushedAt(value: number | string | null | undefined): string | undefined {
  if (value === null || value === undefined) return undefined;
  const date = typeof value === 'number' ? new Date(value * 1000) : new Date(value);
  // Only for information: a time no ISO string can hold (past year 9999) is dropped, not refused.
  return Number.isNaN(date.getTime()) || date.getUTCFullYear() > 9999 ? undefined : date.toISOString();
}

/**
 * Turns one GitHub delivery into the pipeline's events. Pure: the same delivery always
 * gives the same events, with the delivery id as their idempotence key.
 */
export function normalizeDelivery({ event, deliveryId, payload, receivedAt }: Delivery): Normalized {
  const base = (repository: RepositoryIdentity, installationId: number | undefined, suffix = '') => ({
    eventId: suffix ? `${deliveryId}:${suffix}` : deliveryId,
    repository,
    receivedAt,
    ...(installationId ? { installationId } : {}),
  });

  switch (event) {
    case 'ping':
      return { outcome: 'ping' };
    case 'push': {
      const push = parse(PushPayloadSchema, payload);
      const at = pushedAt(push.repository.pushed_at);
      return {
        outcome: 'events',
        events: [
          {
            kind: 'push',
            ...base(identity(push.repository), push.installation?.id),
            ref: push.ref,
            before: push.before,
            after: push.after,
            created: push.created,
            deleted: push.deleted,
            forced: push.forced,
            ...(at ? { pushedAt: at } : {}),
            ...(push.commits?.length ? { commits: push.commits.slice(-MAX_PUSH_COMMITS).map((commit) => commit.id) } : {}),
          },
        ],
      };
    }
    case 'pull_request': {
      const { action } = parse(PullRequestActionSchema, payload);
      if (!PULL_ACTIONS.has(action)) return { outcome: 'ignored', reason: `pull_request ${action}` };
      const pull = parse(PullRequestPayloadSchema, payload);
      // A new title alone changes no content; the stored title follows on the next indexed event.
      if (pull.action === 'edited' && !pull.changes?.base) return { outcome: 'ignored', reason: 'pull_request edited without a new base' };
      const pr = pull.pull_request;
      return {
        outcome: 'events',
        events: [
          {
            kind: 'pull_request',
            ...base(identity(pull.repository), pull.installation?.id),
            action: pull.action,
            pull: {
              number: pull.number,
              title: pr.title,
              state: pr.state,
              merged: pr.merged ?? false,
              draft: pr.draft ?? false,
              author: pr.user?.login ?? null,
              baseRef: pr.base.ref,
              headSha: pr.head.sha,
              updatedAt: new Date(pr.updated_at).toISOString(),
              closedAt: pr.closed_at === null ? null : new Date(pr.closed_at).toISOString(),
            },
          },
        ],
      };
    }
    case 'create':
    case 'delete': {
      const refEvent = parse(RefEventPayloadSchema, payload);
      const tag = refEvent.ref_type === 'tag';
      const ref = `refs/${tag ? 'tags' : 'heads'}/${refEvent.ref}`;
      const common = base(identity(refEvent.repository), refEvent.installation?.id);
      // A deleted branch or tag is checked against GitHub by the indexer before anything goes;
      // the indexer drops refs GITDEX_INDEXED_REFS does not select.
      return event === 'create'
        ? { outcome: 'events', events: [{ kind: 'backfill', ...common, ref, reason: tag ? 'tag_created' : 'branch_created' }] }
        : { outcome: 'events', events: [{ kind: 'purge', ...common, ref, reason: tag ? 'tag_deleted' : 'branch_deleted' }] };
    }
    case 'repository': {
      const change = parse(RepositoryPayloadSchema, payload);
      const common = base(identity(change.repository), change.installation?.id);
      if (change.action === 'deleted') return { outcome: 'events', events: [{ kind: 'purge', ...common, reason: 'repository_deleted' }] };
      if (change.action === 'created') return { outcome: 'events', events: [{ kind: 'backfill', ...common, reason: 'repository_changed' }] };
      const owner = change.repository.full_name.split('/')[0] ?? '';
      const name = change.repository.full_name.split('/')[1] ?? '';
      const fromOwner = change.changes?.owner?.from.user?.login ?? change.changes?.owner?.from.organization?.login;
      const fromName = change.changes?.repository?.name?.from;
      const previousFullName = fromName ? `${owner}/${fromName}` : fromOwner ? `${fromOwner}/${name}` : undefined;
      return {
        outcome: 'events',
        events: [{ kind: 'repository_changed', ...common, action: change.action, ...(previousFullName ? { previousFullName } : {}) }],
      };
    }
    case 'installation': {
      const install = parse(InstallationPayloadSchema, payload);
      const repositories = install.repositories ?? [];
      if (install.action === 'created' || install.action === 'unsuspend') {
        return { outcome: 'events', events: repositories.map((r) => ({ kind: 'backfill', ...base(identity(r), install.installation.id, String(r.id)), reason: 'installation' })) };
      }
      if (install.action === 'deleted' || install.action === 'suspend') {
        return { outcome: 'events', events: repositories.map((r) => ({ kind: 'purge', ...base(identity(r), install.installation.id, String(r.id)), reason: 'installation_removed' })) };
      }
      return { outcome: 'ignored', reason: `installation ${install.action}` };
    }
    case 'installation_repositories': {
      const change = parse(InstallationRepositoriesPayloadSchema, payload);
      const id = change.installation.id;
      return {
        outcome: 'events',
        events: [
          ...change.repositories_added.map((r): GitdexEvent => ({ kind: 'backfill', ...base(identity(r), id, String(r.id)), reason: 'installation' })),
          ...change.repositories_removed.map((r): GitdexEvent => ({ kind: 'purge', ...base(identity(r), id, String(r.id)), reason: 'installation_removed' })),
        ],
      };
    }
    default:
      return { outcome: 'ignored', reason: `event ${event} is not used by gitdex` };
  }
}
