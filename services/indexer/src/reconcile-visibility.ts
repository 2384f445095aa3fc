import type { RepositoryDocument } from '@gitdex/contracts';
import { PortError, type IndexReads, type IndexWrites, type Source, type SourceRepository } from '@gitdex/ports';

/** A repository whose metadata on GitHub differed from the index, and what was applied. */
export interface MetadataChange {
  repository: string;
  changed: ('private' | 'archived' | 'fullName' | 'defaultBranch')[];
}

export interface VisibilityReport {
  /** What was written: visibility never waits for a push. */
  metadata: MetadataChange[];
  failed: { repository: string; error: string }[];
  /** GitHub requests spent: list pages are not counted one by one (the client follows Link), so this counts lists and single reads. */
  lists: number;
  /** Pages those lists took (100 repositories a page): each is a request GitHub counts. */
  listPages: number;
  singleReads: number;
  /** Set when GitHub's rate limit stopped the refresh: the rest waits for the next pass. */
  rateLimited?: string;
  /**
   * Per installation whose whole list was read: repositories it shows that the index does not
   * have (added while their webhook was lost) and indexed ones it no longer shows (removed).
   */
  membership: InstallationMembership[];
}

export interface InstallationMembership {
  installationId: number;
  added: SourceRepository[];
  missing: RepositoryDocument[];
}

/**
 * Re-reads every indexed repository's metadata from GitHub, first from the repository lists
 * (one per installation, or the token's own list: 100 a request), then one by one for those no
 * list showed — a repository made private that gitdex can no longer see is only missing from a
 * list, and its own 404 is what marks it private. Repositories are then updated in the index.
 */
export async function refreshVisibility(index: IndexReads & IndexWrites, source: Source, repositories: readonly RepositoryDocument[]): Promise<VisibilityReport> {
  const report: VisibilityReport = { metadata: [], failed: [], lists: 0, listPages: 0, singleReads: 0, membership: [] };
  for (const [installationId, group] of byInstallation(repositories)) {
    const list = await listGroup(source, installationId, group, report);
    if (report.rateLimited) return report;
    const listed = list?.listed;
    if (installationId && list?.whole && listed) {
      const indexed = new Set(group.map((r) => r.repositoryId));
      const added = [...listed.values()].filter((r) => !indexed.has(r.id));
      const missing = group.filter((r) => !listed.has(r.repositoryId));
      if (added.length > 0 || missing.length > 0) report.membership.push({ installationId, added, missing });
    }
    for (const repository of group) {
      try {
        let current: SourceRepository | null | undefined = listed?.get(repository.repositoryId);
        if (current === undefined) {
          report.singleReads += 1;
          current = await source.repository(repository.repositoryId, installationId);
        }
        const change = await applyMetadata(index, repository, current);
        if (change) report.metadata.push(change);
      } catch (error) {
        if (stopsThePass(error)) {
          report.rateLimited = messageOf(error);
          return report;
        }
        report.failed.push({ repository: repository.fullName, error: messageOf(error) });
      }
    }
  }
  return report;
}

function byInstallation(repositories: readonly RepositoryDocument[]): Map<number | undefined, RepositoryDocument[]> {
  const groups = new Map<number | undefined, RepositoryDocument[]>();
  for (const repository of repositories) {
    const key = repository.installationId ?? undefined;
    const group = groups.get(key) ?? [];
    group.push(repository);
    groups.set(key, group);
  }
  return groups;
}

/** The group's repositories as GitHub lists them; null when it cannot list (each is read on its own then). */
async function listGroup(
  source: Source,
  installationId: number | undefined,
  group: RepositoryDocument[],
  report: VisibilityReport,
): Promise<{ listed: Map<number, SourceRepository>; whole: boolean } | null> {
  if (!source.listRepositories && !(installationId && source.installationRepositories)) return null;
  try {
    report.lists += 1;
    // An App installation's list is read whole (a few pages: it is what the App may read), so
    // repositories added to it are found too; a token's list may be long and stops early.
    if (installationId && source.installationRepositories) {
      const whole = await source.installationRepositories(installationId);
      report.listPages += pagesOf(whole.length);
      return { listed: new Map(whole.map((r) => [r.id, r])), whole: true };
    }
    if (!source.listRepositories) return null;
    const listed = await source.listRepositories({ ...(installationId ? { installationId } : {}), until: new Set(group.map((r) => r.repositoryId)) });
    if (listed) report.listPages += pagesOf(listed.length);
    return listed && { listed: new Map(listed.map((r) => [r.id, r])), whole: false };
  } catch (error) {
    if (stopsThePass(error)) {
      report.rateLimited = messageOf(error);
      return null;
    }
    // A list that fails is reported; each repository is then read on its own.
    report.failed.push({ repository: installationId ? `installation ${installationId}` : 'repository list', error: messageOf(error) });
    return null;
  }
}

/**
 * Writes what changed. A repository made private whose webhook was lost is hidden from callers
 * who may not read it by this write. One GitHub no longer shows is treated as private, never
 * deleted here (see docs/security.md).
 */
async function applyMetadata(index: IndexReads & IndexWrites, repository: RepositoryDocument, current: SourceRepository | null): Promise<MetadataChange | null> {
  if (!current) {
    // GitHub no longer shows it to gitdex (made private without access, or deleted): hide it
    // from callers who may only read public repositories; deleting waits for confirmation.
    if (repository.private) return null;
    await index.putRepository({ ...repository, private: true });
    return { repository: repository.fullName, changed: ['private'] };
  }
  const changed: MetadataChange['changed'] = [];
  if (current.private !== repository.private) changed.push('private');
  if (current.archived !== repository.archived) changed.push('archived');
  if (current.fullName !== repository.fullName) changed.push('fullName');
  if (current.defaultBranch !== repository.defaultBranch) changed.push('defaultBranch');
  if (changed.length === 0) return null;
  await index.putRepository({ ...repository, private: current.private, archived: current.archived, fullName: current.fullName, defaultBranch: current.defaultBranch, htmlUrl: current.htmlUrl });
  return { repository: current.fullName, changed };
}

function pagesOf(repositories: number): number {
  return Math.max(1, Math.ceil(repositories / 100));
}

/** GitHub's rate limit answers every further request the same way until its reset: the pass stops. */
export function stopsThePass(error: unknown): boolean {
  return error instanceof PortError && error.code === 'RATE_LIMITED';
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
