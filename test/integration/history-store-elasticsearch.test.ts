// The history port on Elasticsearch, with the same cases as SQLite (test/conformance/history-store.cases.ts).
import { Client } from '@elastic/elasticsearch';
import { ElasticsearchHistory } from '@gitdex/elasticsearch';
import { describeHistoryStoreConformance } from '../conformance/history-store.cases';
import { engineEndpoints, uniqueName } from '../harness/engines';

const client = new Client({ node: engineEndpoints().elasticsearchUrl });
const prefix = uniqueName('history').replace(/-/g, '');
afterAll(async () => {
  await client.indices.delete({ index: `${prefix}-*` }, { ignore: [404] });
  await client.close();
});

describeHistoryStoreConformance('Elasticsearch', async () => Object.assign(new ElasticsearchHistory(client, { indexPrefix: prefix }), { close: () => undefined }));
