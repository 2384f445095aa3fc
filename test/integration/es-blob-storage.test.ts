// Content stored once per repository and blob sha on Elasticsearch: refs sharing blobs store each
// once, and a blob goes when no entry of its repository names it any more (and not before).
import { Client } from '@elastic/elasticsearch';
import { ElasticsearchIndexStore } from '@gitdex/elasticsearch';
import { MAIN, makeFile, put, retire } from '../conformance/index-store.fixtures';
import { engineEndpoints, uniqueName } from '../harness/engines';

jest.setTimeout(60_000);

const FEATURE = 'refs/heads/feature';
const REPO = 21;

describe('Elasticsearch blobs', () => {
  const prefix = uniqueName('blobs');
  const admin = new Client({ node: engineEndpoints().elasticsearchUrl });
  const store = new ElasticsearchIndexStore({ node: engineEndpoints().elasticsearchUrl, indexPrefix: prefix });

  /** The blob shas the index holds for the repository. */
  async function storedShas(): Promise<string[]> {
    await admin.indices.refresh({ index: `${prefix}-blobs` });
    const found = await admin.search<{ blobSha: string }>({ index: `${prefix}-blobs`, size: 1000, query: { term: { repositoryId: REPO } }, _source: ['blobSha'] });
    return found.hits.hits.map((hit) => hit._source?.blobSha ?? '').sort();
  }

  beforeAll(() => store.ensureReady());
  afterAll(async () => {
    await store.close();
    await admin.indices.delete({ index: `${prefix}-*`, expand_wildcards: 'all', ignore_unavailable: true, allow_no_indices: true });
    await admin.indices.deleteIndexTemplate({ name: `${prefix}-*` }).catch(() => undefined);
    await admin.close();
  });

  it('stores a blob two refs share once, and collects a blob only when no entry names it', async () => {
    const mainFiles = Array.from({ length: 12 }, (_, i) => makeFile({ repositoryId: REPO, path: `src/f${i}.ts`, content: `export const f${i} = ${i};\n` }));
    // The feature branch shares every file but one, and adds the main's f0 content under another path.
    const featureFiles = [
      ...mainFiles.slice(1).map((doc) => ({ ...doc, ref: FEATURE })),
      makeFile({ repositoryId: REPO, ref: FEATURE, path: 'src/f0.ts', content: 'export const f0 = "feature";\n' }),
      { ...(mainFiles[0] as (typeof mainFiles)[number]), ref: FEATURE, path: 'copy/f0.ts' },
    ];
    await store.writeFiles(mainFiles.map(put));
    await store.writeFiles(featureFiles.map(put));
    await store.refresh();
    const featureOnly = featureFiles[11]?.blobSha ?? '';
    const shas = (docs: { blobSha: string }[]) => [...new Set(docs.map((doc) => doc.blobSha))].sort();
    expect(await storedShas()).toEqual(shas([...mainFiles, ...featureFiles]));
    expect(await storedShas()).toHaveLength(13);
    // Written once: a blob the index had was not written again by the second ref.
    expect((await admin.get({ index: `${prefix}-blobs`, id: `${REPO}:${mainFiles[5]?.blobSha ?? ''}` }))._version).toBe(1);
    const read = await store.getFile({ repositoryId: REPO, ref: FEATURE, generation: 1 }, 'copy/f0.ts');
    expect(read).toEqual({ ...featureFiles[12], fromGeneration: 1 });

    // Main replaces f1 at generation 2 and prunes generation 1's version: f1's old blob is still the
    // feature's, so it stays; then the feature goes, and with it the blobs only it named.
    const next = makeFile({ repositoryId: REPO, path: 'src/f1.ts', content: 'export const f1 = "two";\n', fromGeneration: 2 });
    await store.writeFiles([retire(mainFiles[1]!, 2), put(next)]);
    await store.pruneRetired(REPO, MAIN, 2);
    expect(await storedShas()).toEqual(shas([...mainFiles, ...featureFiles, next]));
    await store.deleteRef(REPO, FEATURE);
    const mainNow = [...mainFiles.filter((doc) => doc.path !== 'src/f1.ts'), next];
    expect(await storedShas()).toEqual(shas(mainNow));
    expect(await storedShas()).not.toContain(featureOnly);

    // A generation taken back takes its new blobs with it; the others stay readable.
    const third = makeFile({ repositoryId: REPO, path: 'src/new.ts', content: 'export const added = 3;\n', fromGeneration: 3 });
    await store.writeFiles([put(third)]);
    await store.discardAfter({ repositoryId: REPO, ref: MAIN, generation: 2 });
    expect(await storedShas()).toEqual(shas(mainNow));
    await store.refresh();
    expect((await store.getFile({ repositoryId: REPO, ref: MAIN, generation: 2 }, 'src/f1.ts'))?.content).toBe('export const f1 = "two";\n');
    const contents = await store.readContents({ repositoryId: REPO, ref: MAIN, generation: 2 }, ['src/f0.ts', 'src/f5.ts']);
    expect(contents).toEqual([
      { path: 'src/f0.ts', content: 'export const f0 = 0;\n' },
      { path: 'src/f5.ts', content: 'export const f5 = 5;\n' },
    ]);

    await store.deleteRepository(REPO);
    expect(await storedShas()).toEqual([]);
  });
});
