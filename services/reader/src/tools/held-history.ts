/**
 * The history the index holds for a ref, read for compare and blame: commits by sha, the trees
 * and blobs of old commits rebuilt from a commit whose tree the index serves (the anchor) and the
 * files each commit changed against its first parent. Commits on the anchor's first-parent line
 * are rebuilt backwards from it; any other held commit forwards from where its own first-parent
 * line meets that line.
 */
import { storedBytes } from '@gitdex/contracts';
import type { CommitFile, CommitRecord, HistoryReads, Snapshot } from '@gitdex/ports';
import type { BlameHistory } from '@gitdex/diff';
import { heldKey, type Tree, type TreeEntry } from '@gitdex/diff';
import type { ReaderDeps } from '../deps';
import { loadHeldCommits } from './held-commits';

const ENTRY_PAGE = 1000;

export interface Anchor {
  readonly commit: string;
  readonly snapshot: Snapshot;
}

export class HeldHistory {
  private readonly spineIndex = new Map<string, number>();
  private readonly spine: string[] = [];
  private readonly pathSpines = new Map<string, (string | undefined)[]>();
  private readonly trees = new Map<string, Tree | undefined>();
  private readonly blobs = new Map<string, Uint8Array | undefined>();
  private anchorTree: Tree | undefined;
  private readonly heldKeys = new Map<string, string>();

  constructor(
    private readonly deps: ReaderDeps,
    private readonly history: HistoryReads,
    private readonly repositoryId: number,
    readonly commits: ReadonlyMap<string, CommitRecord>,
    private readonly anchor: Anchor,
  ) {
    for (let c: string | undefined = anchor.commit; c !== undefined && commits.has(c) && !this.spineIndex.has(c); c = commits.get(c)!.parents[0]) {
      this.spineIndex.set(c, this.spine.length);
      this.spine.push(c);
    }
  }

  /** Loads the commits the refs hold (the anchor's ref first). */
  static async load(deps: ReaderDeps, history: HistoryReads, repositoryId: number, refs: readonly string[], anchor: Anchor): Promise<HeldHistory> {
    return new HeldHistory(deps, history, repositoryId, await loadHeldCommits(deps, history, repositoryId, refs), anchor);
  }

  firstParents(from: string, steps: number): string | undefined {
    let c: string | undefined = from;
    for (let i = 0; i < steps && c !== undefined; i++) c = this.commits.get(c)?.parents[0];
    return c !== undefined && this.commits.has(c) ? c : undefined;
  }

  /** git merge-base: the common ancestors held that no other common ancestor descends from. */
  mergeBase(a: string, b: string): string | undefined {
    const ancestors = (from: string): Set<string> => {
      const seen = new Set<string>();
      const queue = [from];
      while (queue.length > 0) {
        const c = queue.pop()!;
        if (seen.has(c) || !this.commits.has(c)) continue;
        seen.add(c);
        queue.push(...this.commits.get(c)!.parents);
      }
      return seen;
    };
    const ofA = ancestors(a);
    const common = [...ancestors(b)].filter((c) => ofA.has(c));
    const best = common.filter((c) => !common.some((other) => other !== c && ancestors(other).has(c)));
    best.sort((x, y) => Date.parse(this.commits.get(y)!.committer.date) - Date.parse(this.commits.get(x)!.committer.date));
    return best[0];
  }

  private async anchorEntries(): Promise<Tree> {
    if (!this.anchorTree) {
      const tree = new Map<string, TreeEntry>();
      for (let after: string | null = null; ;) {
        const page = await this.deps.index.visibleEntries(this.anchor.snapshot, after, ENTRY_PAGE);
        for (const e of page) if (e.kind === 'file') tree.set(e.path, { sha: e.blobSha });
        if (page.length < ENTRY_PAGE) break;
        after = page[page.length - 1]!.path;
      }
      this.anchorTree = tree;
    }
    return this.anchorTree;
  }

  /** The whole tree of a held commit; undefined when it cannot be rebuilt from what is held. */
  async tree(sha: string): Promise<Tree | undefined> {
    if (this.trees.has(sha)) return this.trees.get(sha);
    let tree: Map<string, TreeEntry> | undefined;
    const k = this.spineIndex.get(sha);
    if (k !== undefined) {
      tree = new Map(await this.anchorEntries());
      for (let i = 0; i < k; i++) revert(tree, this.commits.get(this.spine[i]!)!.files);
    } else {
      const chain: CommitRecord[] = [];
      let c: string | undefined = sha;
      while (c !== undefined && this.commits.has(c) && !this.spineIndex.has(c)) {
        chain.push(this.commits.get(c)!);
        c = this.commits.get(c)!.parents[0];
      }
      const start = c !== undefined && this.spineIndex.has(c) ? await this.tree(c) : undefined;
      if (start) {
        tree = new Map(start);
        for (const commit of chain.reverse()) apply(tree, commit.files);
      }
    }
    this.trees.set(sha, tree);
    return tree;
  }

  /** The blob at path in a held commit, following only that path (cheaper than whole trees). */
  async blobAt(sha: string, path: string): Promise<string | undefined> {
    for (let c: string | undefined = sha; c !== undefined && this.commits.has(c); c = this.commits.get(c)!.parents[0]) {
      const k = this.spineIndex.get(c);
      if (k !== undefined) return (await this.pathSpine(path))[k];
      for (const f of this.commits.get(c)!.files) {
        if (f.path === path) return f.status === 'removed' ? undefined : (f.blobAfter ?? undefined);
        if (f.previousPath === path) return undefined;
      }
    }
    return undefined;
  }

