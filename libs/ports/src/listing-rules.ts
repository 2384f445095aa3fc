import { depthOf } from '@gitdex/terms';
import type { FolderScope } from './index-types';

/**
 * The rules every answer to listFolders and listFiles follows, whoever computes it (an
 * adapter's engine, or a reader's catalogue in memory), so that all give the same listing.
 */

/** listFolders answers at most this many folders (the first in path order). */
export const MAX_FOLDERS = 10_000;

/** The deepest level (counted from the root, a top-level file being at 1) a scope lists: `depth` levels below its folder. */
export function deepestListed(scope: Pick<FolderScope, 'folder' | 'depth'>): number {
  return depthOf(scope.folder) + scope.depth;
}
