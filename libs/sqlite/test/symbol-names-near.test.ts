/**
 * "Did you mean" candidates of the SQLite index (symbol-name-list.ts): from the list of distinct
 * names and its trigram index, offered only where a visible file of the snapshots defines them,
 * and built on open for a file written by the layout before the list.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { SymbolDefinition } from '@gitdex/contracts';
import { SqliteIndexStore } from '@gitdex/sqlite';
import { editDistance, nearNames } from '@gitdex/terms';
import { MAIN, makeFile, put, retire } from '../../../test/conformance/index-store.fixtures';

const dir = mkdtempSync(join(tmpdir(), 'gitdex-symbol-names-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const REPO = 5;
const at = (generation: number) => ({ repositoryId: REPO, ref: MAIN, generation });

const def = (name: string, line: number): SymbolDefinition => ({ name, kind: 'function', line, endLine: line, container: null, signature: `function ${name}()` });

/** One file per group of names, each a function on its own line. */
function file(path: string, names: string[], fromGeneration = 1) {
  return makeFile({
    repositoryId: REPO,
    path,
    content: names.map((name) => `function ${name}() {}\n`).join(''),
    fromGeneration,
    symbols: { extractor: 1, language: 'TypeScript', status: 'parsed', definitions: names.map((name, i) => def(name, i + 1)), occurrences: [] },
  });
}

const NAMES = ['flipGeneration', 'flipGenerations', 'IndexStore', 'indexStoreReads', 'writeBatch', 'Ab', 'abc', 'cab', 'parseDefinitions', 'Store', 'unrelatedThing'];
const RETIRED = file('src/old.ts', ['retiredHelper', 'flipGenerationOld']);

async function seeded(path: string): Promise<SqliteIndexStore> {
  const store = new SqliteIndexStore({ file: path });
  await store.writeFiles([put(file('src/a.ts', NAMES.slice(0, 6))), put(file('src/b.ts', NAMES.slice(6))), put(RETIRED)]);
  await store.writeFiles([retire(RETIRED, 2)]);
  return store;
}

const like = (store: SqliteIndexStore, name: string, generation = 2) => store.symbolNamesLike([at(generation)], name, 200);

describe('did-you-mean candidates of the SQLite index', () => {
  let store: SqliteIndexStore;
  beforeAll(async () => {
    store = await seeded(join(dir, 'near.sqlite'));
  });
  afterAll(() => store.close());

  it('offers the same name in another case first', async () => {
    expect((await like(store, 'indexstore'))[0]).toBe('IndexStore');
    expect((await like(store, 'FLIPGENERATION'))[0]).toBe('flipGeneration');
  });

  it.each([
    ['at the start', 'xlipGeneration'],
    ['in the middle', 'flipGenxration'],
    ['at the end', 'flipGeneratiom'],
    ['as two swapped letters', 'flipGenreation'],
    ['as a missing letter', 'parseDefintions'],
  ])('offers a name one typo away %s', async (_where, asked) => {
    expect(await like(store, asked)).toContain(asked.startsWith('parse') ? 'parseDefinitions' : 'flipGeneration');
  });

  it('offers names containing the asked one and names starting like it', async () => {
    expect(await like(store, 'store')).toEqual(expect.arrayContaining(['Store', 'IndexStore', 'indexStoreReads']));
    expect(await like(store, 'writeBa')).toContain('writeBatch');
    expect(await like(store, 'unrel')).toContain('unrelatedThing');
  });

  it('answers names shorter than three characters by case, prefix and containment', async () => {
    expect(await like(store, 'ab')).toEqual(expect.arrayContaining(['Ab', 'abc', 'cab']));
    expect(await like(store, 'a')).toEqual(expect.arrayContaining(['Ab', 'abc']));
  });

  it('never offers a name only a retired version defines, while the generation that saw it still does', async () => {
    expect(await like(store, 'retiredHelpr')).toEqual([]);
    expect(await like(store, 'flipGenerationOl')).not.toContain('flipGenerationOld');
    expect(await like(store, 'retiredHelpr', 1)).toEqual(['retiredHelper']);
    expect(await store.symbolNamesLike([{ repositoryId: REPO + 1, ref: MAIN, generation: 2 }], 'flipGeneration', 10)).toEqual([]);
  });

  it('keeps the limit and offers nothing for an empty name', async () => {
    expect(await store.symbolNamesLike([at(2)], 'flip', 1)).toHaveLength(1);
    expect(await like(store, '')).toEqual([]);
  });
});

describe('a file written before the list of names', () => {
  it('gains the list on open, built from the names it stores', async () => {
    const path = join(dir, 'layout-7.sqlite');
    await (await seeded(path)).close();
    // The layout before the list: the same tables without it, marked version 7.
    const db = new Database(path);
    db.exec(`DROP TABLE symbol_name_list; DROP TABLE symbol_name_grams;`);
    db.prepare(`UPDATE index_meta SET value = '7' WHERE key = 'schema_version'`).run();
    db.close();

    const reopened = new SqliteIndexStore({ file: path });
    try {
      expect(await like(reopened, 'flipGenxration')).toContain('flipGeneration');
      expect(await like(reopened, 'retiredHelpr', 1)).toEqual(['retiredHelper']);
      await reopened.writeFiles([put(file('src/c.ts', ['freshName'], 3))]);
      expect(await like(reopened, 'freshNam', 3)).toContain('freshName');
    } finally {
      await reopened.close();
    }
    const check = new Database(path, { readonly: true });
    expect(check.prepare(`SELECT value FROM index_meta WHERE key = 'schema_version'`).pluck().get()).toBe('8');
    check.close();
  });
});

describe('the ranking the index applies before checking visibility', () => {
  it('counts edits as the reader does: a swap of neighbours is one edit', () => {
    expect([
      editDistance('flipgeneration', 'flipgeneration'),
      editDistance('flipgenreation', 'flipgeneration'),
      editDistance('xlip', 'flip'),
      editDistance('', 'abc'),
      editDistance('ab', 'ba'),
    ]).toEqual([0, 1, 1, 3, 1]);
  });

  it('puts the same name in another case first, drops names the reader would not offer, and keeps names containing the asked one', () => {
    expect(nearNames('store', ['storeHelper', 'Stack', 'STORE', 'stare', 'unrelatedThing'])).toEqual(['STORE', 'stare', 'storeHelper']);
  });

  it('of names as near ignoring case, puts the one written in the asked case first', () => {
    expect(nearNames('cloone', ['Clone', 'CLONE', 'clone', 'close'])).toEqual(['clone', 'Clone', 'CLONE', 'close']);
    expect(nearNames('getTType', ['GetType', 'getType', 'get_type'])).toEqual(['getType', 'GetType', 'get_type']);
  });
});
