import type { GitdexEvent, RepositoryDocument } from '@gitdex/contracts';
import { PortError, type Source, type SourceRepository } from '@gitdex/ports';
import { SqliteIndexStore } from '@gitdex/sqlite';
import { handleEvent, type HandleEventDeps } from '../src/handle-event';
import { DEFAULT_INDEX_REF_OPTIONS } from '../src/index-ref';
import { RefSelection } from '../src/ref-selection';

/**
 * Issue 17, item 6: a purge that would delete without asking GitHub (installation removed)
 * is applied only once GitHub confirms the repository can no longer be read. A replayed or
 * forged delivery for a repository gitdex can still read deletes nothing.
 */
describe('installation_removed purges are confirmed with GitHub', () => {
  const repository: SourceRepository = { id: 42, fullName: 'acme/kept', defaultBranch: 'main', private: true, archived: false, htmlUrl: 'https://github.com/acme/kept' };
  const document: RepositoryDocument = {
    repositoryId: 42,
    fullName: 'acme/kept',
    fullNameLower: 'acme/kept',
    defaultBranch: 'main',
    private: true,
    archived: false,
    htmlUrl: 'https://github.com/acme/kept',
    installationId: 7,
    updatedAt: new Date(0).toISOString(),
    backfillRequestedAt: null,
  };
  let index: SqliteIndexStore;
  let readable: boolean;
  const asked: { repositoryId: number; installationId?: number }[] = [];

  /** GitHub as the purge path sees it: the repository is readable, or gone (NOT_FOUND → null). */
  const source = {
    async repository(repositoryId: number, installationId?: number) {
      asked.push({ repositoryId, ...(installationId === undefined ? {} : { installationId }) });
      return readable ? repository : null;
    },
  } as unknown as Source;

  const purge = (reason: 'installation_removed' | 'cli'): GitdexEvent => ({
    kind: 'purge',
    eventId: `d-${reason}`,
    installationId: 7,
    repository: { id: 42, fullName: 'acme/kept' },
    receivedAt: new Date().toISOString(),
    reason,
  });

  function deps(): HandleEventDeps {
    return { index, source, options: DEFAULT_INDEX_REF_OPTIONS, now: () => new Date(), refs: new RefSelection(['default']) };
  }

  beforeEach(async () => {
    index = new SqliteIndexStore({ file: ':memory:' });
    await index.ensureReady();
    await index.putRepository(document);
    asked.length = 0;
  });
  afterEach(() => index.close());

  it('keeps a repository GitHub still lets gitdex read (a replayed or forged delivery)', async () => {
    readable = true;
    const outcome = await handleEvent(deps(), purge('installation_removed'));
    expect(outcome).toEqual({ action: 'skipped', reason: expect.stringMatching(/still grants read access/) });
    expect(asked).toEqual([{ repositoryId: 42, installationId: 7 }]);
    expect(await index.getRepository(42)).toEqual(document);
  });

  it('purges once GitHub confirms the access is gone', async () => {
    readable = false;
    expect(await handleEvent(deps(), purge('installation_removed'))).toEqual({ action: 'purged', scope: 'repository' });
    expect(asked).toHaveLength(1);
    expect(await index.getRepository(42)).toBeNull();
  });

  it('deletes nothing when GitHub cannot answer: the error goes back to the worker to retry', async () => {
    const unavailable = {
      async repository() {
        throw new PortError('UNAVAILABLE', 'GitHub down', { retriable: true });
      },
    } as unknown as Source;
    await expect(handleEvent({ ...deps(), source: unavailable }, purge('installation_removed'))).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    expect(await index.getRepository(42)).toEqual(document);
  });

  it('an operator purge (cli) stays unconditional and asks nothing', async () => {
    readable = true;
    expect(await handleEvent(deps(), purge('cli'))).toEqual({ action: 'purged', scope: 'repository' });
    expect(asked).toEqual([]);
    expect(await index.getRepository(42)).toBeNull();
  });
});
