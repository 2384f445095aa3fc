import { storedBytes } from '@gitdex/contracts';
import { MAIN, makeFile, put, retire } from './index-store.fixtures';
import type { ConformanceContext } from './index-store.cases';

/** Read fidelity: a file's exact bytes and encoding survive the store, and stay out of listings. */
export function describeByteCases(ctx: ConformanceContext): void {
  describe('file bytes and encodings', () => {
    it('gives back the bytes of binary and non-UTF-8 files, and their encoding, but never in listings', async () => {
      const repositoryId = ctx.repositoryId();
      const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xfe]);
      const latin = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0d, 0x0a]);
      const binary = makeFile({
        repositoryId,
        path: 'assets/logo.png',
        content: null,
        size: png.length,
        encoding: null,
        contentBase64: png.toString('base64'),
        flags: { binary: true, vendored: false, generated: false, tooLarge: false },
      });
      const legacy = makeFile({ repositoryId, path: 'src/legacy.c', content: 'café\r\n', size: latin.length, encoding: 'windows-1252', contentBase64: latin.toString('base64') });
      const bom = makeFile({ repositoryId, path: 'src/bom.txt', content: 'x\n', size: 5, encoding: 'utf-8', bom: true });
      await ctx.write([put(binary), put(legacy), put(bom)]);
      const snapshot = { repositoryId, ref: MAIN, generation: 1 };
      const got = await ctx.store().getFile(snapshot, 'assets/logo.png');
      expect(got).toMatchObject({ content: null, encoding: null, contentBase64: png.toString('base64') });
      expect(storedBytes(got!)).toEqual(png);
      const text = await ctx.store().getFile(snapshot, 'src/legacy.c');
      expect(text).toMatchObject({ content: 'café\r\n', encoding: 'windows-1252' });
      expect(storedBytes(text!)).toEqual(latin);
      expect(storedBytes((await ctx.store().getFile(snapshot, 'src/bom.txt'))!)).toEqual(Buffer.from([0xef, 0xbb, 0xbf, 0x78, 0x0a]));
      const listed = await ctx.store().listFiles({ ...snapshot, folder: '', depth: 10 }, null, 10);
      expect(listed.files.map((f) => f.path)).toEqual(['assets/logo.png', 'src/bom.txt', 'src/legacy.c']);
      for (const file of listed.files) expect(file).not.toHaveProperty('contentBase64');
      expect(listed.files.find((f) => f.path === 'src/legacy.c')).toMatchObject({ encoding: 'windows-1252' });

      // Replaced and pruned, the bytes go with the version.
      const next = makeFile({ repositoryId, path: 'assets/logo.png', content: 'now text\n', fromGeneration: 2 });
      await ctx.write([put(next), retire(binary, 2)]);
      await ctx.store().pruneRetired(repositoryId, MAIN, 2);
      await ctx.store().refresh();
      const now = await ctx.store().getFile({ ...snapshot, generation: 2 }, 'assets/logo.png');
      expect(now?.contentBase64).toBeUndefined();
      expect(now?.content).toBe('now text\n');
    });
  });
}
