/**
 * The indexer parses a batch's blobs before the batch is written, and the rule holds: a symbol is
 * findable exactly from the flip that makes its content readable. While one blob's parse is held,
 * the ref keeps serving the previous commit; at the flip both the new content and its symbols
 * are there. A parse that fails or is bounded keeps the content and is counted. GITDEX_SYMBOLS=false
 * writes the content alone and parses nothing. SQLite index, GitHub stand-in source, a full index
 * from the tarball.
 */
import { join } from 'node:path';
import { loadEnv, type BlobSymbols, type RefState } from '@gitdex/contracts';
import { GitHubSource } from '@gitdex/github';
import { DEFAULT_INDEX_REF_OPTIONS, indexRef, type SymbolParsing } from '@gitdex/indexer';
import type { SourceRepository } from '@gitdex/ports';
import { SqliteIndexStore } from '@gitdex/sqlite';
import { createSymbolExtractor, SUPPORTED_LANGUAGES, SYMBOL_EXTRACTOR_VERSION } from '@gitdex/symbols';
import { commitFiles, createRepo, makeTempRoot, removeTempRoot } from '../github-standin/fixture-repos';
import { createGitHubStandIn, type GitHubStandIn } from '../github-standin/server';
import { repositoryDocumentOf } from '../support/repository-document';
import { symbolParsingOf } from '../../services/gitdex/src/symbol-parsing';

const MAIN = 'refs/heads/main';

