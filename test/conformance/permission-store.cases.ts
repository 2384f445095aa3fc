// Cases every PermissionStore adapter must pass, on its real engine.
import type { PermissionStore } from '@gitdex/ports';

export function permissionStoreCases(store: () => PermissionStore): void {
  it('keeps a person whole, grants and withdraws one repository, finds holders and people due, forgets', async () => {
    const s = store();
    await s.putPerson({ userId: 11, login: 'carol', repositoryIds: [30, 10, 20, 10], refreshedAt: '2026-01-01T00:00:00.000Z' });
    await s.putPerson({ userId: 12, login: 'dave', repositoryIds: [20], refreshedAt: '2026-01-01T00:10:00.000Z' });
    expect(await s.getPerson(11)).toEqual({ userId: 11, login: 'carol', repositoryIds: [10, 20, 30], refreshedAt: '2026-01-01T00:00:00.000Z' });
    expect(await s.grant(11, 40)).toBe(true);
    expect(await s.grant(99, 40)).toBe(false);
    expect(await s.getPerson(99)).toBeNull();
    expect(await s.withdraw(11, 10)).toBe(true);
    expect(await s.withdraw(11, 10)).toBe(false);
    expect((await s.getPerson(11))?.repositoryIds).toEqual([20, 30, 40]);
    expect(await s.holders(20, 10)).toEqual([11, 12]);
    expect(await s.dueForRefresh('2026-01-01T00:05:00.000Z', 10)).toEqual([11]);
    expect((await s.listPeople(10)).map((p) => p.login)).toEqual(['carol', 'dave']);
    expect(await s.removePerson(11)).toBe(true);
    expect(await s.removePerson(11)).toBe(false);
    expect(await s.holders(20, 10)).toEqual([12]);
    await s.removePerson(12);
  });

  it('concurrent grants and withdrawals of one person all land', async () => {
    const s = store();
    await s.putPerson({ userId: 21, login: 'erin', repositoryIds: [1, 2, 3, 4], refreshedAt: '2026-01-01T00:00:00.000Z' });
    await Promise.all([s.grant(21, 5), s.grant(21, 6), s.withdraw(21, 1), s.withdraw(21, 2)]);
    expect((await s.getPerson(21))?.repositoryIds).toEqual([3, 4, 5, 6]);
    await s.removePerson(21);
  });
}
