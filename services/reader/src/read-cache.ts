import type { FileDocument, RefState, RepositoryDocument } from '@gitdex/contracts';
import type { IndexStore, Snapshot } from '@gitdex/ports';

export interface ReadCacheOptions {
  /** How long repository and ref-state answers are reused: the most a read may lag a flip. */
  metadataTtlMs?: number;
  /** File versions kept in memory, by snapshot and path. */
  maxFiles?: number;
}

/**
 * Keeps what reads ask again and again: a file version at a generation never changes,
 * so it is cached until evicted; repositories and ref states are reused for a moment
 * (100 ms by default), so a burst of calls costs the index one lookup each. Everything
 * else passes straight through to the index.
 */
export function withReadCache(index: IndexStore, options: ReadCacheOptions = {}): IndexStore {
  const ttl = options.metadataTtlMs ?? 100;
  const maxFiles = options.maxFiles ?? 5000;
  const metadata = new Map<string, { at: number; value: Promise<unknown> }>();
  const files = new Map<string, Promise<FileDocument | null>>();

  const fresh = <T>(key: string, load: () => Promise<T>): Promise<T> => {
    const hit = metadata.get(key);
    if (hit && Date.now() - hit.at < ttl) return hit.value as Promise<T>;
    const value = load();
    metadata.set(key, { at: Date.now(), value });
    // A failed lookup is not kept: the next call asks the index again.
    value.catch(() => metadata.delete(key));
    if (metadata.size > 10_000) metadata.clear();
    return value;
  };

  const getFile = (snapshot: Snapshot, path: string): Promise<FileDocument | null> => {
    const key = `${snapshot.repositoryId}\0${snapshot.ref}\0${snapshot.generation}\0${path}`;
    const hit = files.get(key);
    if (hit) {
      files.delete(key);
      files.set(key, hit);
      return hit;
    }
    const value = index.getFile(snapshot, path);
    files.set(key, value);
    value.catch(() => files.delete(key));
    if (files.size > maxFiles) files.delete(files.keys().next().value as string);
    return value;
  };

  const cached: Partial<IndexStore> = {
    getFile,
    findRepositoryByName: (name) => fresh<RepositoryDocument | null>(`name\0${name}`, () => index.findRepositoryByName(name)),
    getRepository: (id) => fresh<RepositoryDocument | null>(`repo\0${id}`, () => index.getRepository(id)),
    listRepositories: () => fresh<RepositoryDocument[]>('repos', () => index.listRepositories()),
    listRefStates: (id) => fresh<RefState[]>(`states\0${id ?? '*'}`, () => index.listRefStates(id)),
  };
  return new Proxy(index, {
    get(target, property, receiver) {
      if (typeof property === 'string' && property in cached) return cached[property as keyof IndexStore];
      const value = Reflect.get(target, property, receiver) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
