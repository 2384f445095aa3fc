import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ReadFileOutput } from '@gitdex/contracts';
import { seedFromBytes } from '../support/byte-seed';
import { call, connectInMemory, failed, ok, textOf } from '../support/mcp-client';
import { createWorld, type IndexKind, type World } from '../support/world';

const MINIFIED = Buffer.from(`!function(){${'var a="é✓😀";'.repeat(9000)}}();`);
const FILES: Record<string, Buffer | { size: number }> = {
  'dist/index.js': Buffer.from('"use strict";\nmodule.exports = 42;\n'),
  'vendor/github.com/acme/x/x.go': Buffer.from('package x\n'),
  'package-lock.json': Buffer.from('{\n  "lockfileVersion": 3\n}\n'),
  'dist/app.min.js': MINIFIED,
  'crlf.txt': Buffer.from('one\r\ntwo\r\n'),
  'unicode.txt': Buffer.from('é✓😀 mixed ✓ text 😀\n'.repeat(3)),
  'no-final-newline.txt': Buffer.from('one\ntwo'),
  'mixed.txt': Buffer.from('a\r\nb\nc\n'),
  'single.txt': Buffer.from('just one line'),
  'latin1.c': Buffer.from([0x2f, 0x2a, 0x20, 0x63, 0x61, 0x66, 0xe9, 0x20, 0x80, 0x20, 0x2a, 0x2f, 0x0d, 0x0a]),
  'utf16.txt': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('héllo 😀 wörld\r\nline two\r\n', 'utf16le')]),
  'bom.md': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('# Title\n')]),
  'logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0xff, 0xfe, 0x00, 0x01]),
  'big.bin': { size: 5_000_000 },
};

