// The upgrade from the previous release's layout (every entry holding its content inline, files
// index v7) to blobs, with no step by anyone: a reader answers the same throughout the move, a
// retirement written meanwhile is kept, and the index ends equal to a fresh one of the same writes.
import { Client } from '@elastic/elasticsearch';
import { fileDocumentId, type FileDocument } from '@gitdex/contracts';
import { ElasticsearchIndexStore, FILES_MAPPING_VERSION, filesMappings, indexSettings, withContentTrigrams } from '@gitdex/elasticsearch';
import type { ContentPlan, Snapshot } from '@gitdex/ports';
import { MAIN, makeFile, put, retire, retired } from '../conformance/index-store.fixtures';
import { engineEndpoints, uniqueName } from '../harness/engines';

jest.setTimeout(120_000);

const REPO = 31;
const RELEASE = 'refs/heads/release';
/** More entries than one page of the migration (1,000), so a read happens between two pages. */
const FILES = 1100;
const LAST = `src/m${FILES - 1}.ts`;

/** The files index's mapping as the previous release made it: the same fields, no blob marker. */
const previousMappings = { ...filesMappings, _meta: { gitdexMappingVersion: FILES_MAPPING_VERSION } };

function documents(): FileDocument[] {
  const main = Array.from({ length: FILES }, (_, i) => makeFile({ repositoryId: REPO, path: `src/m${i}.ts`, content: `export const m${i} = "${i % 7 === 0 ? 'needle' : 'hay'}";\n` }));
  const binary = makeFile({ repositoryId: REPO, path: 'assets/logo.png', content: null, flags: { binary: true, vendored: false, generated: false, tooLarge: false }, contentBase64: 'iVBORw0K' });
  // A second ref sharing most blobs, and a version retired at generation 2.
  const release = main.slice(0, 40).map((doc) => ({ ...doc, ref: RELEASE }));
  const old = makeFile({ repositoryId: REPO, path: 'src/changed.ts', content: 'export const v = 1; // needle\n' });
  const now = makeFile({ repositoryId: REPO, path: 'src/changed.ts', content: 'export const v = 2;\n', fromGeneration: 2 });
  return [...main, binary, ...release, retired(old, 2), now];
}

