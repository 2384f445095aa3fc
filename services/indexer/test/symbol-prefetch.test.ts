import type { BlobSymbols, FileDocument } from '@gitdex/contracts';
import type { FileWrite, IndexWrites, StoredSymbols } from '@gitdex/ports';
import type { SymbolParsing } from '../src/attach-symbols';
import { SymbolPrefetch } from '../src/symbol-prefetch';
import { WriteBuffer } from '../src/write-buffer';

function put(path: string, blobSha = `sha-${path}`, language: string | null = 'TypeScript'): FileWrite & { type: 'put' } {
  const document = { kind: 'file', path, blobSha, language, content: `// ${path}\n`, flags: { binary: false } } as unknown as FileDocument;
  return { type: 'put', document };
}

const parsed = (path: string): BlobSymbols => ({
  extractor: 1,
  language: 'TypeScript',
  status: 'parsed',
  definitions: [{ name: path, kind: 'function', line: 1, endLine: 1, container: null, signature: path }],
  occurrences: [],
});

/** Parses that finish only when the test lets them; each call is recorded. */
function heldParsing(stored: Map<string, BlobSymbols> = new Map(), lookup?: () => Promise<void>) {
  const calls: string[] = [];
  const held = new Map<string, (symbols: BlobSymbols) => void>();
  const lookups: number[] = [];
  const index: StoredSymbols = {
    storedSymbols: async (blobs) => {
      lookups.push(blobs.length);
      await lookup?.();
      return new Map(blobs.flatMap((b) => (stored.has(b.blobSha) ? [[b.blobSha, stored.get(b.blobSha)!] as const] : [])));
    },
  };
  const parsing: SymbolParsing = {
    extract: (_content, path) => {
      calls.push(path);
      return new Promise((resolve) => held.set(path, resolve));
    },
    version: 1,
    languages: ['TypeScript'],
    stored: index,
  };
  return { parsing, calls, held, lookups, finish: (path: string, symbols = parsed(path)) => held.get(path)!(symbols) };
}

function recordingIndex() {
  const written: FileWrite[][] = [];
  const index: Pick<IndexWrites, 'writeFiles'> = {
    writeFiles: async (writes) => {
      written.push(writes.map((w) => ({ ...w, ...(w.type === 'put' ? { document: { ...w.document } } : {}) })));
    },
  };
  return { index, written };
}

const turns = async (n = 5) => {
  for (let i = 0; i < n; i += 1) await new Promise((resolve) => setImmediate(resolve));
};

describe('SymbolPrefetch in the WriteBuffer', () => {
  it('parses a blob before its batch is full, and writes no batch before all its symbols are attached', async () => {
    const { parsing, calls, finish, lookups } = heldParsing();
    const prefetch = new SymbolPrefetch(parsing, 2);
    const { index, written } = recordingIndex();
    const buffer = new WriteBuffer(index, { maxWrites: 4, maxBytes: 1 << 30, accept: (w) => prefetch.add(w), prepare: (ws) => prefetch.attach(ws) });
    await buffer.add(put('a.ts'));
    await buffer.add(put('b.ts'));
    await turns();
    // The batch holds 4 writes; after 2 the pool already parses them.
    expect(calls).toEqual(['a.ts', 'b.ts']);
    await buffer.add(put('c.ts'));
    await buffer.add(put('README.md', 'sha-readme', 'Markdown'));
    await turns();
    // The batch is full and sent: its last parseable file is looked up and parsing, but nothing is written until every parse ends.
    expect(calls).toEqual(['a.ts', 'b.ts', 'c.ts']);
    finish('a.ts');
    finish('c.ts');
    await turns();
    expect(written).toEqual([]);
    finish('b.ts');
    await buffer.flush();
    expect(written).toHaveLength(1);
    const symbolsOf = (w: FileWrite) => (w.type === 'put' ? w.document.symbols?.definitions.map((d) => d.name) : null);
    expect(written[0]!.map(symbolsOf)).toEqual([['a.ts'], ['b.ts'], ['c.ts'], undefined]);
    expect(prefetch.counts).toEqual({ parsed: 3, failed: 0, skipped: 0, reused: 0 });
    // One lookup for the first chunk (2), and one for the batch's remainder when it was sent.
    expect(lookups).toEqual([2, 1]);
  });

  it('keeps a failed or skipped parse with its content and counts it; reuses stored symbols; parses a blob held twice once', async () => {
    const stored = new Map([['sha-kept', parsed('kept.ts')]]);
    const { parsing, calls, finish } = heldParsing(stored);
    const prefetch = new SymbolPrefetch(parsing, 32);
    const { index, written } = recordingIndex();
    const buffer = new WriteBuffer(index, { maxWrites: 500, maxBytes: 1 << 30, accept: (w) => prefetch.add(w), prepare: (ws) => prefetch.attach(ws) });
    for (const write of [put('bad.ts'), put('huge.ts'), put('kept.ts', 'sha-kept'), put('one.ts', 'sha-same'), put('two.ts', 'sha-same')]) await buffer.add(write);
    const flushed = buffer.flush();
    await turns();
    expect(calls).toEqual(['bad.ts', 'huge.ts', 'one.ts']);
    finish('bad.ts', { extractor: 1, language: 'TypeScript', status: 'failed', reason: 'timeout (over 5000 ms)', definitions: [], occurrences: [] });
    finish('huge.ts', { extractor: 1, language: 'TypeScript', status: 'skipped', reason: 'too large', definitions: [], occurrences: [] });
    finish('one.ts');
    await flushed;
    const docs = written.flat().map((w) => (w.type === 'put' ? w.document : null));
    expect(docs.map((d) => [d?.path, d?.content, d?.symbols?.status])).toEqual([
      ['bad.ts', '// bad.ts\n', 'failed'],
      ['huge.ts', '// huge.ts\n', 'skipped'],
      ['kept.ts', '// kept.ts\n', 'parsed'],
      ['one.ts', '// one.ts\n', 'parsed'],
      ['two.ts', '// two.ts\n', 'parsed'],
    ]);
    expect(docs[4]?.symbols?.definitions[0]?.name).toBe('one.ts');
    expect(prefetch.counts).toEqual({ parsed: 1, failed: 1, skipped: 1, reused: 1 });
  });

  it('looks blobs up in chunks that double up to the most', async () => {
    const { parsing, lookups, held } = heldParsing();
    const prefetch = new SymbolPrefetch(parsing, 2, 8);
    for (let i = 0; i < 40; i += 1) prefetch.add(put(`f${i}.ts`));
    await turns();
    expect(lookups).toEqual([2, 4, 8, 8, 8, 8]);
    expect(held.size).toBe(38);
  });

  it('a failed lookup fails the batch and writes nothing of it', async () => {
    const { parsing, calls } = heldParsing(new Map(), async () => {
      throw new Error('index unavailable');
    });
    const prefetch = new SymbolPrefetch(parsing, 32);
    const { index, written } = recordingIndex();
    const buffer = new WriteBuffer(index, { maxWrites: 500, maxBytes: 1 << 30, accept: (w) => prefetch.add(w), prepare: (ws) => prefetch.attach(ws) });
    await buffer.add(put('a.ts'));
    await expect(buffer.flush()).rejects.toThrow('index unavailable');
    expect(calls).toEqual([]);
    expect(written).toEqual([]);
  });
});
