// The upgrade of Elasticsearch symbols from previous releases' layouts (one outline per blob; name
// documents, one per blob and definition name, without the name list) to this one, with no step
// by anyone: a reader answers the same before, during and after the migration, which parses
// nothing; a write starts it; and a collected blob takes its name documents with it.
import { Client } from '@elastic/elasticsearch';
import type { BlobSymbols, SymbolDefinition } from '@gitdex/contracts';
import { ElasticsearchIndexStore } from '@gitdex/elasticsearch';
import type { Snapshot } from '@gitdex/ports';
import { MAIN, makeFile, put } from '../conformance/index-store.fixtures';
import { engineEndpoints, uniqueName } from '../harness/engines';

jest.setTimeout(60_000);

const REPO = 41;
const FEATURE = 'refs/heads/feature';
const main: Snapshot = { repositoryId: REPO, ref: MAIN, generation: 1 };
const feature: Snapshot = { repositoryId: REPO, ref: FEATURE, generation: 1 };

const def = (name: string, kind: SymbolDefinition['kind'], line: number, container: string | null = null): SymbolDefinition => ({
  name,
  kind,
  line,
  endLine: line + 1,
  container,
  signature: `${kind} ${name}`,
});
const symbols = (definitions: SymbolDefinition[]): BlobSymbols => ({ extractor: 1, language: 'TypeScript', status: 'parsed', definitions, occurrences: [] });

const files = [
  makeFile({
    repositoryId: REPO,
    path: 'src/store.ts',
    content: 'class Store { get() {} }\n',
    symbols: symbols([def('Store', 'class', 1), def('get', 'method', 1, 'Store'), def('helper', 'function', 3)]),
  }),
  makeFile({
    repositoryId: REPO,
    path: 'src/other.ts',
    content: 'class Other { get() {} }\n',
    symbols: symbols([def('Other', 'class', 1), def('get', 'method', 2, 'Other'), def('get', 'method', 5, 'Other')]),
  }),
  makeFile({ repositoryId: REPO, path: 'src/util.ts', content: 'function helper() {}\n', symbols: symbols([def('helper', 'function', 1)]) }),
  makeFile({ repositoryId: REPO, path: 'src/empty.ts', content: '// nothing\n', symbols: symbols([]) }),
];
/** Only on the feature branch: collected when the branch is deleted. */
const onFeature = makeFile({ repositoryId: REPO, ref: FEATURE, path: 'src/feature.ts', content: 'function featureOnly() {}\n', symbols: symbols([def('featureOnly', 'function', 1)]) });