describe('the blob migration of an index the previous release wrote', () => {
  const legacy = uniqueName('blobmig');
  const fresh = uniqueName('blobfresh');
  const admin = new Client({ node: engineEndpoints().elasticsearchUrl });
  const open = (prefix: string, searchShaJoinLimit?: number) => new ElasticsearchIndexStore({ node: engineEndpoints().elasticsearchUrl, indexPrefix: prefix, searchShaJoinLimit });

  afterAll(async () => {
    for (const prefix of [legacy, fresh]) {
      await admin.indices.delete({ index: `${prefix}-*`, expand_wildcards: 'all', ignore_unavailable: true, allow_no_indices: true });
      await admin.indices.deleteIndexTemplate({ name: `${prefix}-*` }).catch(() => undefined);
    }
    await admin.close();
  });

  /** Every document of an index by id, as its _source. */
  async function sources(index: string): Promise<Map<string, unknown>> {
    await admin.indices.refresh({ index });
    const found = await admin.search({ index, size: 5000, query: { match_all: {} } });
    return new Map(found.hits.hits.map((hit) => [hit._id as string, hit._source]));
  }

  it('moves every entry to blobs while a reader answers the same, and ends equal to a fresh index', async () => {
    const docs = documents();
    // The previous release's index: v7 behind the alias, each document with its content and terms inline.
    await admin.indices.create({
      index: `${legacy}-files-v${FILES_MAPPING_VERSION}`,
      settings: indexSettings('files'),
      mappings: previousMappings,
      aliases: { [`${legacy}-files`]: { is_write_index: true } },
    });
    await admin.bulk({
      index: `${legacy}-files`,
      refresh: true,
      operations: docs.flatMap((doc) => [{ index: { _id: fileDocumentId(doc.repositoryId, doc.ref, doc.path, doc.fromGeneration) } }, withContentTrigrams(doc)]),
    });

    // The same writes on a fresh index, through the store: what the migrated index must equal.
    const reference = open(fresh);
    await reference.ensureReady();
    await reference.writeFiles(docs.map(put));
    await reference.refresh();

    const store = open(legacy);
    // Stores that search by walking the entries (no plan is selective enough for a sha join).
    const walkers = { [legacy]: open(legacy, 0), [fresh]: open(fresh, 0) };
    try {
      await store.ensureReady();
      expect(await store.blobMigrationStatus()).toEqual({ done: false, migrated: 0 });

      const at2: Snapshot = { repositoryId: REPO, ref: MAIN, generation: 2 };
      const plan: ContentPlan = { op: 'substring', text: 'needle' };
      const scope = { includeGenerated: false, afterPath: null, limit: 10_000 };
      const answers = async (target: ElasticsearchIndexStore, prefix: string) => {
        const candidates = await target.searchCandidates(at2, plan, scope);
        const walker = walkers[prefix] as ElasticsearchIndexStore;
        return {
          walked: (await walker.searchCandidates(at2, plan, scope)).map((candidate) => candidate.path),
          walkedPage: (await walker.searchCandidates(at2, plan, { ...scope, afterPath: 'src/m500.ts', limit: 3 })).map((candidate) => candidate.path),
          first: await target.getFile(at2, 'src/m0.ts'),
          last: await target.getFile(at2, LAST),
          binary: await target.getFile(at2, 'assets/logo.png'),
          retiredAt1: await target.getFile({ ...at2, generation: 1 }, 'src/changed.ts'),
          release: await target.getFile({ ...at2, ref: RELEASE, generation: 1 }, 'src/m7.ts'),
          candidates: candidates.map((candidate) => candidate.path),
          contents: await target.readContents(
            at2,
            candidates.map((candidate) => candidate.path),
          ),
          some: (await target.visibleFiles(at2, 'src/m1090.ts', 30, 1_000_000)).map((file) => [file.path, file.content]),
        };
      };
      const expected = await answers(reference, fresh);
      expect(expected.candidates).toHaveLength(Math.ceil(FILES / 7));
      expect(expected.walked).toEqual(expected.candidates);
      expect(expected.walkedPage).toEqual(['src/m504.ts', 'src/m511.ts', 'src/m518.ts']);
      // Retired at generation 3: the answers at generation 2 stay the same.
      const lateRetirement = retire(docs[FILES - 2] as FileDocument, 3);
      await reference.writeFiles([lateRetirement]);
      await reference.refresh();
      expect(await answers(store, legacy)).toEqual(expected);

      // A reader in a loop, and a check between the migration's pages (half the entries moved).
      let reading = true;
      let reads = 0;
      const reader = (async () => {
        while (reading) {
          expect(await answers(store, legacy)).toEqual(expected);
          reads += 1;
        }
      })();
      let between = 0;
      const run = await store.migrateBlobs(async (status) => {
        if (status.done) return;
        between += 1;
        expect(await answers(store, legacy)).toEqual(expected);
        // A retirement written while the migration runs: the last entry is not moved yet, and must keep it.
        if (between === 1) await store.writeFiles([lateRetirement]);
      });
      reading = false;
      await reader;
      // The write above started no second run: this process's one run is the explicit one, done.
      await store.blobMigration();
      expect(between).toBeGreaterThan(0);
      expect(reads).toBeGreaterThan(0);
      expect(run).toMatchObject({ done: true });
      expect(await store.blobMigrationStatus()).toEqual({ done: true, migrated: docs.length });
      expect(await store.migrateBlobs()).toMatchObject({ done: true, movedNow: 0, passes: 0 });

      await store.refresh();
      expect(await answers(store, legacy)).toEqual(expected);
      expect(await sources(`${legacy}-files`)).toEqual(await sources(`${fresh}-files`));
      expect(await sources(`${legacy}-blobs`)).toEqual(await sources(`${fresh}-blobs`));
      // Search answers from the blobs' terms alone now.
      expect((await store.searchCandidates({ ...at2, generation: 3 }, plan, scope)).map((candidate) => candidate.path)).toEqual(
        (await reference.searchCandidates({ ...at2, generation: 3 }, plan, scope)).map((candidate) => candidate.path),
      );
    } finally {
      await store.close();
      await reference.close();
      for (const walker of Object.values(walkers)) await walker.close();
    }
  });
});
