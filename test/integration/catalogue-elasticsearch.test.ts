// The reader's catalogue of a snapshot (listings and suggestion candidates from memory) held to
// the answers of a real Elasticsearch, on a real tree: what the reader answers from memory must
// be what the index would have answered.
import { Client } from '@elastic/elasticsearch';
import { ElasticsearchIndexStore } from '@gitdex/elasticsearch';
import { AWKWARD_PATHS, expectCatalogueMatchesIndex } from '../../services/reader/test/support/catalogue-equivalence';
import { seedRepository } from '../../services/reader/test/support/documents';
import { loadPaths } from '../../services/reader/test/support/suggest-cases';

jest.setTimeout(180_000);

const url = process.env.ELASTICSEARCH_URL as string;
const prefix = `cat${Date.now().toString(36)}`;

describe('the catalogue of a snapshot answers as Elasticsearch does', () => {
  const store = new ElasticsearchIndexStore({ node: url, indexPrefix: prefix });
  afterAll(async () => {
    await store.close();
    const admin = new Client({ node: url });
    await admin.indices.delete({ index: `${prefix}-*`, expand_wildcards: 'all', ignore_unavailable: true, allow_no_indices: true });
    await admin.indices.deleteIndexTemplate({ name: `${prefix}-*` }).catch(() => undefined);
    await admin.close();
  });

  test('pino: suggestion candidates, folders and file pages', async () => {
    await store.ensureReady();
    const paths = loadPaths('pino').concat(AWKWARD_PATHS);
    await seedRepository(store, { id: 9, fullName: 'o/pino', files: Object.fromEntries(paths.map((p) => [p, `${p}\n`])) });
    await store.refresh();
    await expectCatalogueMatchesIndex(store, { repositoryId: 9, ref: 'refs/heads/main', generation: 1 }, paths);
  });
});
