import type { SourceCommit } from '@gitdex/ports';

/** What GitHub answered last for a branch, with the ETag to ask again with. */
interface Remembered {
  etag: string;
  commit: SourceCommit;
}

/**
 * ETags of branch heads, so the reconciler's re-reads are conditional: GitHub answers 304
 * when nothing changed, and a 304 does not count against the rate limit. Kept in memory by
 * the process that reads (the one holding the reconciler lease); bounded, oldest dropped first.
 */
export class ConditionalHeads {
  private readonly entries = new Map<string, Remembered>();
  /** Answers GitHub gave as 304 Not Modified, for the reconciler's report and the journal. */
  notModified = 0;

  constructor(private readonly maxEntries = 100_000) {}

  etag(repositoryId: number, branch: string): string | undefined {
    return this.entries.get(key(repositoryId, branch))?.etag;
  }

  /** The commit of the answer the ETag stood for; undefined when it was forgotten meanwhile. */
  unchanged(repositoryId: number, branch: string): SourceCommit | undefined {
    const entry = this.entries.get(key(repositoryId, branch));
    if (entry) this.notModified += 1;
    return entry?.commit;
  }

  remember(repositoryId: number, branch: string, etag: string | undefined, commit: SourceCommit): void {
    const k = key(repositoryId, branch);
    this.entries.delete(k);
    if (!etag) return;
    this.entries.set(k, { etag, commit });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }

  forget(repositoryId: number, branch: string): void {
    this.entries.delete(key(repositoryId, branch));
  }
}

function key(repositoryId: number, branch: string): string {
  return `${repositoryId}\u0000${branch}`;
}
