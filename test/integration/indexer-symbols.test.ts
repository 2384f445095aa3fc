/**
 * The indexer gives every parseable blob its symbols as it writes it (attachSymbols): findable
 * from the flip that shows the file, each blob parsed once whatever refs, commits and
 * repositories hold it. The extraction here is a stand-in that counts its calls (the real one
 * is @gitdex/symbols'); the index is SQLite, the source the GitHub stand-in.
 */
import { join } from 'node:path';
import type { BlobSymbols, RepositoryDocument } from '@gitdex/contracts';
import { GitHubSource } from '@gitdex/github';
import { DEFAULT_INDEX_REF_OPTIONS, indexRef, type SymbolParsing } from '@gitdex/indexer';
import type { SourceRepository } from '@gitdex/ports';
import { SqliteIndexStore } from '@gitdex/sqlite';
import { createSymbolExtractor, SUPPORTED_LANGUAGES, SYMBOL_EXTRACTOR_VERSION } from '@gitdex/symbols';
import { commitFiles, createRepo, makeTempRoot, removeTempRoot } from '../github-standin/fixture-repos';
import { createGitHubStandIn, type GitHubStandIn } from '../github-standin/server';
import { repositoryDocumentOf } from '../support/repository-document';

const MAIN = 'refs/heads/main';

