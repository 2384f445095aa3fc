import type { Source, SourceRepository } from '@gitdex/ports';

/** What a backfill queued by a caller without a token may hold (GITDEX_ANONYMOUS_BACKFILL_MAX_FILES, _MAX_BYTES). */
export interface BackfillCap {
  maxFiles: number;
  maxBytes: number;
}

/**
 * Why a repository is too large for a backfill a caller without a token queued (its default
 * branch's files and bytes, from one recursive tree), or null when it fits. Such a caller
 * may queue any public repository, and a backfill indexes a repository whole: the cap keeps
 * what anyone can make gitdex fetch and store bounded. A tree GitHub truncated (past about
 * 100,000 entries) is over any cap this is meant for.
 */
export async function backfillCapProblem(source: Source, repository: SourceRepository, cap: BackfillCap, installationId?: number): Promise<string | null> {
  const head = await source.head(repository, repository.defaultBranch, installationId);
  if (!head) return null;
  const tree = await source.tree(repository, head.treeSha, { recursive: true, ...(installationId ? { installationId } : {}) });
  let files = 0;
  let bytes = 0;
  for (const entry of tree.entries) {
    if (entry.type !== 'blob') continue;
    files += 1;
    bytes += entry.size ?? 0;
  }
  if (!tree.truncated && files <= cap.maxFiles && bytes <= cap.maxBytes) return null;
  const size = tree.truncated ? 'more files than GitHub lists in one tree' : `${files} files, ${bytes} bytes`;
  return `queued by a caller without a token and larger than such a backfill may be (${size}; at most ${cap.maxFiles} files and ${cap.maxBytes} bytes): not indexed; \`gitdex index ${repository.fullName}\` indexes it`;
}
