// Maps GitHub owner/name (and numeric ids) to git repositories laid out as <root>/<owner>/<repo>
// (non-bare working repos; bare repos and "<repo>.git" directories work too).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { STATE_FILE_NAME, StateFile, type RepoSettings, type StoredPull } from './state-file';

export interface RepoHandle extends RepoSettings {
  dir: string;
}

// Typed as a parsed request body is (zod leaves out the keys the body does not have).
export type RepoPatch = { [K in 'private' | 'archived' | 'description' | 'topics']?: RepoSettings[K] | undefined };

export function isValidOwner(owner: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(owner);
}

export function isValidRepoName(name: string): boolean {
  return /^[A-Za-z0-9_.-]+$/.test(name) && name !== '.' && name !== '..';
}

/** A stable 9-digit id derived from a key, like GitHub's numeric ids. */
export function deterministicId(key: string, min = 100_000_000, span = 800_000_000): number {
  return min + (createHash('sha256').update(key.toLowerCase()).digest().readUIntBE(0, 6) % span);
}

function isGitRepo(dir: string): boolean {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return false;
  return existsSync(join(dir, '.git')) || (existsSync(join(dir, 'HEAD')) && existsSync(join(dir, 'objects')));
}

function listDirs(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
    .map((e) => e.name);
}

/** Case-insensitive directory lookup with the exact spelling tried first. */
function matchDir(parent: string, name: string): string | null {
  if (existsSync(join(parent, name))) return name;
  return listDirs(parent).find((d) => d.toLowerCase() === name.toLowerCase()) ?? null;
}

export class RepoStore {
  private readonly file: StateFile;

  constructor(
    readonly root: string,
    stateFile = join(root, STATE_FILE_NAME),
  ) {
    this.file = new StateFile(stateFile);
  }

  private locate(owner: string, name: string): { owner: string; name: string; dir: string } | null {
    if (!isValidOwner(owner) || !isValidRepoName(name)) return null;
    const ownerDir = matchDir(this.root, owner);
    if (!ownerDir) return null;
    for (const candidate of [name, `${name}.git`]) {
      const repoDir = matchDir(join(this.root, ownerDir), candidate);
      const dir = repoDir && join(this.root, ownerDir, repoDir);
      if (repoDir && dir && isGitRepo(dir)) return { owner: ownerDir, name: candidate === name ? repoDir : repoDir.slice(0, -4), dir };
    }
    return null;
  }

  private recordFor(owner: string, name: string): RepoSettings | undefined {
    const key = `${owner}/${name}`.toLowerCase();
    return Object.values(this.file.state.repos).find((r) => `${r.owner}/${r.name}`.toLowerCase() === key);
  }

  private register(owner: string, name: string, dir: string): RepoHandle {
    const state = this.file.state;
    let record = this.recordFor(owner, name);
    if (!record) {
      let id = deterministicId(`${owner}/${name}`);
      while (state.usedIds.includes(id)) id += 1;
      record = { id, owner, name, private: false, archived: false, description: null, topics: [], createdAt: new Date().toISOString() };
      state.repos[String(id)] = record;
      state.usedIds.push(id);
      delete state.redirects[`${owner}/${name}`.toLowerCase()];
      this.file.save();
    } else if (record.owner !== owner || record.name !== name) {
      Object.assign(record, { owner, name });
      this.file.save();
    }
    return { ...record, dir };
  }

  async find(owner: string, name: string): Promise<RepoHandle | null> {
    const found = this.locate(owner, name);
    return found ? this.register(found.owner, found.name, found.dir) : null;
  }

  async findById(id: number): Promise<RepoHandle | null> {
    let record = this.file.state.repos[String(id)];
    if (!record) {
      await this.list(); // registers repositories nobody has asked for by name yet
      record = this.file.state.repos[String(id)];
    }
    return record ? this.find(record.owner, record.name) : null;
  }

  /** Id of the repository that used to be called owner/name (renamed or transferred). */
  redirectFor(owner: string, name: string): number | null {
    return this.file.state.redirects[`${owner}/${name}`.toLowerCase()] ?? null;
  }

