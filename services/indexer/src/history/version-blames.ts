/**
 * The blames of the file versions new commits create, computed just after the ref flips to them
 * (an optimisation for the reader, off the freshness path) with the reader's own core
 * (@gitdex/diff) and stored by held key and path, so a reader's first blame of a file reads one
 * record instead of diffing every version. Oldest first, each version from its parents' blames
 * (stored, or computed earlier in this batch) plus one line diff per parent. A version whose
 * blame would need more than MAX_VERSIONS versions read, or a version whose bytes are not held
 * (larger than the content limit), is skipped: the reader computes it as before.
 */
import { type BlameHistory, type BlameMemo, blameVersion, decodeVersionBlame, encodeVersionBlame, heldKey, memoKey, type VersionBlame } from '@gitdex/diff';
import { type CommitRecord, type HistoryStore, PortError, type StoredVersionBlame } from '@gitdex/ports';
import { parentsFirst } from './commit-graph';

/** Versions one blame may read before it is left to the reader (a parent's blame missing from the store costs one read per version below it). */
export const MAX_VERSIONS = 100;
/** First-parent steps searched for a parent's stored blame (the commit that last changed the path). */
const MAX_STEPS = 1_000;
/** Bytes of blobs kept in memory across the batch. */
const MAX_CACHED_BYTES = 64 * 1024 * 1024;

export interface VersionBlameStats {
  /** Version blames written. */
  stored: number;
  /** New versions left to the reader (bytes not held, or too many versions below). */
  skipped: number;
  /** JSON bytes of what was written. */
  bytes: number;
  /** Of the skipped, those the core failed on (a fault here, not a limit): the reader blames them as before. */
  failed: number;
}

class Skip extends Error {}

/**
 * Computes and stores the blame of every version `records` create (their files' new blobs).
 * `held` is every commit the ref holds after this record (the new ones included): the held key,
 * and so the reader's, is computed over exactly those.
 */
export async function storeVersionBlames(store: HistoryStore, repositoryId: number, held: ReadonlyMap<string, CommitRecord>, records: readonly CommitRecord[]): Promise<VersionBlameStats> {
  const stats: VersionBlameStats = { stored: 0, skipped: 0, bytes: 0, failed: 0 };
  if (records.length === 0) return stats;
  const keys = new Map<string, string>();
  const parentsOf = (sha: string): readonly string[] | undefined => held.get(sha)?.parents;
  const keyOf = (sha: string): string => heldKey(sha, parentsOf, keys);
  const fresh = new Set(records.map((r) => r.sha));

  // What a child's changes say of its first parent's tree: the version before, or no file.
  const atParent = new Map<string, Map<string, string | null>>();
  for (const c of held.values()) {
    const parent = c.parents[0];
    if (parent === undefined) continue;
    let known = atParent.get(parent);
    if (!known) atParent.set(parent, (known = new Map<string, string | null>()));
    for (const f of c.files) {
      if (f.status === 'added' || f.status === 'renamed') known.set(f.path, null);
      if (f.status !== 'added' && f.blobBefore) known.set(f.previousPath ?? f.path, f.blobBefore);
    }
  }

  const blobs = new BlobCache(store, repositoryId);
  let reads = 0;
  const history: BlameHistory = {
    key: keyOf,
    commit: (sha) => {
      const c = held.get(sha);
      return Promise.resolve(c && { parents: c.parents });
    },
    blobAt: (sha, path) => {
      for (let c: string | undefined = sha, steps = 0; c !== undefined && steps < MAX_STEPS; steps++) {
        const commit = held.get(c);
        if (!commit) break;
        const said = atParent.get(c);
        if (said?.has(path)) return Promise.resolve(said.get(path) ?? undefined);
        for (const f of commit.files) {
          if (f.path === path) return Promise.resolve(f.status === 'removed' ? undefined : (f.blobAfter ?? undefined));
          if (f.status === 'renamed' && f.previousPath === path) return Promise.resolve(undefined);
        }
        // A root commit's files are against the empty tree: a path it did not add is absent.
        if (commit.parents.length === 0) return Promise.resolve(undefined);
        c = commit.parents[0];
      }
      // Older than the history held, and no later commit said: the reader knows it from the served tree.
      return Promise.reject(new Skip());
    },
    renamedFrom: (sha, parent, path) => {
      const c = held.get(sha);
      const from = c && c.parents[0] === parent ? c.files.find((f) => f.status === 'renamed' && f.path === path)?.previousPath : undefined;
      return Promise.resolve(from ?? undefined);
    },
    read: async (blob) => {
      if (++reads > MAX_VERSIONS) throw new Skip();
      const bytes = await blobs.get(blob);
      if (!bytes) throw new Skip();
      return bytes;
    },
  };

  const memo = new BatchMemo();
  await loadStored(store, repositoryId, held, fresh, records, keyOf, memo);
  const written: StoredVersionBlame[] = [];
  for (const record of parentsFirst(records)) {
    // A commit with no held parent owns its versions whole (a boundary): nothing of them is read.
    if (record.parents.some((p) => held.has(p))) await blobs.prefetch(record.files.flatMap((f) => [f.blobBefore, f.blobAfter].filter((b): b is string => !!b)));
    for (const f of record.files) {
      if (!f.blobAfter) continue;
      reads = 0;
      try {
        await blameVersion(history, record.sha, f.path, f.blobAfter, memo);
      } catch (error) {
        // The store failing is the record failing (retried); anything else only costs the reader
        // this version's speed, never the ref's index.
        if (error instanceof PortError) throw error;
        stats.skipped++;
        if (!(error instanceof Skip)) stats.failed++;
      }
    }
  }
  const commitOf = new Map([...keys].map(([sha, key]) => [key, sha]));
  for (const [composite, version] of await memo.computed()) {
    const cut = composite.indexOf('\u0000');
    const key = composite.slice(0, cut);
    const commit = commitOf.get(key);
    const path = composite.slice(cut + 1);
    // A version its commit left as the first parent had it is that parent's blame: the reader looks there.
    if (commit === undefined || !touches(held.get(commit)!, path)) continue;
    const blame = encodeVersionBlame(version);
    written.push({ key, path, commit, blame });
    stats.bytes += JSON.stringify(blame).length;
  }
  await store.putVersionBlames(repositoryId, written);
  stats.stored = written.length;
  return stats;
}

