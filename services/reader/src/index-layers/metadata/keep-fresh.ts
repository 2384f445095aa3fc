import type { ReuseWindow } from './reuse-window';

/**
 * Lookups kept fresh at most (a repository's name and its ref states are two): 8 repositories
 * an agent or several are reading at once, at most 16 small requests every 50–75 ms. Others are
 * looked up when read, as without keepFreshMs.
 */
const KEEP_FRESH_MOST = 16;

/** Lookups of every repository (a search of all of them): as large as the installation, never refreshed in the background. */
const ALL_REPOSITORIES = new Set(['repos', 'states\0*']);

/** Repositories and names remembered at most; past that all are forgotten at once. */
const MOST_REMEMBERED = 10_000;

/** Runs `check` every `ms` until the returned stop is called. */
export type Repeat = (ms: number, check: () => void) => () => void;

/** The real timer, unref'd: keeping lookups fresh never keeps the process alive. */
export const repeatEvery: Repeat = (ms, check) => {
  const timer = setInterval(check, ms);
  timer.unref();
  return () => clearInterval(timer);
};

export interface KeepFreshOptions {
  /** How long after it was last worked on a repository's lookups are kept fresh; 0: never. */
  keepFreshMs: number;
  now: () => number;
  /** The timer of the checks (tests run them by hand). Default repeatEvery. */
  repeat?: Repeat | undefined;
}

/**
 * Keeps the lookups of the repositories an agent is working on fresh in the background, so a
 * read never waits for them: while a repository was worked on within keepFreshMs (a second
 * file read of a snapshot, a listing, a suggestion), its lookups used last (at most
 * KEEP_FRESH_MOST, least recently used first) are refreshed past half their window, checked
 * every quarter of it, so the fresh answer has a quarter of the window to arrive before the
 * old one expires. The timer runs only while some are. A client that reads one file of each
 * repository again and again (a freshness probe) works on none, and keeps nothing refreshed.
 */
export class KeepFresh {
  private window: ReuseWindow | null = null;
  /** Lookup keys kept fresh, with when they were used last. */
  private readonly hot = new Map<string, number>();
  /** Stops the checks while they run. */
  private stopKeeper: (() => void) | null = null;
  /** Repositories worked on, with when. */
  private readonly atWork = new Map<number, number>();
  private readonly idOfName = new Map<string, number>();
  private readonly nameOfId = new Map<number, string>();

  constructor(private readonly options: KeepFreshOptions) {}

  /** The window whose lookups are kept fresh (set once, when it is made). */
  watch(window: ReuseWindow): void {
    this.window = window;
  }

  /** Marks a repository worked on now, and its lookups (asked before it was) kept fresh from now on. */
  working(repositoryId: number): void {
    if (this.atWork.size >= MOST_REMEMBERED) this.atWork.clear();
    const at = this.options.now();
    this.atWork.set(repositoryId, at);
    this.use(`states\0${repositoryId}`, at);
    const name = this.nameOfId.get(repositoryId);
    if (name !== undefined) this.use(`name\0${name}`, at);
  }

  /** Which repository a name stood for when looked up: its lookup is kept fresh with the repository's. */
  knowName(name: string, repositoryId: number): void {
    if (this.idOfName.size >= MOST_REMEMBERED) {
      this.idOfName.clear();
      this.nameOfId.clear();
    }
    this.idOfName.set(name, repositoryId);
    this.nameOfId.set(repositoryId, name);
  }

  /** Marks a lookup used at `at`: kept fresh from now on if its repository is being worked on, unless it lists every repository. */
  use = (key: string, at: number): void => {
    if (this.options.keepFreshMs <= 0 || ALL_REPOSITORIES.has(key) || !this.isAtWork(key)) return;
    this.hot.delete(key);
    this.hot.set(key, at);
    if (this.hot.size > KEEP_FRESH_MOST) this.hot.delete(this.hot.keys().next().value as string);
    if (this.stopKeeper === null && this.window !== null) {
      this.stopKeeper = (this.options.repeat ?? repeatEvery)(Math.max(1, Math.floor(this.window.ttlMs / 4)), this.tick);
    }
  };

  /** One check: refreshes the hot lookups that are due, forgets those no longer worked on. */
  tick = (): void => {
    const at = this.options.now();
    for (const [key, usedAt] of this.hot) {
      if (at - usedAt >= this.options.keepFreshMs || !this.isAtWork(key)) {
        this.hot.delete(key);
        continue;
      }
      this.window?.refreshIfDue(key, at);
    }
    if (this.hot.size === 0 && this.stopKeeper !== null) {
      this.stopKeeper();
      this.stopKeeper = null;
    }
  };

  private isAtWork(key: string): boolean {
    const [kind, rest = ''] = key.split('\0', 2);
    const id = kind === 'name' ? this.idOfName.get(rest) : Number(rest);
    const since = id === undefined ? undefined : this.atWork.get(id);
    return since !== undefined && this.options.now() - since < this.options.keepFreshMs;
  }
}