const definitionsOf = (content: string, language: string | null): BlobSymbols => ({
  extractor: 1,
  language,
  status: 'parsed',
  definitions: content.split('\n').flatMap((line, i) => {
    const name = /function (\w+)\(/.exec(line)?.[1];
    return name ? [{ name, kind: 'function' as const, line: i + 1, endLine: i + 1, container: null, signature: line.trim() }] : [];
  }),
  occurrences: [],
});

describe('symbols written with their batch flip together with their content', () => {
  let root: string;
  let standIn: GitHubStandIn;
  let index: SqliteIndexStore;
  let source: GitHubSource;

  const register = async (name: string): Promise<SourceRepository> => {
    const repository = (await source.repositoryByName(name))!;
    await index.putRepository(repositoryDocumentOf(repository));
    return repository;
  };
  const found = async (repositoryId: number, generation: number, name: string) =>
    (await index.findSymbols([{ repositoryId, ref: MAIN, generation }], { match: 'exact', name, limit: 10 })).map((hit) => hit.path);

  beforeAll(async () => {
    root = await makeTempRoot('gitdex-symbols-flip-');
    standIn = await createGitHubStandIn({ root, rateLimit: { limit: 1_000_000 } });
    index = new SqliteIndexStore({ file: join(root, 'index.sqlite') });
    await index.ensureReady();
    source = new GitHubSource({ baseUrl: standIn.url });
  });

  afterAll(async () => {
    await index?.close();
    await standIn?.close();
    if (root) await removeTempRoot(root);
  });

  it('serves the previous commit while a parse is held, and flips content and symbols together', async () => {
    const files = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`src/f${i}.ts`, `export function f${i}() {}\n`]));
    const repo = await createRepo(root, 'acme', 'flip', { ...files, 'src/slow.ts': 'export function alpha() {}\n' });
    const repository = await register('acme/flip');
    const held: Array<() => void> = [];
    let holdSlow = false;
    const parsing: SymbolParsing = {
      extract: async (content, path, language) => {
        if (holdSlow && path === 'src/slow.ts') await new Promise<void>((resolve) => held.push(resolve));
        return definitionsOf(content, language);
      },
      version: 1,
      languages: ['TypeScript'],
      stored: index,
    };
    const flips: Array<{ state: RefState; slowContent: string | null | undefined; betaAt: string[] }> = [];
    const watched = Object.create(index) as SqliteIndexStore;
    const written: string[][] = [];
    watched.writeFiles = async (writes) => {
      written.push(writes.map((w) => (w.type === 'put' ? w.document.path : w.path)));
      return index.writeFiles(writes);
    };
    // At the moment the ref flips, what a reader of the new generation would see.
    watched.putRefState = async (state) => {
      if (state.status === 'ready') {
        const snapshot = { repositoryId: repository.id, ref: MAIN, generation: state.generation };
        flips.push({ state, slowContent: (await index.getFile(snapshot, 'src/slow.ts'))?.content, betaAt: await found(repository.id, state.generation, 'beta') });
      }
      return index.putRefState(state);
    };
    const indexHead = async (options = DEFAULT_INDEX_REF_OPTIONS) =>
      indexRef({ index: watched, source, options, now: () => new Date(), symbols: parsing }, { repository, ref: MAIN, head: (await source.head(repository, 'main'))! });

    expect(await indexHead()).toMatchObject({ status: 'indexed', strategy: 'tarball', generation: 1, symbols: { parsed: 41 } });
    expect(await found(repository.id, 1, 'alpha')).toEqual(['src/slow.ts']);

    const changed = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`src/f${i}.ts`, `export function g${i}() {}\n`]));
    await commitFiles(repo.dir, { ...changed, 'src/slow.ts': 'export function beta() {}\n' }, 'beta');
    holdSlow = true;
    written.length = 0;
    // Full index again (no incremental diff), in batches of 8: the held blob's batch waits for its parse while the others are written.
    const running = indexHead({ ...DEFAULT_INDEX_REF_OPTIONS, maxIncrementalChanges: 0, bulk: { maxWrites: 8, maxBytes: 1 << 30 } });
    // Batches before the held blob's are written meanwhile (41 puts and 41 retires in batches of 8; src/slow.ts's put is in the last).
    while (held.length === 0 || written.length < 5) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(written.flat()).not.toContain('src/slow.ts');
    const served = (await index.getRefState(repository.id, MAIN))!;
    expect(served.generation).toBe(1);
    expect((await index.getFile({ repositoryId: repository.id, ref: MAIN, generation: 1 }, 'src/slow.ts'))?.content).toContain('alpha');
    expect(await found(repository.id, 1, 'beta')).toEqual([]);
    held.shift()!();
    expect(await running).toMatchObject({ status: 'indexed', generation: 2, symbols: { parsed: 41, reused: 0 } });
    const flip = flips.at(-1)!;
    expect(flip.state.generation).toBe(2);
    expect(flip.slowContent).toContain('beta');
    expect(flip.betaAt).toEqual(['src/slow.ts']);
    expect(await found(repository.id, 2, 'alpha')).toEqual([]);
  });

  it('a file parsing fails on or that is too large for the extractor keeps its content and is counted', async () => {
    const extractor = createSymbolExtractor({ threads: 1, maxBytes: 200 });
    try {
      const big = `export function big() {}\n${'// padding line for the size bound\n'.repeat(10)}`;
      await createRepo(root, 'acme', 'bounded', { 'src/ok.ts': 'export function ok() {}\n', 'src/big.ts': big, 'src/broken.ts': 'export function broken() {}\n' });
      const repository = await register('acme/bounded');
      const symbols: SymbolParsing = {
        // The real pool; broken.ts stands for a parse the worker gives up on.
        extract: async (content, path, language) =>
          path === 'src/broken.ts'
            ? { extractor: SYMBOL_EXTRACTOR_VERSION, language, status: 'failed', reason: 'worker died: stand-in', definitions: [], occurrences: [] }
            : extractor.extract(content, path, language, 'none'),
        version: SYMBOL_EXTRACTOR_VERSION,
        languages: SUPPORTED_LANGUAGES,
        stored: index,
      };
      const outcome = await indexRef({ index, source, options: DEFAULT_INDEX_REF_OPTIONS, now: () => new Date(), symbols }, { repository, ref: MAIN, head: (await source.head(repository, 'main'))! });
      expect(outcome).toMatchObject({ status: 'indexed', fileCount: 3, symbols: { parsed: 1, skipped: 1, failed: 1, reused: 0 } });
      const snapshot = { repositoryId: repository.id, ref: MAIN, generation: 1 };
      expect((await index.getFile(snapshot, 'src/big.ts'))?.content).toBe(big);
      expect((await index.getFile(snapshot, 'src/broken.ts'))?.content).toContain('broken');
      expect((await index.fileSymbols(snapshot, 'src/big.ts'))?.symbols).toMatchObject({ status: 'skipped', reason: expect.stringContaining('too large') });
      expect((await index.fileSymbols(snapshot, 'src/broken.ts'))?.symbols).toMatchObject({ status: 'failed' });
      expect(await found(repository.id, 1, 'ok')).toEqual(['src/ok.ts']);
    } finally {
      await extractor.close();
    }
  });
  it('GITDEX_SYMBOLS=false writes the content with no symbols and parses nothing', async () => {
    await createRepo(root, 'acme', 'plain', { 'src/a.ts': 'export function plain() {}\n' });
    const repository = await register('acme/plain');
    const asked: string[] = [];
    const watched = Object.create(index) as SqliteIndexStore;
    watched.storedSymbols = async (blobs, version) => {
      asked.push(...blobs.map((blob) => blob.blobSha));
      return index.storedSymbols(blobs, version);
    };
    // As services/gitdex wires the indexer: off, no pool and no parsing are handed to it.
    const symbols = symbolParsingOf(loadEnv({ GITDEX_SYMBOLS: 'false' }), watched);
    expect(symbols).toBeUndefined();
    const outcome = await indexRef(
      { index: watched, source, options: DEFAULT_INDEX_REF_OPTIONS, now: () => new Date(), ...(symbols ? { symbols: symbols.parsing } : {}) },
      { repository, ref: MAIN, head: (await source.head(repository, 'main'))! },
    );
    expect(outcome).toMatchObject({ status: 'indexed', fileCount: 1 });
    expect(outcome).not.toHaveProperty('symbols');
    const snapshot = { repositoryId: repository.id, ref: MAIN, generation: 1 };
    expect((await index.getFile(snapshot, 'src/a.ts'))?.content).toContain('plain');
    expect((await index.fileSymbols(snapshot, 'src/a.ts'))?.symbols).toBeNull();
    expect(await found(repository.id, 1, 'plain')).toEqual([]);
    expect(asked).toEqual([]);
  });
});
