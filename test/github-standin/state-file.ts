// The stand-in's small persistent state (repository ids and settings, last delivered push
// per ref), kept as JSON next to the repositories so ids survive restarts and renames.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

export interface RepoSettings {
  id: number;
  owner: string;
  name: string;
  private: boolean;
  archived: boolean;
  description: string | null;
  topics: string[];
  /** ISO time the stand-in first saw the repository. */
  createdAt: string;
}

export interface StandInState {
  version: 1;
  /** Keyed by repository id. */
  repos: Record<string, RepoSettings>;
  /** Every id ever handed out (deleted repos' ids are never reused). */
  usedIds: number[];
  /** Lower-cased "owner/name" a repo was renamed or transferred from -> its id. */
  redirects: Record<string, number>;
  /** "<repo id> <full ref>" -> last SHA a push webhook was delivered for. */
  delivered: Record<string, string>;
  /** Pull requests by repository id; numbers count from 1 in each repository. */
  pulls: Record<string, StoredPull[]>;
}

/** A pull request as the stand-in keeps it; its head commit lives at refs/pull/N/head. */
export interface StoredPull {
  number: number;
  title: string;
  /** Branch names, without refs/heads/. */
  head: string;
  base: string;
  state: 'open' | 'closed';
  merged: boolean;
  draft: boolean;
  author: string;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
}

export const STATE_FILE_NAME = '.github-standin.json';

function emptyState(): StandInState {
  return { version: 1, repos: {}, usedIds: [], redirects: {}, delivered: {}, pulls: {} };
}

export class StateFile {
  readonly state: StandInState;

  constructor(readonly path: string) {
    this.state = existsSync(path) ? { ...emptyState(), ...(JSON.parse(readFileSync(path, 'utf8')) as Partial<StandInState>) } : emptyState();
  }

  /** Writes atomically (temp file + rename); the state is tiny, so synchronous is fine. */
  save(): void {
    const temp = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify(this.state, null, 2)}\n`);
    renameSync(temp, this.path);
  }
}
