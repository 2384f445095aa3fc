// Reads tarballs served by the stand-in (gzip + tar) for assertions.
import { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import * as tar from 'tar-stream';

export interface TarEntry {
  name: string;
  type: string;
  linkname: string | null;
  mode: number | undefined;
  data: Buffer;
}

export async function readTarEntries(tarball: Buffer): Promise<TarEntry[]> {
  const entries: TarEntry[] = [];
  const extract = tar.extract();
  const done = new Promise<void>((resolve, reject) => {
    extract.on('entry', (header, stream, next) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: unknown) => void chunks.push(chunk as Buffer));
      stream.on('end', () => {
        entries.push({ name: header.name, type: header.type ?? 'file', linkname: header.linkname ?? null, mode: header.mode, data: Buffer.concat(chunks) });
        next();
      });
    });
    extract.on('finish', resolve);
    extract.on('error', reject);
  });
  Readable.from([tarball]).pipe(extract);
  await done;
  return entries;
}

/** The "comment" of the pax global header git archive writes first: the archived commit id. */
export function paxGlobalComment(tarball: Buffer): string | null {
  if (String.fromCharCode(tarball[156] ?? 0) !== 'g') return null;
  const size = parseInt(tarball.subarray(124, 136).toString('ascii').replace(/\0.*$/s, '').trim(), 8);
  const records = tarball.subarray(512, 512 + size).toString('utf8');
  return /\d+ comment=([0-9a-f]{40,64})\n/.exec(records)?.[1] ?? null;
}

/** Gunzips a .tar.gz and returns its entries plus the pax comment. */
export async function readTarGz(archive: Buffer | ArrayBuffer): Promise<{ entries: TarEntry[]; comment: string | null }> {
  const tarball = gunzipSync(Buffer.isBuffer(archive) ? archive : Buffer.from(archive));
  return { entries: await readTarEntries(tarball), comment: paxGlobalComment(tarball) };
}