describe.each<IndexKind>(['sqlite'])('read_file fidelity (%s index)', (kind) => {
  let world: World;
  let client: Client;
  let close: () => Promise<void>;
  const read = async (args: Record<string, unknown>) => call(client, 'read_file', { repository: 'octo/bytes', ...args });

  /** Reads a whole file page by page from offset 0; the bytes of the pages, in a row. */
  async function readAllBytes(path: string, maxBytes: number, encoding: 'text' | 'base64'): Promise<{ bytes: Buffer; pages: number; texts: string[] }> {
    const parts: Buffer[] = [];
    const texts: string[] = [];
    let offset: number | null = 0;
    let pages = 0;
    while (offset !== null) {
      const out: ReadFileOutput = ok<ReadFileOutput>(await read({ path, offset, max_bytes: maxBytes, encoding }));
      expect(out.offset).toBe(offset);
      expect(out.content_encoding).toBe(encoding);
      expect(out.bytes).toBeLessThanOrEqual(Math.max(maxBytes, 4));
      texts.push(out.content);
      parts.push(encoding === 'base64' ? Buffer.from(out.content, 'base64') : Buffer.from(out.content, 'utf8'));
      offset = out.next_offset ?? null;
      pages += 1;
      expect(pages).toBeLessThan(1000);
    }
    return { bytes: Buffer.concat(parts), pages, texts };
  }

  beforeEach(async () => {
    world = await createWorld(kind);
    await seedFromBytes(world.index, { id: 40, fullName: 'octo/bytes', files: FILES, maxFileBytes: 1_000_000 });
    ({ client, close } = await connectInMemory(world.deps));
  });
  afterEach(async () => close());

  test('generated and vendored files are read like any file, and still flagged', async () => {
    const dist = ok<ReadFileOutput>(await read({ path: 'dist/index.js' }));
    expect(dist).toMatchObject({ content: '"use strict";\nmodule.exports = 42;', flags: { generated: true }, total_lines: 2 });
    expect(ok<ReadFileOutput>(await read({ path: 'vendor/github.com/acme/x/x.go' }))).toMatchObject({ content: 'package x', flags: { vendored: true } });
    expect(ok<ReadFileOutput>(await read({ path: 'package-lock.json' }))).toMatchObject({ total_lines: 3, flags: { generated: true } });
  });

  test('line ends and the final newline are reported; the numbered text stays clean', async () => {
    const crlf = await read({ path: 'crlf.txt' });
    expect(ok<ReadFileOutput>(crlf)).toMatchObject({ content: 'one\ntwo', line_ending: 'crlf', ends_with_newline: true, file_encoding: 'utf-8' });
    expect(textOf(crlf)).toContain('1\tone\n2\ttwo');
    expect(textOf(crlf)).not.toContain('\r');
    expect(ok<ReadFileOutput>(await read({ path: 'no-final-newline.txt' }))).toMatchObject({ line_ending: 'lf', ends_with_newline: false });
    expect(ok<ReadFileOutput>(await read({ path: 'mixed.txt' }))).toMatchObject({ line_ending: 'mixed', ends_with_newline: true });
    expect(ok<ReadFileOutput>(await read({ path: 'single.txt' }))).toMatchObject({ line_ending: 'none', ends_with_newline: false });
    // Rebuilt from lines and the two fields, the file is exact.
    for (const path of ['crlf.txt', 'no-final-newline.txt', 'single.txt', 'dist/index.js']) {
      const out = ok<ReadFileOutput>(await read({ path }));
      const end = out.line_ending === 'crlf' ? '\r\n' : '\n';
      const rebuilt = out.content.split('\n').join(end) + (out.ends_with_newline ? end : '');
      expect(Buffer.from(rebuilt)).toEqual(FILES[path]);
    }
  });

  test('a line longer than a read is read whole by bytes, and byte pages give back exactly the file', async () => {
    const lines = ok<ReadFileOutput>(await read({ path: 'dist/app.min.js' }));
    expect(lines.cut_line).toBe(1);
    expect(lines.note).toContain('by bytes');
    const text = await readAllBytes('dist/app.min.js', 65_536, 'text');
    expect(text.bytes.equals(MINIFIED)).toBe(true);
    expect(text.texts.join('')).toBe(MINIFIED.toString('utf8'));
    // Small pages cut inside multi-byte characters: each page ends on a whole character.
    for (const max of [1, 2, 3, 5, 7]) {
      const small = await readAllBytes('unicode.txt', max, 'text');
      expect(small.bytes).toEqual(FILES['unicode.txt']);
    }
    const raw = await readAllBytes('dist/app.min.js', 65_536, 'base64');
    expect(raw.bytes.equals(MINIFIED)).toBe(true);
  });

  test('the default byte page is 64 KiB, bounded by the result budget with an exact next_offset', async () => {
    const out = ok<ReadFileOutput>(await read({ path: 'dist/app.min.js', offset: 0 }));
    expect(out.bytes).toBeGreaterThan(1000);
    expect(out.bytes).toBeLessThanOrEqual(65_536);
    expect(out.next_offset).toBe(out.bytes);
    expect(JSON.stringify(out).length).toBeLessThanOrEqual(60_000);
    const past = ok<ReadFileOutput>(await read({ path: 'dist/app.min.js', offset: MINIFIED.length + 10 }));
    expect(past).toMatchObject({ content: '', bytes: 0, next_offset: null });
  });

  test('byte and line addressing are not mixed, max_bytes is bounded, and offsets inside a character are refused', async () => {
    expect(failed(await read({ path: 'crlf.txt', offset: 0, start_line: 2 })).text).toMatch(/one or the other/);
    expect(failed(await read({ path: 'crlf.txt', encoding: 'base64', end_line: 2 })).text).toMatch(/one or the other/);
    expect(failed(await read({ path: 'crlf.txt', max_bytes: 65_537 })).text).toMatch(/at most 65,536 bytes/);
    expect(failed(await read({ path: 'crlf.txt', offset: -1 })).text).toMatch(/offset/);
    // "é" is bytes 16-17 of the minified file ('!function(){var a="' is 19 bytes, é at 19-20).
    const inside = failed(await read({ path: 'dist/app.min.js', offset: 20 }));
    expect(inside.text).toMatch(/inside a UTF-8 character.*start at 19 or 21/);
  });

  test('binary files come back as base64 on a byte read, and say how to read them on a line read', async () => {
    const lines = ok<ReadFileOutput>(await read({ path: 'logo.png' }));
    expect(lines).toMatchObject({ content: '', flags: { binary: true }, file_encoding: null });
    expect(lines.note).toContain('encoding "base64"');
    expect(failed(await read({ path: 'logo.png', offset: 0 })).text).toMatch(/binary: read its bytes with encoding "base64"/);
    const bytes = ok<ReadFileOutput>(await read({ path: 'logo.png', encoding: 'base64' }));
    expect(Buffer.from(bytes.content, 'base64')).toEqual(FILES['logo.png']);
    expect(bytes).toMatchObject({ content_encoding: 'base64', offset: 0, bytes: 20, next_offset: null, complete: true });
    const header = ok<ReadFileOutput>(await read({ path: 'logo.png', encoding: 'base64', max_bytes: 8 }));
    expect(Buffer.from(header.content, 'base64').toString('latin1')).toBe('\x89PNG\r\n\x1a\n');
    expect(header.next_offset).toBe(8);
    expect((await readAllBytes('logo.png', 3, 'base64')).bytes).toEqual(FILES['logo.png']);
  });

  test('files over the size limit stay listed, not stored, and say so', async () => {
    expect(ok<ReadFileOutput>(await read({ path: 'big.bin' })).note).toMatch(/Too large to index.*not stored/);
    expect(failed(await read({ path: 'big.bin', encoding: 'base64' })).text).toMatch(/too large to index .*not stored/);
  });

  test('text in other encodings is decoded, says its encoding, and its bytes come back exactly', async () => {
    const latin = ok<ReadFileOutput>(await read({ path: 'latin1.c' }));
    expect(latin).toMatchObject({ content: '/* café € */', file_encoding: 'windows-1252', line_ending: 'crlf', ends_with_newline: true });
    expect(latin.note).toContain('decoded from windows-1252');
    const utf16 = ok<ReadFileOutput>(await read({ path: 'utf16.txt' }));
    expect(utf16).toMatchObject({ content: 'héllo 😀 wörld\nline two', file_encoding: 'utf-16le', bom: true, total_lines: 2 });
    const bom = ok<ReadFileOutput>(await read({ path: 'bom.md' }));
    expect(bom).toMatchObject({ content: '# Title', file_encoding: 'utf-8', bom: true });
    for (const path of ['latin1.c', 'utf16.txt', 'bom.md']) {
      expect((await readAllBytes(path, 5, 'base64')).bytes).toEqual(FILES[path]);
    }
    // Text pages of UTF-16 never split a surrogate pair: joined, they are the text (with its BOM).
    const pages = await readAllBytes('utf16.txt', 6, 'text');
    expect(pages.texts.join('')).toBe('\ufeffhéllo 😀 wörld\r\nline two\r\n');
    expect(failed(await read({ path: 'utf16.txt', offset: 3 })).text).toMatch(/inside a UTF-16 code unit/);
  });
});
