// The sign-in store's conformance cases on both engines: two SQLite connections on one file
// (two processes on one data folder) and two Elasticsearch store objects on one index (two
// reader replicas).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@elastic/elasticsearch';
import { ElasticsearchSignInStore } from '@gitdex/elasticsearch';
import { SqliteSignInStore } from '@gitdex/sqlite';
import { engineEndpoints, uniqueName } from '../harness/engines';
import { signInStoreCases } from '../conformance/sign-in-store.cases';

const dir = mkdtempSync(join(tmpdir(), 'gitdex-sign-in-'));
const sqlite: SqliteSignInStore[] = [];
afterAll(() => {
  for (const store of sqlite) store.close();
  rmSync(dir, { recursive: true, force: true });
});
signInStoreCases('SQLite', () => {
  sqlite.push(new SqliteSignInStore({ file: join(dir, 'sign-in.sqlite') }), new SqliteSignInStore({ file: join(dir, 'sign-in.sqlite') }));
  return sqlite;
});

const client = new Client({ node: engineEndpoints().elasticsearchUrl });
const prefix = uniqueName('signin').replace(/-/g, '');
afterAll(async () => {
  await client.indices.delete({ index: `${prefix}-sign-in` }, { ignore: [404] });
  await client.close();
});
signInStoreCases('Elasticsearch', () => [new ElasticsearchSignInStore(client, { indexPrefix: prefix }), new ElasticsearchSignInStore(client, { indexPrefix: prefix })]);
