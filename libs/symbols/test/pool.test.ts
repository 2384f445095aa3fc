// The worker pool a real caller (the indexer) uses: hostile blobs come back parsed, skipped or
// failed, never as a stalled or crashed caller, and the pool still parses the next blob.
import { BlobSymbolsSchema } from '@gitdex/contracts';
import { createSymbolExtractor, extractSymbols, type SymbolExtractor } from '../src';
import { HOSTILE } from './hostile';

const healthy = async (pool: SymbolExtractor) => {
  const symbols = await pool.extract('def alive():\n    return 1\n', 'alive.py', 'Python');
  expect(symbols).toMatchObject({ status: 'parsed', definitions: [expect.objectContaining({ name: 'alive', kind: 'function' })] });
};

describe('createSymbolExtractor', () => {
  let pool: SymbolExtractor;
  beforeAll(() => {
    pool = createSymbolExtractor({ threads: 2, maxBytes: 2 << 20, timeoutMs: 10_000 });
  });
  afterAll(() => pool.close());

  it.each(HOSTILE.map((h) => [h.name, h] as const))('survives %s and stays healthy', async (_, hostile) => {
    const symbols = await pool.extract(hostile.content(), hostile.path, hostile.language);
    expect(BlobSymbolsSchema.safeParse(symbols).success).toBe(true);
    expect(hostile.outcome).toContain(symbols.status);
    await healthy(pool);
  });

  it('parses many blobs at once, more than it has threads', async () => {
    const all = await Promise.all(Array.from({ length: 12 }, (_, i) => pool.extract(`export function f${i}() {}\n`, `f${i}.ts`, 'TypeScript')));
    expect(all.map((s) => s.definitions[0]?.name)).toEqual(Array.from({ length: 12 }, (_, i) => `f${i}`));
  });

  it('answers as extraction in the calling thread does, occurrences and their roles included (they cross packed)', async () => {
    const content = "import { readFile } from 'node:fs';\n\nexport function load(path: string) {\n  return readFile(path, 'utf8'); // é\n}\n";
    const direct = await extractSymbols(content, 'load.ts', 'TypeScript');
    expect(new Set(direct.occurrences.map((o) => o.role))).toEqual(new Set(['definition', 'reference', 'import']));
    expect(await pool.extract(content, 'load.ts', 'TypeScript')).toEqual(direct);
    expect(await pool.extract('x = 1\n', 'empty.txt', 'Text')).toEqual(await extractSymbols('x = 1\n', 'empty.txt', 'Text'));
  });

  it("walks for the occurrences asked: none (the indexer's), or one name's (find_references'), same definitions", async () => {
    const content = "import { readFile } from 'node:fs';\n\nexport function load(path: string) {\n  return readFile(path, 'utf8'); // readFile\n}\nconst readFiles = readFile;\n";
    const all = await extractSymbols(content, 'load.ts', 'TypeScript');
    const none = await pool.extract(content, 'load.ts', 'TypeScript', 'none');
    expect(none).toEqual({ ...all, occurrences: [] });
    const named = await pool.extract(content, 'load.ts', 'TypeScript', { name: 'readFile' });
    expect(named).toEqual({ ...all, occurrences: all.occurrences.filter((o) => o.name === 'readFile') });
    expect(named.occurrences.map((o) => [o.line, o.role])).toEqual([
      [1, 'import'],
      [4, 'reference'],
      [6, 'reference'],
    ]);
  });

  it('skips a blob over the size limit or without a grammar without sending it to a worker', async () => {
    const small = createSymbolExtractor({ threads: 1, maxBytes: 10 });
    try {
      await expect(small.extract('x = 12345678901', 'x.py', 'Python')).resolves.toMatchObject({ status: 'skipped', reason: 'too large (15 bytes, limit 10)' });
      await expect(small.extract('# Title', 'README.md', 'Markdown')).resolves.toMatchObject({ status: 'skipped', reason: 'no grammar' });
    } finally {
      await small.close();
    }
  });

  it('stops a worker past the hard time limit, replaces it, and parses the next blob', async () => {
    // A hard limit of 1 ms fires before any worker can answer; the one after has room.
    const strict = createSymbolExtractor({ threads: 1, hardTimeoutMs: 1 });
    try {
      const big = 'def f():\n    return [1, 2, 3]\n'.repeat(20_000);
      await expect(strict.extract(big, 'big.py', 'Python')).resolves.toMatchObject({ status: 'failed', reason: 'timeout (worker stopped after 1 ms)' });
      expect(strict.replaced()).toBe(1);
    } finally {
      await strict.close();
    }
    await healthy(pool);
  });

  it('refuses bad options and work after close, saying what to do', async () => {
    expect(() => createSymbolExtractor({ threads: 0 })).toThrow('createSymbolExtractor: threads must be a whole number of at least 1 (got 0)');
    const closed = createSymbolExtractor({ threads: 1 });
    await closed.close();
    await expect(closed.extract('x = 1', 'x.py', 'Python')).rejects.toThrow('the symbol extractor is closed');
  });
});
