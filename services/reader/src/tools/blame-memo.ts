/**
 * The blames of file versions kept in the reader's memory, per history store, so a blame reads
 * what it computed before and diffs only the versions new since (a push costs one line diff per
 * parent at its next blame). Keys name a commit with the history held below it and a path
 * (see HeldHistory.heldKey), so an entry never goes stale; past the bound on lines held, the
 * least recently used entries go first.
 */
import { decodeVersionBlame } from '@gitdex/diff';
import type { HistoryReads } from '@gitdex/ports';
import type { BlameMemo, VersionBlame } from '@gitdex/diff';
import type { HeldHistory } from './held-history';

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

/**
 * Puts the version blame the indexer stored for the commit's file into the memo, when there is
 * one. The indexer stores the versions each commit creates; a commit that left the path as its
 * first parent had it holds that parent's very blob, so its blame is that parent's (git hands
 * every line to a parent with the same blob): the walk goes down first parents to the commit
 * that last changed the path. The store's key is the memo's without the repository (blames are
 * stored per repository). One read; a miss leaves the memo as it was.
 */
export async function keepStored(memo: LineBoundMemo, history: HistoryReads, repositoryId: number, held: HeldHistory, commit: string, path: string, key: string): Promise<void> {
  let at = commit;
  for (;;) {
    const record = held.commits.get(at)!;
    const parent = record.parents[0];
    const touched = !record.filesComplete || record.files.some((f) => f.path === path || f.previousPath === path);
    if (touched || parent === undefined || !held.commits.has(parent)) break;
    at = parent;
  }
  const [stored] = await history.getVersionBlames(repositoryId, [{ key: held.storedKey(at), path }]);
  if (stored && !memo.has(key)) memo.set(key, Promise.resolve(decodeVersionBlame(stored.blame)));
}
