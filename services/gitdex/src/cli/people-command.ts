import type { GrantRecord } from '@gitdex/reader';
import type { CliContext } from './context';
import { age, formatTable } from './table';

/** At most this many people and sign-ins are shown (the operator's view, not an export). */
const LIMIT = 1000;

/**
 * `gitdex people`: who is signed in with GitHub (each client they signed in through, when),
 * and when the permission mirror last resolved what each may read.
 */
export async function peopleCommand(ctx: CliContext, options: { json?: boolean }): Promise<void> {
  const now = new Date();
  const [people, grants] = await Promise.all([ctx.adapters.permissions.listPeople(LIMIT), ctx.adapters.signIn.list<GrantRecord>('grant', now, LIMIT)]);
  const live = grants.map((g) => g.value).filter((g) => g.revokedAt === null);
  const rows = people.map((person) => {
    const mine = live.filter((g) => g.userId === person.userId);
    return {
      login: person.login,
      userId: person.userId,
      readableRepositories: person.repositoryIds.length,
      permissionsRefreshedAt: person.refreshedAt,
      signIns: mine.map((g) => ({ client: g.clientName ?? g.clientId, signedInAt: g.signedInAt, lastUsedAt: g.usedAt })),
    };
  });
  if (options.json) {
    ctx.out.log(JSON.stringify({ people: rows }, null, 2));
    return;
  }
  ctx.out.log(
    formatTable(
      ['LOGIN', 'READABLE', 'PERMISSIONS REFRESHED', 'SIGNED IN THROUGH', 'LAST USED'],
      rows.map((r) => [
        r.login,
        String(r.readableRepositories),
        age(r.permissionsRefreshedAt),
        r.signIns.map((s) => s.client).join(', ') || '- (no live sign-in)',
        age(
          r.signIns
            .map((s) => s.lastUsedAt)
            .sort()
            .at(-1),
        ),
      ]),
    ),
  );
  ctx.out.log('');
  ctx.out.log(`${rows.length} people known to the permission mirror, ${live.length} live sign-ins`);
}
