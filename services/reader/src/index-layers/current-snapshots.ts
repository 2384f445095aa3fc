import type { RefState } from '@gitdex/contracts';
import type { Snapshot } from '@gitdex/ports';

/**
 * The served state of each ref as the index last answered it (generation and commit), learned
 * from every ref-state answer that passes through metadata reuse. The layers that keep a
 * snapshot's answers key them by it: only a ref's current snapshot is kept, because what it
 * holds never changes while it is current, while pruning changes older ones. The commit in the
 * key keeps a deleted and re-created ref (whose generations start again) from meeting old
 * answers. Bounded by the refs the index holds: a listing of every ref replaces it whole.
 */
export class CurrentSnapshots {
  /** repositoryId → ref → "generation commit". */
  private readonly current = new Map<number, Map<string, string>>();

  /** Learns one ref's state (null or without a commit: the ref serves nothing). */
  learnOne(repositoryId: number, ref: string, state: RefState | null): RefState | null {
    if (!state?.commitSha) {
      this.current.get(repositoryId)?.delete(ref);
      return state;
    }
    let refs = this.current.get(repositoryId);
    if (!refs) this.current.set(repositoryId, (refs = new Map<string, string>()));
    refs.set(ref, `${state.generation} ${state.commitSha}`);
    return state;
  }

  /** Learns every ref state of a repository (or of all of them, without an id): the refs left out serve nothing. */
  learn(states: RefState[], repositoryId?: number): RefState[] {
    if (repositoryId === undefined) this.current.clear();
    else this.current.delete(repositoryId);
    for (const state of states) this.learnOne(state.repositoryId, state.ref, state);
    return states;
  }

  /** The key of a snapshot that is its ref's current state, else null (its answers are not kept). */
  keyOf(snapshot: Snapshot): string | null {
    const served = this.current.get(snapshot.repositoryId)?.get(snapshot.ref);
    if (served === undefined || !served.startsWith(`${snapshot.generation} `)) return null;
    return `${snapshot.repositoryId}\0${snapshot.ref}\0${served}`;
  }
}

/** A ref's key, whatever its snapshot: where a layer keeps what it did for the ref last. */
export function refKey(snapshot: Snapshot): string {
  return `${snapshot.repositoryId}\0${snapshot.ref}`;
}
