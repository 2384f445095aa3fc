/**
 * What may be committed for one partition while its events finish out of order: every offset
 * handed out is remembered in order, and the committable offset is the oldest one not finished
 * yet (or one past the newest when all are), so a crash replays from the oldest unfinished event
 * and never skips one. A retired progress (its partition was revoked or its generation ended)
 * never commits again: what it still has in flight is replayed by the partition's next owner.
 */
export class PartitionProgress {
  private offsets: bigint[] = [];
  private head = 0;
  private readonly finished = new Set<bigint>();
  /** One past the newest offset finished with every older one: the committable offset when nothing is pending. */
  private floor: bigint | undefined;
  private committed: bigint | undefined;
  private lastSeen: bigint | undefined;
  private committing = false;
  private retiredFlag = false;

  constructor(
    /** Commits "everything below `offset` is done" for this partition. */
    private readonly commit: (offset: bigint) => Promise<void>,
    private readonly onCommitError: (error: unknown) => void,
  ) {}

  get retired(): boolean {
    return this.retiredFlag;
  }

  retire(): void {
    this.retiredFlag = true;
  }

  /** True when the offset is new (greater than every offset seen); a repeat is ignored by the caller. */
  see(offset: bigint): boolean {
    if (this.lastSeen !== undefined && offset <= this.lastSeen) return false;
    this.lastSeen = offset;
    this.offsets.push(offset);
    return true;
  }

  finish(offset: bigint): void {
    this.finished.add(offset);
    while (this.head < this.offsets.length && this.finished.has(this.offsets[this.head]!)) {
      const done = this.offsets[this.head]!;
      this.finished.delete(done);
      this.floor = done + 1n;
      this.head += 1;
    }
    if (this.head > 1024 && this.head * 2 > this.offsets.length) {
      this.offsets = this.offsets.slice(this.head);
      this.head = 0;
    }
    void this.flush();
  }

  /** The offset a commit may name now: the oldest unfinished one, or one past the newest finished. */
  get committable(): bigint | undefined {
    return this.head < this.offsets.length ? this.offsets[this.head] : this.floor;
  }

  /** Events handed out and not finished. */
  get pending(): number {
    return this.offsets.length - this.head;
  }

  /** One commit at a time; a newer committable offset found after it is committed next. */
  private async flush(): Promise<void> {
    // Before anything finished there is nothing to commit (the group's committed offset already says as much).
    if (this.committing || this.floor === undefined) return;
    this.committing = true;
    try {
      for (let target = this.committable; !this.retiredFlag && target !== undefined && (this.committed === undefined || target > this.committed); target = this.committable) {
        try {
          await this.commit(target);
          this.committed = target;
        } catch (error) {
          // The next finished event tries again; until then a restart replays a few finished (idempotent) events.
          this.onCommitError(error);
          return;
        }
      }
    } finally {
      this.committing = false;
    }
  }
}
