import { buildDocument, gitBlobSha } from '@gitdex/indexer';
import type { IndexStore } from '@gitdex/ports';
import { commitSha, readyState, repositoryDocument } from './documents';

/**
 * Seeds a repository whose documents the indexer itself builds from file bytes, as it does
 * from a tarball: what the reader serves is then what the indexer really stores (not a
 * fixture that supplies content directly). A null entry is too large to store.
 */
export async function seedFromBytes(index: IndexStore, options: { id: number; fullName: string; files: Record<string, Buffer | { size: number }>; maxFileBytes?: number }): Promise<string> {
  await index.putRepository(repositoryDocument({ id: options.id, fullName: options.fullName }));
  const ref = 'refs/heads/main';
  const commit = commitSha(`${options.fullName}@bytes`);
  const context = { repositoryId: options.id, ref, commitSha: commit, generation: 1, maxFileBytes: options.maxFileBytes ?? 1024 * 1024 };
  const documents = Object.entries(options.files).map(([path, bytes]) =>
    Buffer.isBuffer(bytes)
      ? buildDocument({ path, mode: '100644', blobSha: gitBlobSha(bytes), size: bytes.length, ...(bytes.length <= context.maxFileBytes ? { content: bytes } : {}) }, context)
      : buildDocument({ path, mode: '100644', blobSha: 'f'.repeat(40), size: bytes.size }, context),
  );
  await index.writeFiles(documents.map((document) => ({ type: 'put' as const, document })));
  await index.refresh();
  await index.putRefState(readyState(options.id, ref, commit, 1, documents.length));
  return commit;
}
