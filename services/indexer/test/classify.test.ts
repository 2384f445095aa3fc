import { buildDocument, gitBlobSha, wantsContent, type DocumentContext } from '../src/build-document';
import { countLines, isBinary } from '../src/classify/content';
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

  it('calls content with NUL bytes or invalid UTF-8 binary', () => {
    expect(isBinary(Buffer.from('plain text ✓'))).toBe(false);
    expect(isBinary(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00]))).toBe(true);
    expect(isBinary(Buffer.from([0xc3, 0x28]))).toBe(true);
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
      folder: 'src/lib', name: 'HttpServer.ts', extension: 'ts', language: 'TypeScript', category: 'code', kind: 'file',
      lineCount: 2, ancestors: ['', 'src', 'src/lib'], depth: 3, nameLower: 'httpserver.ts', fromGeneration: 3,
      flags: { binary: false, vendored: false, generated: false, tooLarge: false },
    });
    expect(doc.tokens).toEqual(expect.arrayContaining(['src', 'lib', 'http', 'server', 'ts']));
    expect(doc.content).toBe(content.toString());
  });

  it('lists too-large, binary and vendored files without content', () => {
    const big = buildDocument({ path: 'big.txt', mode: '100644', blobSha: 'a'.repeat(40), size: 101 }, context);
    expect(big).toMatchObject({ content: null, lineCount: null, flags: { tooLarge: true } });
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]);
    expect(buildDocument({ path: 'logo.png', mode: '100644', blobSha: gitBlobSha(png), size: png.length, content: png }, context)).toMatchObject({ content: null, flags: { binary: true } });
    expect(wantsContent({ path: 'node_modules/a/b.js', mode: '100644', size: 10 }, context)).toBe(false);
    expect(wantsContent({ path: 'big.txt', mode: '100644', size: 101 }, context)).toBe(false);
  });

  it('keeps symlinks and submodules as what they are', () => {
    const target = Buffer.from('../README.md');
    expect(buildDocument({ path: 'docs/link', mode: '120000', blobSha: gitBlobSha(target), size: target.length, content: target }, context)).toMatchObject({ kind: 'symlink', target: '../README.md', content: null });
    expect(buildDocument({ path: 'deps/lib', mode: '160000', blobSha: 'b'.repeat(40), size: 0 }, context)).toMatchObject({ kind: 'submodule', target: 'b'.repeat(40), content: null });
  });

  it('computes git blob shas exactly as git does', () => {
    // `printf 'hello\n' | git hash-object --stdin`
    expect(gitBlobSha(Buffer.from('hello\n'))).toBe('ce013625030ba8dba906f756967f9e9ca394464a');
  });
});
