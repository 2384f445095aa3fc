import type { PermissionStore, PersonPermissions } from '@gitdex/ports';

/** A PermissionStore in one process's memory: for unit tests of the mirror's rules (the engines have their own adapters). */
export class MemoryPermissionStore implements PermissionStore {
  private readonly people = new Map<number, PersonPermissions>();

  getPerson(userId: number): Promise<PersonPermissions | null> {
    const person = this.people.get(userId);
    return Promise.resolve(person ? { ...person, repositoryIds: [...person.repositoryIds] } : null);
  }

  putPerson(person: PersonPermissions): Promise<void> {
    this.people.set(person.userId, { ...person, repositoryIds: [...new Set(person.repositoryIds)].sort((a, b) => a - b) });
    return Promise.resolve();
  }

  grant(userId: number, repositoryId: number): Promise<boolean> {
    const person = this.people.get(userId);
    if (!person) return Promise.resolve(false);
    if (!person.repositoryIds.includes(repositoryId)) person.repositoryIds = [...person.repositoryIds, repositoryId].sort((a, b) => a - b);
    return Promise.resolve(true);
  }

  withdraw(userId: number, repositoryId: number): Promise<boolean> {
    const person = this.people.get(userId);
    if (!person || !person.repositoryIds.includes(repositoryId)) return Promise.resolve(false);
    person.repositoryIds = person.repositoryIds.filter((id) => id !== repositoryId);
    return Promise.resolve(true);
  }

  holders(repositoryId: number, limit: number): Promise<number[]> {
    return Promise.resolve(
      [...this.people.values()]
        .filter((p) => p.repositoryIds.includes(repositoryId))
        .map((p) => p.userId)
        .slice(0, limit),
    );
  }

  dueForRefresh(before: string, limit: number): Promise<number[]> {
    const due = [...this.people.values()].filter((p) => p.refreshedAt < before).sort((a, b) => a.refreshedAt.localeCompare(b.refreshedAt));
    return Promise.resolve(due.slice(0, limit).map((p) => p.userId));
  }

  listPeople(limit: number): Promise<PersonPermissions[]> {
    const all = [...this.people.values()].sort((a, b) => a.login.localeCompare(b.login));
    return Promise.resolve(all.slice(0, limit).map((p) => ({ ...p, repositoryIds: [...p.repositoryIds] })));
  }

  removePerson(userId: number): Promise<boolean> {
    return Promise.resolve(this.people.delete(userId));
  }
}
