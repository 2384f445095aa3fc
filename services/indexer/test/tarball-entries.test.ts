import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { pack } from 'tar-stream';
import { gitBlobSha } from '../src/build-document';
import { tarballEntries } from '../src/tarball-entries';

async function tarball(entries: { name: string; content?: string; type?: 'file' | 'symlink' | 'directory'; linkname?: string; mode?: number }[]): Promise<Readable> {
  const p = pack();
  for (const e of entries) {
    if (e.type === 'symlink') p.entry({ name: e.name, type: 'symlink', linkname: e.linkname ?? '' });
    else if (e.type === 'directory') p.entry({ name: e.name, type: 'directory' });
    else p.entry({ name: e.name, mode: e.mode ?? 0o644 }, e.content ?? '');
  }
  p.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of p) chunks.push(chunk as Buffer);
  return Readable.from([gzipSync(Buffer.concat(chunks))]);
}

describe('tarballEntries', () => {
  it('strips the top folder, hashes as git does and keeps content up to the limit', async () => {
    const stream = await tarball([
      { name: 'o-r-abc1234/', type: 'directory' },
      { name: 'o-r-abc1234/src/a.ts', content: 'hello\n' },
      { name: 'o-r-abc1234/run.sh', content: 'echo hi\n', mode: 0o755 },
      { name: 'o-r-abc1234/big.txt', content: 'x'.repeat(50) },
      { name: 'o-r-abc1234/dö cs/ünï cödé 🚀.md', content: '# hi' },
      { name: 'o-r-abc1234/link', type: 'symlink', linkname: 'src/a.ts' },
    ]);
    const seen = [];
    for await (const entry of tarballEntries(stream, { maxContentBytes: 20 })) seen.push(entry);
    expect(seen.map((e) => e.path)).toEqual(['src/a.ts', 'run.sh', 'big.txt', 'dö cs/ünï cödé 🚀.md', 'link']);
    expect(seen[0]).toMatchObject({ mode: '100644', blobSha: 'ce013625030ba8dba906f756967f9e9ca394464a', size: 6 });
    expect(seen[0]!.content?.toString()).toBe('hello\n');
    expect(seen[1]!.mode).toBe('100755');
    expect(seen[2]).toMatchObject({ size: 50, blobSha: gitBlobSha(Buffer.from('x'.repeat(50))) });
    expect(seen[2]!.content).toBeUndefined();
    expect(seen[4]).toMatchObject({ mode: '120000', blobSha: gitBlobSha(Buffer.from('src/a.ts')) });
  });

  it('fails on a corrupt archive instead of indexing half of it', async () => {
    const broken = Readable.from([Buffer.from('not a gzip stream')]);
    await expect(async () => {
      for await (const _ of tarballEntries(broken, { maxContentBytes: 10 })) void _;
    }).rejects.toThrow();
  });
});
