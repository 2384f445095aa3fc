import type { FileDocument } from '@gitdex/contracts';
import type { VersionsLookup } from './read-lookup';

/**
 * The version getFile answers at `generation`, picked from what lookupForRead answered
 * for `asked`; undefined when those versions do not decide it. The rule is the adapters'
 * own: visible at G when fromGeneration <= G and retiredAtGeneration is absent or > G,
 * and the newest visible one wins. The versions are the newest of all that were not
 * retired by `asked.since`: the first visible one among them is the newest visible one,
 * and none visible decides "no file" only when fewer than `asked.limit` came back (there
 * are no older ones) and G >= since (nothing visible at G was left out).
 */
export function visibleVersion<T extends Pick<FileDocument, 'fromGeneration' | 'retiredAtGeneration'>>(
  versions: T[],
  generation: number,
  asked: Pick<VersionsLookup, 'since' | 'limit'>,
): T | null | undefined {
  if (generation < asked.since) return undefined;
  for (const version of versions) {
    if (version.fromGeneration <= generation && (version.retiredAtGeneration ?? Infinity) > generation) return version;
  }
  return versions.length < asked.limit ? null : undefined;
}
