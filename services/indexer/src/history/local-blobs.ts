import { createHash } from 'node:crypto';
import type { FileDocument } from '@gitdex/contracts';
import type { IndexReads, Snapshot } from '@gitdex/ports';
import { mapLimit } from '../concurrency';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** The exact bytes of a stored file, when its document gives them back (checked against the sha). */
export function bytesOf(document: FileDocument): Buffer | null {
  let bytes: Buffer;
  if (document.contentBase64 !== undefined) bytes = Buffer.from(document.contentBase64, 'base64');
  else if (typeof document.content === 'string') bytes = Buffer.concat([document.bom ? BOM : Buffer.alloc(0), Buffer.from(document.content, 'utf8')]);
  else return null;
  const sha = createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
  return sha === document.blobSha ? bytes : null;
}

/**
 * Blobs the index already holds in these snapshots (the new generation just written, the one
 * served before it): old and new versions of a push cost no request to the source.
 */
export async function blobsInSnapshots(index: Pick<IndexReads, 'findByBlobSha' | 'getFile'>, snapshots: readonly Snapshot[], shas: readonly string[]): Promise<Map<string, Buffer>> {
  const found = new Map<string, Buffer>();
  await mapLimit(shas, 8, async (sha) => {
    for (const snapshot of snapshots) {
      const [path] = await index.findByBlobSha(snapshot, sha, 1);
      if (path === undefined) continue;
      const document = await index.getFile(snapshot, path);
      const bytes = document && document.blobSha === sha ? bytesOf(document) : null;
      if (bytes) {
        found.set(sha, bytes);
        return;
      }
    }
  });
  return found;
}
