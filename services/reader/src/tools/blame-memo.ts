/**
 * The blames of file versions kept in the reader's memory, per history store, so a blame reads
 * what it computed before and diffs only the versions new since (a push costs one line diff per
 * parent at its next blame). Keys name a commit with the history held below it and a path
 * (see HeldHistory.heldKey), so an entry never goes stale; past the bound on lines held, the
 * least recently used entries go first.
 */
import type { HistoryReads } from '@gitdex/ports';
import type { BlameMemo, VersionBlame } from '../history/blame';

/** About 8 bytes a line: 2,000,000 lines hold some 16 MB. */
const MAX_MEMO_LINES = 2_000_000;

export class LineBoundMemo implements BlameMemo {
  private readonly entries = new Map<string, { blame: Promise<VersionBlame>; lines: number }>();
  private lines = 0;

  constructor(private readonly maxLines: number) {}

  has(key: string): boolean {
    return this.entries.has(key);
  }

  get(key: string): Promise<VersionBlame> | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.blame;
  }

  set(key: string, blame: Promise<VersionBlame>): void {
    this.delete(key);
    const entry = { blame, lines: 0 };
    this.entries.set(key, entry);
    blame.then(
      (version) => {
        if (this.entries.get(key) !== entry) return;
        entry.lines = version.owner?.length ?? 1;
        this.lines += entry.lines;
        for (const k of this.entries.keys()) {
          if (this.lines <= this.maxLines || k === key) break;
          this.delete(k);
        }
      },
      () => undefined,
    );
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.lines -= entry.lines;
    this.entries.delete(key);
  }
}

const memos = new WeakMap<HistoryReads, LineBoundMemo>();

export function blameMemoOf(history: HistoryReads): LineBoundMemo {
  let memo = memos.get(history);
  if (!memo) memos.set(history, (memo = new LineBoundMemo(MAX_MEMO_LINES)));
  return memo;
}