/** Definitions of `function name(` lines, one occurrence each: enough to tell blobs apart. */
function standInExtract(calls: string[]) {
  return async (content: string, path: string, language: string | null): Promise<BlobSymbols> => {
    calls.push(path);
    const lines = content.split('\n');
    const definitions = lines.flatMap((line, i) => {
      const name = /function (\w+)\(/.exec(line)?.[1];
      return name ? [{ name, kind: 'function' as const, line: i + 1, endLine: i + 1, container: null, signature: line.trim().slice(0, 200) }] : [];
    });
    const occurrences = definitions.map((d) => ({ name: d.name, line: d.line, start: 9, end: 9 + d.name.length, role: 'definition' as const }));
    return { extractor: 1, language, status: 'parsed', definitions, occurrences };
  };
}

describe('indexing writes each blob with its symbols, parsed once', () => {
  let root: string;
  let standIn: GitHubStandIn;
  let index: SqliteIndexStore;
  let source: GitHubSource;
  const calls: string[] = [];
  let parsing: SymbolParsing;

  const register = async (name: string): Promise<SourceRepository> => {
    const repository = (await source.repositoryByName(name))!;
    const doc: RepositoryDocument = repositoryDocumentOf(repository);
    await index.putRepository(doc);
    return repository;
  };
  const indexHead = async (repository: SourceRepository) => {
    const head = (await source.head(repository, 'main'))!;
    return indexRef({ index, source, options: DEFAULT_INDEX_REF_OPTIONS, now: () => new Date(), symbols: parsing }, { repository, ref: MAIN, head });
  };
  const found = async (repositoryId: number, generation: number, name: string) =>
    (await index.findSymbols([{ repositoryId, ref: MAIN, generation }], { match: 'exact', name, limit: 10 })).map((hit) => `${hit.path}:${hit.definition.line}`);

  beforeAll(async () => {
    root = await makeTempRoot('gitdex-symbols-');
    standIn = await createGitHubStandIn({ root, rateLimit: { limit: 1_000_000 } });
    index = new SqliteIndexStore({ file: join(root, 'index.sqlite') });
    await index.ensureReady();
    source = new GitHubSource({ baseUrl: standIn.url });
    parsing = { extract: standInExtract(calls), version: 1, languages: ['TypeScript'], stored: index };
  });

  afterAll(async () => {
    await index?.close();
    await standIn?.close();
    if (root) await removeTempRoot(root);
  });

  it('parses each blob once, finds its symbols from the flip that shows it, and reuses them across pushes and repositories', async () => {
    const shared = 'export function sharedHelper() {}\n';
    const repo = await createRepo(root, 'acme', 'symbols', { 'src/a.ts': 'export function alpha() {}\n', 'src/copy.ts': shared, 'lib/copy.ts': shared, 'README.md': '# function notCode() {}\n' });
    const repository = await register('acme/symbols');

    const first = await indexHead(repository);
    expect(first).toMatchObject({ status: 'indexed', generation: 1, symbols: { parsed: 2, reused: 0, failed: 0, skipped: 0 } });
    // One parse per blob; the Markdown file is not sent to the extractor.
    expect(calls).toHaveLength(2);
    expect(calls).toEqual(expect.arrayContaining(['src/a.ts', expect.stringMatching(/copy\.ts$/)]));
    expect(await found(repository.id, 1, 'alpha')).toEqual(['src/a.ts:1']);
    expect(await found(repository.id, 1, 'sharedHelper')).toEqual(['lib/copy.ts:1', 'src/copy.ts:1']);
    expect(await found(repository.id, 1, 'notCode')).toEqual([]);

    calls.length = 0;
    await commitFiles(repo.dir, { 'src/a.ts': 'export function beta() {}\n', 'src/new.ts': shared }, 'beta');
    const second = await indexHead(repository);
    expect(second).toMatchObject({ status: 'indexed', generation: 2, symbols: { parsed: 1, reused: 1 } });
    expect(calls).toEqual(['src/a.ts']);
    expect(await found(repository.id, 1, 'alpha')).toEqual(['src/a.ts:1']);
    expect(await found(repository.id, 2, 'alpha')).toEqual([]);
    expect(await found(repository.id, 2, 'beta')).toEqual(['src/a.ts:1']);
    expect(await found(repository.id, 2, 'sharedHelper')).toEqual(['lib/copy.ts:1', 'src/copy.ts:1', 'src/new.ts:1']);

    // Another repository holding the same blobs: nothing is parsed again.
    calls.length = 0;
    await createRepo(root, 'acme', 'fork', { 'a.ts': 'export function beta() {}\n', 'b.ts': shared });
    const fork = await register('acme/fork');
    expect(await indexHead(fork)).toMatchObject({ symbols: { parsed: 0, reused: 2 } });
    expect(calls).toEqual([]);
    expect(await found(fork.id, 1, 'beta')).toEqual(['a.ts:1']);
  });

  it('with the real extractor: a pushed class and its method are found by name and container, and outlined', async () => {
    const extractor = createSymbolExtractor({ threads: 1 });
    try {
      await createRepo(root, 'acme', 'real', { 'src/store.ts': 'export class Store {\n  put(key: string): void {}\n}\n', 'tool.py': 'def main():\n    return Store()\n' });
      const repository = await register('acme/real');
      const head = (await source.head(repository, 'main'))!;
      // As services/gitdex wires it: definitions only; find_references parses when asked.
      const symbols: SymbolParsing = { extract: (c, p, l) => extractor.extract(c, p, l, 'none'), version: SYMBOL_EXTRACTOR_VERSION, languages: SUPPORTED_LANGUAGES, stored: index };
      const outcome = await indexRef({ index, source, options: DEFAULT_INDEX_REF_OPTIONS, now: () => new Date(), symbols }, { repository, ref: MAIN, head });
      expect(outcome).toMatchObject({ symbols: { parsed: 2, failed: 0 } });
      const snapshot = { repositoryId: repository.id, ref: MAIN, generation: 1 };
      const [put] = await index.findSymbols([snapshot], { match: 'exact', name: 'put', container: 'Store', limit: 5 });
      expect(put).toMatchObject({ path: 'src/store.ts', definition: { kind: 'method', line: 2, container: 'Store' } });
      expect((await index.fileSymbols(snapshot, 'src/store.ts'))?.symbols?.definitions.map((d) => d.name)).toEqual(['Store', 'put']);
    } finally {
      await extractor.close();
    }
  });
});
