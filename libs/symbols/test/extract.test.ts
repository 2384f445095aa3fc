// Extraction in the calling thread, per language: the outline a real caller stores, with kinds,
// containers, line ranges and signatures, and the blobs it declines.
import { BlobSymbolsSchema, MAX_SIGNATURE_CHARS } from '@gitdex/contracts';
import { extractSymbols, SUPPORTED_LANGUAGES, SYMBOL_EXTRACTOR_VERSION } from '../src';
import { FIXTURES } from './fixtures';

describe('extractSymbols', () => {
  it.each(FIXTURES.map((f) => [`${f.language} (${f.path})`, f] as const))('outlines %s', async (_, fixture) => {
    const symbols = await extractSymbols(fixture.code, fixture.path, fixture.language);
    expect(BlobSymbolsSchema.parse(symbols)).toEqual(symbols);
    expect(symbols).toMatchObject({ extractor: SYMBOL_EXTRACTOR_VERSION, language: fixture.language, status: 'parsed' });
    const outline = symbols.definitions.map((d) => [d.name, d.kind, d.container, d.line, d.endLine]);
    expect(outline).toEqual(fixture.expected);
    // File order, outer before inner.
    const order = symbols.definitions.map((d) => [d.line, -d.endLine]);
    expect(order).toEqual([...order].sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!));
  });

  it('covers every language the fixtures name', () => {
    expect([...new Set(FIXTURES.map((f) => f.language))].sort()).toEqual([...SUPPORTED_LANGUAGES].sort());
  });

  it('gives each definition its first line(s) up to the body, whitespace collapsed', async () => {
    const code = 'class Shape:\n    def area(self,\n             scale: float = 1.0) -> float:\n        return 0\n';
    const { definitions } = await extractSymbols(code, 'shape.py', 'Python');
    expect(definitions.map((d) => d.signature)).toEqual(['class Shape:', 'def area(self, scale: float = 1.0) -> float:']);
    const long = `function f(${Array.from({ length: 100 }, (_, i) => `a${i}`).join(', ')}) {}`;
    const [only] = (await extractSymbols(long, 'f.js', 'JavaScript')).definitions;
    expect(only!.signature.length).toBe(MAX_SIGNATURE_CHARS);
    expect(only!.signature.startsWith('function f(a0, a1')).toBe(true);
  });

  it('skips a blob without a grammar or over the size limit, and says why', async () => {
    await expect(extractSymbols('# Title', 'README.md', 'Markdown')).resolves.toMatchObject({ status: 'skipped', reason: 'no grammar', definitions: [], occurrences: [] });
    await expect(extractSymbols('x', 'x.bin', null)).resolves.toMatchObject({ status: 'skipped', reason: 'no grammar' });
    const big = 'x = 1\n'.repeat(100);
    await expect(extractSymbols(big, 'big.py', 'Python', { maxBytes: 100, timeoutMs: 1000 })).resolves.toMatchObject({ status: 'skipped', reason: 'too large (600 bytes, limit 100)' });
  });

  it('stops a parse that passes its time limit (clock injected)', async () => {
    let t = 0;
    // Every reading of the clock moves it a second: the first check after the start is late.
    const now = () => (t += 1000);
    const code = 'def f():\n    return 1\n'.repeat(2000);
    await expect(extractSymbols(code, 'slow.py', 'Python', { maxBytes: 1 << 20, timeoutMs: 1500, now })).resolves.toMatchObject({ status: 'failed', reason: expect.stringMatching(/^timeout/) });
  });

  it('parses a file full of syntax errors and still finds what it can', async () => {
    const code = 'def ok():\n    pass\n' + ')))(((;;;{{{'.repeat(200) + '\ndef after():\n    pass\n';
    const symbols = await extractSymbols(code, 'broken.py', 'Python');
    expect(symbols.status).toBe('parsed');
    expect(symbols.definitions.map((d) => d.name)).toContain('ok');
  });
});
