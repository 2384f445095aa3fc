// The `size` of repository objects, kept like GitHub keeps it: counted now and then, not per request.
import { repoSizeKb } from './git-refs';

/** GitHub: "Size is calculated hourly." */
export const SIZE_REFRESH_MS = 60 * 60 * 1000;
/** Repositories whose size is kept; the least recently counted go first. */
const MAX_REPOSITORIES = 1000;

interface Counted {
  sizeKb: Promise<number>;
  countedAt: number;
  recounting: boolean;
}

export interface SizeCacheOptions {
  /** Counts a repository's size in KiB (default: git count-objects, which visits every loose object). */
  count?: (dir: string) => Promise<number>;
  now?: () => number;
  refreshMs?: number;
}

/**
 * Sizes of repositories by key. Counting stats every loose object (a tenth of a second and
 * more on a 50,000-file repository), which made every repository answer, push payload and
 * event as slow as the repository is large. So a repository is counted once, on its first
 * answer (concurrent callers share the count), and that size is answered until it is older
 * than the refresh time; then the old size is still answered while a count runs behind it.
 * A count that fails is not kept: the first fails its caller, a later one keeps the old size
 * until the next refresh time.
 */
export class SizeCache {
  private readonly sizes = new Map<string, Counted>();
  private readonly count: (dir: string) => Promise<number>;
  private readonly now: () => number;
  private readonly refreshMs: number;

  constructor(options: SizeCacheOptions = {}) {
    this.count = options.count ?? repoSizeKb;
    this.now = options.now ?? Date.now;
    this.refreshMs = options.refreshMs ?? SIZE_REFRESH_MS;
  }

  sizeKb(key: string, dir: string): Promise<number> {
    const known = this.sizes.get(key);
    if (!known) {
      const counted: Counted = { sizeKb: this.count(dir), countedAt: this.now(), recounting: false };
      this.keep(key, counted);
      counted.sizeKb.catch(() => {
        if (this.sizes.get(key) === counted) this.sizes.delete(key);
      });
      return counted.sizeKb;
    }
    if (!known.recounting && this.now() - known.countedAt >= this.refreshMs) this.recount(key, dir, known);
    return known.sizeKb;
  }

  private recount(key: string, dir: string, known: Counted): void {
    known.recounting = true;
    const startedAt = this.now();
    this.count(dir).then(
      (sizeKb) => {
        if (this.sizes.get(key) === known) this.keep(key, { sizeKb: Promise.resolve(sizeKb), countedAt: startedAt, recounting: false });
      },
      () => {
        // Tried again after another refresh time, not on every answer.
        known.countedAt = startedAt;
        known.recounting = false;
      },
    );
  }

  private keep(key: string, counted: Counted): void {
    this.sizes.delete(key);
    this.sizes.set(key, counted);
    if (this.sizes.size > MAX_REPOSITORIES) this.sizes.delete(this.sizes.keys().next().value as string);
  }
}
