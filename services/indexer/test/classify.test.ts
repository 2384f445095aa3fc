import { buildDocument, gitBlobSha, wantsContent, type DocumentContext } from '../src/build-document';
import { countLines } from '../src/classify/content';
import { decodeContent } from '../src/classify/encoding';
import { storedBytes } from '@gitdex/contracts';
import { classifyPath } from '../src/classify/vendored';
import { languageOf } from '../src/classify/languages';

const context: DocumentContext = { repositoryId: 7, ref: 'refs/heads/main', commitSha: 'c'.repeat(40), generation: 3, maxFileBytes: 100 };

describe('classification', () => {
  it('counts lines the way an editor does', () => {
    expect(countLines('')).toBe(0);
    expect(countLines('a')).toBe(1);
    expect(countLines('a\n')).toBe(1);
    expect(countLines('a\nb')).toBe(2);
    expect(countLines('a\n\n')).toBe(2);
  });

  it('calls content with NUL bytes or control bytes binary, and reads other text in its encoding', () => {
    expect(decodeContent(Buffer.from('plain text ✓'))).toEqual({ binary: false, encoding: 'utf-8', bom: false, text: 'plain text ✓', utf8Exact: true });
    expect(decodeContent(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00]))).toEqual({ binary: true });
    expect(decodeContent(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x02]))).toEqual({ binary: true });
    // Latin-1 / Windows-1252: invalid UTF-8, no control bytes.
    expect(decodeContent(Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x80, 0x0a]))).toMatchObject({ binary: false, encoding: 'windows-1252', text: 'café €\n', utf8Exact: false });
    expect(decodeContent(Buffer.from([0xef, 0xbb, 0xbf, 0x68, 0x69]))).toEqual({ binary: false, encoding: 'utf-8', bom: true, text: 'hi', utf8Exact: true });
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('héllo\r\n', 'utf16le')]);
    expect(decodeContent(le)).toMatchObject({ binary: false, encoding: 'utf-16le', bom: true, text: 'héllo\r\n' });
    const be = Buffer.from(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('ok', 'utf16le')]).swap16());
    expect(decodeContent(be)).toMatchObject({ binary: false, encoding: 'utf-16be', text: 'ok' });
  });

  it('knows vendored and generated paths', () => {
    expect(classifyPath('node_modules/x/index.js')).toEqual({ vendored: true, generated: false });
    expect(classifyPath('web/vendor/jquery.js').vendored).toBe(true);
    expect(classifyPath('dist/app.js').generated).toBe(true);
    expect(classifyPath('public/app.min.js').generated).toBe(true);
    expect(classifyPath('package-lock.json').generated).toBe(true);
    expect(classifyPath('src/vendors.ts')).toEqual({ vendored: false, generated: false });
  });

  it('names languages by extension and file name, and tells documentation from code', () => {
    expect(languageOf('main.ts', 'ts')).toEqual({ language: 'TypeScript', category: 'code' });
    expect(languageOf('README.md', 'md')).toEqual({ language: 'Markdown', category: 'documentation' });
    expect(languageOf('Dockerfile', '')).toEqual({ language: 'Dockerfile', category: 'code' });
    expect(languageOf('data.bin', 'bin')).toEqual({ language: null, category: 'other' });
  });
});

