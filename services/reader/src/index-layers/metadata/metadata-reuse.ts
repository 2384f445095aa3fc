import type { RefState, RepositoryDocument } from '@gitdex/contracts';
import type { IndexCallOptions, ReadLookup, ReadLookupResult } from '@gitdex/ports';
import type { CurrentSnapshots } from '../current-snapshots';
import { ForwardingIndex } from '../forwarding-index';
import type { ReaderIndex } from '../reader-index';
import { KeepFresh, type Repeat } from './keep-fresh';
import { ReuseWindow } from './reuse-window';

export interface MetadataReuseOptions {
  /** How long repository and ref-state answers are reused: the most a read may lag a flip. */
  ttlMs: number;
  /** How long a repository's lookups are kept fresh after it was last worked on (keep-fresh.ts); 0: off. */
  keepFreshMs: number;
  /** Clock in milliseconds. */
  now: () => number;
  /** The timer of the keep-fresh checks (keep-fresh.ts); default the real one. */
  repeat?: Repeat | undefined;
}

/**
 * Metadata reuse: repositories and ref states reused within a window (ReuseWindow), those of
 * the repositories at work kept fresh (KeepFresh), and every ref state that passes taught to
 * CurrentSnapshots. lookupForRead (a repository, its ref states and a file's versions in one
 * round trip) answers from the window when both are still in it, leaving the file to getFile;
 * else it asks the index and keeps the repository and ref states it answered under the same
 * rule. A shared lookup is asked without the caller's options: it is not the caller's to cancel.
 */
export class MetadataReuse extends ForwardingIndex {
  private readonly window: ReuseWindow;
  private readonly keepFresh: KeepFresh;

  constructor(
    inner: ReaderIndex,
    private readonly current: CurrentSnapshots,
    private readonly options: MetadataReuseOptions,
  ) {
    super(inner);
    this.keepFresh = new KeepFresh(options);
    this.window = new ReuseWindow(options.ttlMs, options.now, this.keepFresh.use);
    this.keepFresh.watch(this.window);
  }

  /** Marks a repository worked on now: its lookups are kept fresh for keepFreshMs. */
  working(repositoryId: number): void {
    this.keepFresh.working(repositoryId);
  }

  override findRepositoryByName(name: string): Promise<RepositoryDocument | null> {
    return this.window.fresh(`name\0${name}`, async () => {
      const repository = await this.inner.findRepositoryByName(name);
      if (repository) this.keepFresh.knowName(name, repository.repositoryId);
      return repository;
    });
  }

  override getRepository(id: number): Promise<RepositoryDocument | null> {
    return this.window.fresh(`repo\0${id}`, () => this.inner.getRepository(id));
  }

  override listRepositories(): Promise<RepositoryDocument[]> {
    return this.window.fresh('repos', () => this.inner.listRepositories());
  }

  override listRefStates(id?: number): Promise<RefState[]> {
    return this.window.fresh(`states\0${id ?? '*'}`, async () => this.current.learn(await this.inner.listRefStates(id), id));
  }

  override async getRefState(id: number, ref: string, options?: IndexCallOptions): Promise<RefState | null> {
    return this.current.learnOne(id, ref, await this.inner.getRefState(id, ref, options));
  }

  override async lookupForRead(request: ReadLookup): Promise<ReadLookupResult> {
    const nameKey = `name\0${request.fullName}`;
    const statesKey = `states\0${request.repositoryId}`;
    this.keepFresh.knowName(request.fullName, request.repositoryId);
    if (this.window.within(nameKey) && this.window.within(statesKey)) {
      // Both reused under the usual rule; the file is left to getFile, whose answers are kept per snapshot.
      const [repository, refStates] = await Promise.all([this.findRepositoryByName(request.fullName), this.listRefStates(request.repositoryId)]);
      return { repository, refStates, versions: null, outlines: null };
    }
    // The window counts from when the lookups were asked, as for lookups made one by one.
    const at = this.options.now();
    const answer = this.inner.lookupForRead(request).then((found) => {
      this.current.learn(found.refStates, request.repositoryId);
      return found;
    });
    this.window.seed(
      nameKey,
      at,
      answer.then((found) => found.repository),
      () => this.inner.findRepositoryByName(request.fullName),
    );
    this.window.seed(
      statesKey,
      at,
      answer.then((found) => found.refStates),
      async () => this.current.learn(await this.inner.listRefStates(request.repositoryId), request.repositoryId),
    );
    return answer;
  }
}