describe('the symbols layout upgrade on Elasticsearch', () => {
  const prefix = uniqueName('symlayout');
  const admin = new Client({ node: engineEndpoints().elasticsearchUrl });
  const blobs = `${prefix}-blobs`;
  const open = () => new ElasticsearchIndexStore({ node: engineEndpoints().elasticsearchUrl, indexPrefix: prefix });

  afterAll(async () => {
    await admin.indices.delete({ index: `${prefix}-*`, expand_wildcards: 'all', ignore_unavailable: true, allow_no_indices: true });
    await admin.indices.deleteIndexTemplate({ name: `${prefix}-*` }).catch(() => undefined);
    await admin.close();
  });

  const answers = async (store: ElasticsearchIndexStore) => ({
    helper: await store.findSymbols([main], { match: 'exact', name: 'helper', limit: 50 }),
    get: await store.findSymbols([main], { match: 'exact', name: 'get', limit: 50 }),
    otherGet: await store.findSymbols([main], { match: 'exact', name: 'get', container: 'Other', limit: 50 }),
    rankedGet: await store.rankedSymbols([main], { match: 'exact', name: 'get', files: 1 }),
    pattern: await store.findSymbols([main], { match: 'pattern', pattern: '*e*', limit: 50 }),
    outline: await store.fileSymbols(main, 'src/other.ts'),
    near: await store.symbolNamesLike([main], 'helpr', 10),
  });

  /** Documents of the blobs index matching the query, by id. */
  async function documents(query: object): Promise<Map<string, Record<string, unknown>>> {
    await admin.indices.refresh({ index: blobs });
    const found = await admin.search<Record<string, unknown>>({ index: blobs, size: 1000, query });
    return new Map(found.hits.hits.map((hit) => [hit._id as string, hit._source ?? {}]));
  }
  const nameDocuments = () => documents({ exists: { field: 'definedName' } });
  const symbolsDocuments = () => documents({ exists: { field: 'symbolExtractor' } });
  /** The name list's documents, as `repositoryId:name`. */
  async function listedNames(): Promise<string[]> {
    if (!(await admin.indices.exists({ index: `${prefix}-symbol-names` }))) return [];
    await admin.indices.refresh({ index: `${prefix}-symbol-names` });
    const found = await admin.search<{ repositoryId: number; name: string }>({ index: `${prefix}-symbol-names`, size: 1000 });
    return found.hits.hits.map((hit) => `${hit._source?.repositoryId}:${hit._source?.name}`).sort();
  }

  /** Turns the index into what the release before the name list wrote: no list, symbols documents not marked listed. */
  async function asUnlisted(): Promise<void> {
    await admin.indices.delete({ index: `${prefix}-symbol-names`, ignore_unavailable: true });
    const operations: object[] = [];
    for (const [id, { symbolNamesListed: _listed, ...source }] of await symbolsDocuments()) operations.push({ index: { _id: id } }, source);
    await admin.bulk({ index: blobs, refresh: true, operations });
  }

  /**
   * Turns the index into what the layout before name documents wrote: symbols documents without
   * their layout mark, unlisted; name documents of the first `keep` blobs left (as a migration
   * stopped between its two writes leaves them), the others deleted.
   */
  async function asPreviousLayout(keep: number): Promise<void> {
    await asUnlisted();
    const docs = await symbolsDocuments();
    const kept = new Set([...docs.values()].slice(0, keep).map((source) => source.blobSha));
    const names = await nameDocuments();
    const operations: object[] = [];
    for (const [id, source] of names) if (!kept.has(source.blobSha)) operations.push({ delete: { _id: id } });
    for (const [id, { symbolLayout: _mark, ...source }] of docs) operations.push({ index: { _id: id } }, source);
    await admin.bulk({ index: blobs, refresh: true, operations });
  }

  /** Each repository's names, listed once: Store, get, helper, Other and featureOnly. */
  const LISTED = ['41:Other', '41:Store', '41:featureOnly', '41:get', '41:helper'];

  it('answers the same from the previous layout, while migrating and after, parsing nothing; a write starts it', async () => {
    const writer = open();
    await writer.ensureReady();
    await writer.writeFiles([...files.map(put), put(onFeature)]);
    await writer.symbolMigration();
    await writer.refresh();
    const expected = await answers(writer);
    expect(expected.helper.map((hit) => hit.path)).toEqual(['src/store.ts', 'src/util.ts']);
    expect(expected.otherGet.map((hit) => hit.definition.line)).toEqual([2, 5]);
    expect(expected.pattern.map((hit) => `${hit.path}:${hit.definition.name}`)).toEqual([
      'src/other.ts:Other',
      'src/other.ts:get',
      'src/other.ts:get',
      'src/store.ts:Store',
      'src/store.ts:get',
      'src/store.ts:helper',
      'src/util.ts:helper',
    ]);
    // One document per (blob, name): Store, get, helper; Other, get; helper; featureOnly.
    expect((await nameDocuments()).size).toBe(7);
    expect(await listedNames()).toEqual(LISTED);
    expect(expected.near).toEqual(['helper']);

    await asPreviousLayout(1);
    expect(await listedNames()).toEqual([]);
    const reader = open();
    // Did you mean answers from the blobs index while the list is empty.
    expect(await answers(reader)).toEqual(expected);

    const run = await reader.migrateSymbols(async () => {
      expect(await answers(reader)).toEqual(expected);
    });
    expect(run).toEqual({ migrated: 5, passes: 2 });
    expect(await answers(reader)).toEqual(expected);
    expect((await nameDocuments()).size).toBe(7);
    expect([...(await symbolsDocuments()).values()].every((source) => source.symbolLayout === 2 && source.symbolNamesListed === true)).toBe(true);
    expect(await listedNames()).toEqual(LISTED);
    expect(await reader.migrateSymbols()).toEqual({ migrated: 0, passes: 1 });

    // A process that writes migrates in the background, with no call by anyone.
    await asPreviousLayout(0);
    const later = open();
    await later.writeFiles([put(files[0] as (typeof files)[number])]);
    expect(await later.symbolMigration()).toMatchObject({ migrated: 5 });
    expect(await answers(later)).toEqual(expected);
    await Promise.all([writer.close(), reader.close(), later.close()]);
  });

  it('lists the names of what the release before the name list wrote; did you mean answers from the blobs index until then', async () => {
    const writer = open();
    await writer.refresh();
    const expected = await answers(writer);
    await asUnlisted();
    const reader = open();
    expect(await answers(reader)).toEqual(expected);
    expect(await reader.symbolNamesLike([main], 'Othr', 5)).toEqual(['Other']);
    const run = await reader.migrateSymbols(async () => {
      expect(await answers(reader)).toEqual(expected);
    });
    expect(run).toEqual({ migrated: 5, passes: 2 });
    // Name documents were there: none created, none lost.
    expect((await nameDocuments()).size).toBe(7);
    expect(await listedNames()).toEqual(LISTED);
    const later = open();
    expect(await answers(later)).toEqual(expected);
    expect(await later.symbolNamesLike([main], 'Othr', 5)).toEqual(['Other']);
    await Promise.all([writer.close(), reader.close(), later.close()]);
  });

  it('a collected blob takes its name documents with it', async () => {
    const store = open();
    expect((await nameDocuments()).size).toBe(7);
    await store.deleteRef(REPO, FEATURE);
    const left = [...(await nameDocuments()).values()].map((source) => source.definedName);
    expect(left).toHaveLength(6);
    expect(left).not.toContain('featureOnly');
    expect(await store.findSymbols([feature], { match: 'exact', name: 'featureOnly', limit: 5 })).toEqual([]);
    // Its name stays listed (names go only with their repository), and is not offered: no visible file defines it.
    expect(await listedNames()).toContain('41:featureOnly');
    expect(await store.symbolNamesLike([main, feature], 'featureOnl', 5)).toEqual([]);
    await store.deleteRepository(REPO);
    expect(await listedNames()).toEqual([]);
    await store.close();
  });

  it('a name list made before it named blobs takes the field on the first write, and its names are still offered', async () => {
    const repositoryId = 43;
    const at: Snapshot = { repositoryId, ref: MAIN, generation: 1 };
    const list = `${prefix}-symbol-names`;
    const writer = open();
    await writer.writeFiles([put(makeFile({ repositoryId, path: 'src/old.ts', content: 'class Older {}\n', symbols: symbols([def('Older', 'class', 1)]) }))]);
    await writer.refresh();
    // The list as the build before this layout made it: no blobSha in its strict mapping or its documents.
    const listed = await admin.search<Record<string, unknown>>({ index: list, size: 1000 });
    const mapping = (await admin.indices.getMapping({ index: list }))[list]?.mappings ?? {};
    const { blobSha: _blob, ...properties } = mapping.properties ?? {};
    await admin.indices.delete({ index: list });
    await admin.indices.create({ index: list, mappings: { ...mapping, properties } });
    const operations = listed.hits.hits.flatMap((hit) => {
      const { blobSha: _sha, ...source } = hit._source ?? {};
      return [{ index: { _id: hit._id } }, source];
    });
    await admin.bulk({ index: list, refresh: true, operations });
    const upgraded = open();
    expect(await upgraded.symbolNamesLike([at], 'Oldr', 5)).toEqual(['Older']);
    await upgraded.writeFiles([put(makeFile({ repositoryId, path: 'src/new.ts', content: 'class Newer {}\n', symbols: symbols([def('Newer', 'class', 1)]) }))]);
    await upgraded.refresh();
    expect(await upgraded.symbolNamesLike([at], 'Newr', 5)).toEqual(['Newer']);
    expect(await upgraded.symbolNamesLike([at], 'Oldr', 5)).toEqual(['Older']);
    await upgraded.deleteRepository(repositoryId);
    await Promise.all([writer.close(), upgraded.close()]);
  });
});