describe('buildDocument', () => {
  it('derives folders, tokens and counts for a text file', () => {
    const content = Buffer.from('export const a = 1;\nexport const b = 2;\n');
    const doc = buildDocument({ path: 'src/lib/HttpServer.ts', mode: '100644', blobSha: gitBlobSha(content), size: content.length, content }, context);
    expect(doc).toMatchObject({
      folder: 'src/lib',
      name: 'HttpServer.ts',
      extension: 'ts',
      language: 'TypeScript',
      category: 'code',
      kind: 'file',
      lineCount: 2,
      ancestors: ['', 'src', 'src/lib'],
      depth: 3,
      nameLower: 'httpserver.ts',
      fromGeneration: 3,
      flags: { binary: false, vendored: false, generated: false, tooLarge: false },
    });
    expect(doc.tokens).toEqual(expect.arrayContaining(['src', 'lib', 'http', 'server', 'ts']));
    expect(doc.content).toBe(content.toString());
  });

  it('lists too-large files without content, and keeps the bytes of binary files', () => {
    const big = buildDocument({ path: 'big.txt', mode: '100644', blobSha: 'a'.repeat(40), size: 101 }, context);
    expect(big).toMatchObject({ content: null, lineCount: null, flags: { tooLarge: true } });
    expect(big.contentBase64).toBeUndefined();
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]);
    const doc = buildDocument({ path: 'logo.png', mode: '100644', blobSha: gitBlobSha(png), size: png.length, content: png }, context);
    expect(doc).toMatchObject({ content: null, encoding: null, flags: { binary: true } });
    expect(storedBytes(doc)).toEqual(png);
    expect(wantsContent({ path: 'big.txt', mode: '100644', size: 101 }, context)).toBe(false);
  });

  it('stores vendored and generated files with their content, flagged', () => {
    expect(wantsContent({ path: 'node_modules/a/b.js', mode: '100644', size: 10 }, context)).toBe(true);
    expect(wantsContent({ path: 'dist/index.js', mode: '100644', size: 10 }, context)).toBe(true);
    for (const path of ['vendor/github.com/x/y.go', 'dist/index.js', 'package-lock.json', 'web/app.min.js']) {
      const content = Buffer.from('var a=1;\n');
      const doc = buildDocument({ path, mode: '100644', blobSha: gitBlobSha(content), size: content.length, content }, context);
      expect(doc.content).toBe('var a=1;\n');
      expect(doc.lineCount).toBe(1);
      expect(doc.flags.vendored || doc.flags.generated).toBe(true);
    }
  });

  it('keeps the exact bytes of text in other encodings, and says which encoding it read', () => {
    const cases: [Buffer, string, string][] = [
      [Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0d, 0x0a]), 'windows-1252', 'café\r\n'],
      [Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a\nb', 'utf16le')]), 'utf-16le', 'a\nb'],
      [Buffer.from([0xef, 0xbb, 0xbf, 0x78, 0x0a]), 'utf-8', 'x\n'],
    ];
    for (const [bytes, encoding, text] of cases) {
      const doc = buildDocument({ path: 'legacy.c', mode: '100644', blobSha: gitBlobSha(bytes), size: bytes.length, content: bytes }, context);
      expect(doc).toMatchObject({ encoding, content: text, flags: { binary: false } });
      expect(storedBytes(doc)).toEqual(bytes);
    }
    const plain = Buffer.from('plain\n');
    const doc = buildDocument({ path: 'a.txt', mode: '100644', blobSha: gitBlobSha(plain), size: plain.length, content: plain }, context);
    // UTF-8 text is its own bytes: nothing stored twice.
    expect(doc.contentBase64).toBeUndefined();
    expect(storedBytes(doc)).toEqual(plain);
  });

  it('keeps symlinks and submodules as what they are', () => {
    const target = Buffer.from('../README.md');
    expect(buildDocument({ path: 'docs/link', mode: '120000', blobSha: gitBlobSha(target), size: target.length, content: target }, context)).toMatchObject({
      kind: 'symlink',
      target: '../README.md',
      content: null,
    });
    expect(buildDocument({ path: 'deps/lib', mode: '160000', blobSha: 'b'.repeat(40), size: 0 }, context)).toMatchObject({ kind: 'submodule', target: 'b'.repeat(40), content: null });
  });

  it('computes git blob shas exactly as git does', () => {
    // `printf 'hello\n' | git hash-object --stdin`
    expect(gitBlobSha(Buffer.from('hello\n'))).toBe('ce013625030ba8dba906f756967f9e9ca394464a');
  });
});