  private async pathSpine(path: string): Promise<(string | undefined)[]> {
    let values = this.pathSpines.get(path);
    if (!values) {
      const top = this.anchorTree ? this.anchorTree.get(path)?.sha : (await this.deps.index.getFile(this.anchor.snapshot, path))?.blobSha;
      values = [top];
      for (let i = 0; i + 1 < this.spine.length; i++) {
        let v = values[i];
        for (const f of this.commits.get(this.spine[i]!)!.files) {
          if (f.path === path) v = f.status === 'added' || f.status === 'renamed' ? undefined : (f.blobBefore ?? undefined);
          else if (f.previousPath === path) v = f.blobBefore ?? undefined;
        }
        values.push(v);
      }
      this.pathSpines.set(path, values);
    }
    return values;
  }

  /** Blob bytes: the old versions history keeps, else the anchor's own content; undefined when neither has it. */
  async read(sha: string, pathHint?: string): Promise<Uint8Array | undefined> {
    if (!this.blobs.has(sha)) {
      const held = await this.history.readHistoryBlobs(this.repositoryId, [sha]);
      let bytes: Uint8Array | undefined = held.get(sha);
      if (!bytes) {
        const path = pathHint ?? [...(await this.anchorEntries())].find(([, e]) => e.sha === sha)?.[0];
        const file = path === undefined ? null : await this.deps.index.getFile(this.anchor.snapshot, path);
        bytes = file && file.blobSha === sha ? (storedBytes(file) ?? undefined) : undefined;
      }
      this.blobs.set(sha, bytes);
    }
    return this.blobs.get(sha);
  }

  /** Every version of a path (and the paths it was renamed from) the held commits name, in one batch. */
  async prefetchPath(path: string): Promise<void> {
    const paths = new Set([path]);
    const shas: string[] = [];
    const anchor = (await this.pathSpine(path))[0];
    if (anchor) shas.push(anchor);
    // Newest first, so a rename seen adds the older path before the commits that used it.
    const ordered = [...this.commits.values()].sort((a, b) => Date.parse(b.committer.date) - Date.parse(a.committer.date));
    for (const c of ordered) {
      for (const f of c.files) {
        if (!paths.has(f.path) && !(f.previousPath && paths.has(f.previousPath))) continue;
        if (f.previousPath) paths.add(f.previousPath);
        if (f.blobBefore) shas.push(f.blobBefore);
        if (f.blobAfter) shas.push(f.blobAfter);
      }
    }
    await this.prefetch(shas);
  }

  /** Prefetches blobs in one batch (compare reads many). */
  async prefetch(shas: readonly string[]): Promise<void> {
    const wanted = [...new Set(shas)].filter((s) => !this.blobs.has(s));
    if (wanted.length === 0) return;
    const held = await this.history.readHistoryBlobs(this.repositoryId, wanted);
    for (const [sha, bytes] of held) this.blobs.set(sha, bytes);
  }

  /**
   * Names a held commit together with the part of the history held below it (a hash over the
   * commit and, in order, its parents' keys, a parent not held counting as absent): blame at a
   * commit depends on exactly that, so two loads that hold the same commits below it share blames,
   * and a history held deeper or cut by a force push does not.
   */
  heldKey(sha: string): string {
    return `${this.repositoryId}:${this.storedKey(sha)}`;
  }

  /** The same key without the repository: the history store's key of a version blame (stored per repository). */
  storedKey(sha: string): string {
    return heldKey(sha, (c) => this.commits.get(c)?.parents, this.heldKeys);
  }

  blameHistory(): BlameHistory {
    return {
      key: (sha) => this.heldKey(sha),
      commit: (sha) => {
        const c = this.commits.get(sha);
        return Promise.resolve(c && { parents: c.parents });
      },
      blobAt: (sha, path) => this.blobAt(sha, path),
      renamedFrom: (sha, parent, path) => {
        // A commit's files are against its first parent: renames from other parents are not known.
        const c = this.commits.get(sha);
        const from = c && c.parents[0] === parent ? c.files.find((f) => f.status === 'renamed' && f.path === path)?.previousPath : undefined;
        return Promise.resolve(from ?? undefined);
      },
      read: (blob) => this.read(blob),
    };
  }
}

/** tree(C) → tree(first parent of C). */
function revert(tree: Map<string, TreeEntry>, files: readonly CommitFile[]): void {
  for (const f of files) if (f.status === 'added' || f.status === 'renamed') tree.delete(f.path);
  for (const f of files) {
    const before = f.previousPath ?? f.path;
    if (f.status !== 'added' && f.blobBefore) tree.set(before, { sha: f.blobBefore });
  }
}

/** tree(first parent of C) → tree(C). */
function apply(tree: Map<string, TreeEntry>, files: readonly CommitFile[]): void {
  for (const f of files) {
    if (f.status === 'removed') tree.delete(f.path);
    if (f.status === 'renamed' && f.previousPath) tree.delete(f.previousPath);
  }
  for (const f of files) if (f.status !== 'removed' && f.blobAfter) tree.set(f.path, { sha: f.blobAfter });
}
