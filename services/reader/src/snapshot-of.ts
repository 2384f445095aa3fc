import type { RefState } from '@gitdex/contracts';
import type { Snapshot } from '@gitdex/ports';

/**
 * The snapshot a tool reads of a ref's state, at its served generation unless another is
 * named. A layered ref (a pull request stored as changes against its base) carries its
 * underlay, which describes the served generation only: an older generation is read as
 * stored, without one.
 */
export function snapshotOf(state: Pick<RefState, 'repositoryId' | 'ref' | 'generation' | 'underlay'>, generation = state.generation): Snapshot {
  const snapshot: Snapshot = { repositoryId: state.repositoryId, ref: state.ref, generation };
  if (state.underlay && generation === state.generation) snapshot.underlay = state.underlay;
  return snapshot;
}
