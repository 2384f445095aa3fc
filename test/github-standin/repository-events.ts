// `repository` webhook payloads (renamed, transferred, deleted, privatized, ...), built from a repo
// as it is at the time of the event (build before deleting the directory).
import type { RepositoryEvent, User } from '@octokit/webhooks-types';
import { ownerType, urlsOf, type StandInContext } from './context';
import { payloadParties } from './payload-common';
import { loadRepoFacts, repoJson, userJson } from './repo-json';
import type { RepoHandle } from './repo-store';

export type RepositoryAction = RepositoryEvent['action'];

export interface RepositoryChanges {
  /** renamed: the previous name. */
  fromName?: string;
  /** transferred: the previous owner's login. */
  fromOwner?: string;
}

export async function repositoryEventPayload(ctx: StandInContext, repo: RepoHandle, action: RepositoryAction, changes: RepositoryChanges = {}): Promise<RepositoryEvent> {
  const urls = urlsOf(ctx);
  const repository = repoJson(repo, await loadRepoFacts(repo), urls, ownerType(ctx, repo.owner), 'event');
  const common = { repository, ...payloadParties(ctx, repo.owner) };
  switch (action) {
    case 'renamed':
      return { action, changes: { repository: { name: { from: changes.fromName ?? repo.name } } }, ...common };
    case 'transferred': {
      const from = changes.fromOwner ?? repo.owner;
      const previous: User = userJson(from, ownerType(ctx, from), urls);
      // GitHub sends {organization: ...} for organizations, which the schema does not list.
      const fromParty = previous.type === 'Organization' ? ({ organization: previous } as { user?: User }) : { user: previous };
      return { action, changes: { owner: { from: fromParty } }, ...common };
    }
    case 'edited':
      return { action, changes: {}, ...common };
    case 'privatized':
    case 'publicized':
    case 'archived':
    case 'unarchived':
    case 'created':
    case 'deleted':
      // The literal flags (private: true, archived: true, ...) follow from the repo's settings.
      return { action, ...common } as RepositoryEvent;
  }
}
