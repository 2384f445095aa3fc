// "Did you mean" on Elasticsearch reads its candidates from the list of each repository's names
// ranked by the trigrams they share with the asked name (symbol-name-candidates.ts): a name a
// letter away is found among many longer names holding the same piece, and a short name with a
// letter doubled, which shares no trigram with it, by edits.
import { Client } from '@elastic/elasticsearch';
import type { BlobSymbols, SymbolDefinition } from '@gitdex/contracts';
import { ElasticsearchIndexStore } from '@gitdex/elasticsearch';
import type { Snapshot } from '@gitdex/ports';
import { MAIN, makeFile, put } from '../conformance/index-store.fixtures';
import { engineEndpoints, uniqueName } from '../harness/engines';

jest.setTimeout(60_000);

const REPO = 7;
const main: Snapshot = { repositoryId: REPO, ref: MAIN, generation: 1 };
const definition = (name: string, line: number): SymbolDefinition => ({ name, kind: 'function', line, endLine: line, container: null, signature: `function ${name}()` });
const symbols = (names: string[]): BlobSymbols => ({ extractor: 1, language: 'TypeScript', status: 'parsed', definitions: names.map((name, i) => definition(name, i + 1)), occurrences: [] });

describe('did you mean on Elasticsearch, from the name list', () => {
  const prefix = uniqueName('nearnames');
  const admin = new Client({ node: engineEndpoints().elasticsearchUrl });
  const store = new ElasticsearchIndexStore({ node: engineEndpoints().elasticsearchUrl, indexPrefix: prefix });

  beforeAll(async () => {
    await store.ensureReady();
    // 120 names of the asked name's length holding `load` or `erator`, each nearer by length than
    // `loadIterator`: taken by the nearest lengths, they would fill each of its pieces' 50 candidates.
    const crowd = Array.from({ length: 60 }, (_, i) => [`load${String(i).padStart(2, '0')}xxxxxxx`, `x${String(i).padStart(2, '0')}xxxxerator`]).flat();
    const names = ['loadIterator', 'Bus', 'Pick', 'Tick', 'picker', ...crowd];
    await store.writeFiles(names.map((name, i) => put(makeFile({ repositoryId: REPO, path: `src/f${i}.ts`, content: `export function ${name}() {}\n`, symbols: symbols([name]) }))));
    await store.refresh();
  });

  afterAll(async () => {
    await store.close();
    await admin.indices.delete({ index: `${prefix}-*`, expand_wildcards: 'all', ignore_unavailable: true, allow_no_indices: true });
    await admin.indices.deleteIndexTemplate({ name: `${prefix}-*` }).catch(() => undefined);
    await admin.close();
  });

  it('finds a name a letter away among many names of nearer length sharing one of its pieces', async () => {
    expect((await store.symbolNamesLike([main], 'loadItterator', 5))[0]).toBe('loadIterator');
  });

  it('finds a short name with a letter doubled, which shares no trigram with it', async () => {
    expect((await store.symbolNamesLike([main], 'buus', 5))[0]).toBe('Bus');
    expect(await store.symbolNamesLike([main], 'Piick', 2)).toEqual(['Pick', 'Tick']);
  });
});