  async list(owner?: string): Promise<RepoHandle[]> {
    const repos: RepoHandle[] = [];
    for (const ownerDir of listDirs(this.root)) {
      if (owner !== undefined && ownerDir.toLowerCase() !== owner.toLowerCase()) continue;
      for (const repoDir of listDirs(join(this.root, ownerDir))) {
        const name = repoDir.endsWith('.git') ? repoDir.slice(0, -4) : repoDir;
        const found = isValidOwner(ownerDir) && isValidRepoName(name) ? await this.find(ownerDir, name) : null;
        if (found) repos.push(found);
      }
    }
    return repos.sort((a, b) => `${a.owner}/${a.name}`.toLowerCase().localeCompare(`${b.owner}/${b.name}`.toLowerCase()));
  }

  update(repo: RepoHandle, patch: RepoPatch): RepoHandle {
    const record = this.file.state.repos[String(repo.id)];
    if (!record) throw new Error(`unknown repository id ${repo.id}`);
    Object.assign(record, patch);
    this.file.save();
    return { ...record, dir: repo.dir };
  }

  /** Renames and/or transfers: moves the directory, keeps the id, remembers the old name. */
  async move(repo: RepoHandle, newOwner: string, newName: string): Promise<RepoHandle> {
    const record = this.file.state.repos[String(repo.id)];
    if (!record) throw new Error(`unknown repository id ${repo.id}`);
    const dir = join(this.root, newOwner, newName);
    await mkdir(join(this.root, newOwner), { recursive: true });
    await rename(repo.dir, dir);
    this.file.state.redirects[`${repo.owner}/${repo.name}`.toLowerCase()] = repo.id;
    delete this.file.state.redirects[`${newOwner}/${newName}`.toLowerCase()];
    Object.assign(record, { owner: newOwner, name: newName });
    this.file.save();
    return { ...record, dir };
  }

  /** Deletes the directory and forgets the repository (its id is never handed out again). */
  async remove(repo: RepoHandle): Promise<void> {
    await rm(repo.dir, { recursive: true, force: true });
    const state = this.file.state;
    delete state.repos[String(repo.id)];
    for (const [key, id] of Object.entries(state.redirects)) if (id === repo.id) delete state.redirects[key];
    for (const key of Object.keys(state.delivered)) if (key.startsWith(`${repo.id} `)) delete state.delivered[key];
    delete state.pulls[String(repo.id)];
    this.file.save();
  }

  lastDelivered(id: number, ref: string): string | undefined {
    return this.file.state.delivered[`${id} ${ref}`];
  }

  /** Remembers the SHA last delivered for a ref (a deletion forgets the ref). */
  setLastDelivered(id: number, ref: string, sha: string): void {
    if (/^0{40}$/.test(sha)) delete this.file.state.delivered[`${id} ${ref}`];
    else this.file.state.delivered[`${id} ${ref}`] = sha;
    this.file.save();
  }

  /** Refs that have a remembered delivered SHA. */
  deliveredRefs(id: number): string[] {
    const prefix = `${id} `;
    return Object.keys(this.file.state.delivered)
      .filter((key) => key.startsWith(prefix))
      .map((key) => key.slice(prefix.length));
  }

  /** The repository's pull requests, oldest first (a copy: save changes with savePull). */
  pulls(id: number): StoredPull[] {
    return (this.file.state.pulls[String(id)] ?? []).map((pull) => ({ ...pull }));
  }

  /** Adds or replaces (by number) one pull request of a repository. */
  savePull(id: number, pull: StoredPull): void {
    const list = (this.file.state.pulls[String(id)] ??= []);
    const at = list.findIndex((p) => p.number === pull.number);
    if (at >= 0) list[at] = { ...pull };
    else list.push({ ...pull });
    this.file.save();
  }

  /** Whether `newOwner/newName` is free on disk. */
  isFree(newOwner: string, newName: string): boolean {
    return this.locate(newOwner, newName) === null && !existsSync(join(this.root, newOwner, newName));
  }
}