/** Whether the commit's own changes name the path (added, changed, removed, or renamed away). */
function touches(commit: CommitRecord, path: string): boolean {
  return commit.files.some((f) => f.path === path || f.previousPath === path);
}

/**
 * The stored blames the new versions' parents reach: for each parent of a new commit, the
 * first-parent line down to the commit that last changed the path, as far as it runs through
 * commits stored before this batch. Only that commit's blame is stored (a version is stored by the
 * commit that made it), so only it is read: one record per parent and path, whatever the line's
 * length. A commit on the line above it has its very blob, so its blame too: the record is kept
 * under each of their keys, where blameVersion looks.
 */
async function loadStored(
  store: HistoryStore,
  repositoryId: number,
  held: ReadonlyMap<string, CommitRecord>,
  fresh: ReadonlySet<string>,
  records: readonly CommitRecord[],
  keyOf: (sha: string) => string,
  memo: BatchMemo,
): Promise<void> {
  const wanted = new Map<string, { key: string; path: string; above: Set<string> }>();
  for (const record of records) {
    for (const f of record.files) {
      if (!f.blobAfter) continue;
      const paths = [f.path, ...(f.previousPath ? [f.previousPath] : [])];
      for (const parent of record.parents) {
        for (const path of paths) {
          const above: string[] = [];
          for (let c: string | undefined = parent, steps = 0; c !== undefined && held.has(c) && !fresh.has(c) && steps < MAX_STEPS; c = held.get(c)!.parents[0], steps++) {
            const key = keyOf(c);
            above.push(memoKey(key, path));
            if (!touches(held.get(c)!, path)) continue;
            const id = memoKey(key, path);
            const entry = wanted.get(id) ?? { key, path, above: new Set<string>() };
            for (const k of above) entry.above.add(k);
            wanted.set(id, entry);
            break;
          }
        }
      }
    }
  }
  if (wanted.size === 0) return;
  for (const found of await store.getVersionBlames(
    repositoryId,
    [...wanted.values()].map(({ key, path }) => ({ key, path })),
  )) {
    const blame = decodeVersionBlame(found.blame);
    for (const k of wanted.get(memoKey(found.key, found.path))?.above ?? []) memo.preload(k, blame);
  }
}

/** The batch's memo: blames read from the store (not written again) and those computed here. */
class BatchMemo implements BlameMemo {
  private readonly entries = new Map<string, Promise<VersionBlame>>();
  private readonly stored = new Set<string>();

  preload(key: string, blame: VersionBlame): void {
    this.entries.set(key, Promise.resolve(blame));
    this.stored.add(key);
  }

  get(key: string): Promise<VersionBlame> | undefined {
    return this.entries.get(key);
  }

  set(key: string, blame: Promise<VersionBlame>): void {
    this.entries.set(key, blame);
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Every blame computed in this batch that completed. */
  async computed(): Promise<[string, VersionBlame][]> {
    const out: [string, VersionBlame][] = [];
    for (const [key, blame] of this.entries) {
      if (this.stored.has(key)) continue;
      const version = await blame.catch(() => undefined);
      if (version) out.push([key, version]);
    }
    return out;
  }
}

/** Blob bytes from the history store, read a commit's worth at a time and kept up to a bound. */
class BlobCache {
  private readonly bytes = new Map<string, Uint8Array | undefined>();
  private size = 0;

  constructor(
    private readonly store: HistoryStore,
    private readonly repositoryId: number,
  ) {}

  async prefetch(shas: readonly string[]): Promise<void> {
    const wanted = [...new Set(shas)].filter((s) => !this.bytes.has(s));
    if (wanted.length === 0) return;
    const found = await this.store.readHistoryBlobs(this.repositoryId, wanted);
    for (const sha of wanted) this.keep(sha, found.get(sha));
  }

  async get(sha: string): Promise<Uint8Array | undefined> {
    if (!this.bytes.has(sha)) await this.prefetch([sha]);
    return this.bytes.get(sha);
  }

  private keep(sha: string, bytes: Uint8Array | undefined): void {
    this.bytes.set(sha, bytes);
    this.size += bytes?.length ?? 0;
    for (const [old, b] of this.bytes) {
      if (this.size <= MAX_CACHED_BYTES || old === sha) break;
      this.size -= b?.length ?? 0;
      this.bytes.delete(old);
    }
  }
}
