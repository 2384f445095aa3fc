// Elasticsearch shared with other teams (docs/deploy.md): readiness looks at gitdex's own indices
// only, so another team's red index leaves gitdex ready; and with GITDEX_MANAGE_TEMPLATES=false
// gitdex writes nothing, fails at start naming what is missing and the operator step, and starts
// once that step (deploy/elasticsearch/apply.sh) has run.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@elastic/elasticsearch';
import { loadEnv } from '@gitdex/contracts';
import { ElasticsearchIndexStore } from '@gitdex/elasticsearch';
import { engineEndpoints, uniqueName } from '../harness/engines';

const url = engineEndpoints().elasticsearchUrl;
const applyScript = join(__dirname, '../../deploy/elasticsearch/apply.sh');

describe('gitdex on a shared Elasticsearch', () => {
  const admin = new Client({ node: url });
  const prefixes: string[] = [];
  const prefix = (name: string): string => {
    const made = uniqueName(name);
    prefixes.push(made);
    return made;
  };

  afterAll(async () => {
    for (const made of prefixes) {
      await admin.indices.delete({ index: `${made}-*`, expand_wildcards: 'all', ignore_unavailable: true, allow_no_indices: true });
      await admin.indices.deleteIndexTemplate({ name: `${made}-*` }).catch(() => undefined);
    }
    await admin.close();
  });

  it("stays ready while another team's index is red, and is not ready while its own is", async () => {
    const store = new ElasticsearchIndexStore({ node: url, indexPrefix: prefix('shared') });
    const foreign = `${prefix('otherteam')}-logs`;
    try {
      await store.ensureReady();
      expect(await store.ping()).toBe(true);
      // A primary that can never be allocated: the index, and with it the whole cluster, is red.
      // Deleted at once: other suites share this cluster.
      await admin.indices.create({ index: foreign, settings: { number_of_shards: 1, number_of_replicas: 0, 'index.routing.allocation.require._name': 'nowhere' }, wait_for_active_shards: 0 });
      try {
        expect((await admin.cluster.health({ timeout: '1s' })).status).toBe('red');
        expect(await store.ping()).toBe(true);
      } finally {
        await admin.indices.delete({ index: foreign });
      }
      // Its own index unallocatable: not ready (a red index refuses writes).
      const [physical] = Object.keys(await admin.indices.getAlias({ name: `${prefixes[0]}-repos` }));
      await admin.indices.putSettings({ index: physical as string, settings: { 'index.routing.allocation.require._name': 'nowhere' } });
      await admin.indices.close({ index: physical as string, wait_for_active_shards: 0 });
      try {
        await admin.indices.open({ index: physical as string, wait_for_active_shards: 0 });
        expect(await store.ping()).toBe(false);
      } finally {
        await admin.indices.delete({ index: physical as string });
      }
    } finally {
      await store.close();
    }
  });

  it('with GITDEX_MANAGE_TEMPLATES=false writes nothing, names what is missing, and starts after the operator step', async () => {
    const shared = prefix('operated');
    const env = loadEnv({ ELASTICSEARCH_URL: url, ELASTICSEARCH_INDEX_PREFIX: shared, GITDEX_MANAGE_TEMPLATES: 'false' });
    expect(env.GITDEX_MANAGE_TEMPLATES).toBe(false);
    const store = new ElasticsearchIndexStore({ node: url, indexPrefix: shared, manageTemplates: env.GITDEX_MANAGE_TEMPLATES });
    try {
      const refused = store.ensureReady();
      await expect(refused).rejects.toMatchObject({ code: 'INVALID' });
      const message = await refused.catch((error: Error) => error.message);
      expect(message).toContain(`alias ${shared}-files`);
      expect(message).toContain(`alias ${shared}-repos`);
      expect(message).toContain('deploy/elasticsearch/apply.sh');
      expect(message).toContain('GITDEX_MANAGE_TEMPLATES');
      // Nothing was written: no index, no template.
      expect(await admin.indices.get({ index: `${shared}-*`, expand_wildcards: 'all' })).toEqual({});
      expect((await admin.indices.getIndexTemplate({ name: `${shared}-*` }, { ignore: [404] })).index_templates).toEqual([]);

      const applied = spawnSync('bash', [applyScript], { env: { ...process.env, ELASTICSEARCH_URL: url, PREFIX: shared }, encoding: 'utf8' });
      expect(applied.stderr).toBe('');
      expect(applied.status).toBe(0);
      await store.ensureReady();
      expect(await store.ping()).toBe(true);

      // An index the operator made without a field this build maps: named, field by field.
      const [physical] = Object.keys(await admin.indices.getAlias({ name: `${shared}-repos` }));
      await admin.indices.delete({ index: physical as string });
      await admin.indices.deleteIndexTemplate({ name: physical as string });
      await admin.indices.create({ index: physical as string, mappings: { properties: { kind: { type: 'keyword' } } }, aliases: { [`${shared}-repos`]: { is_write_index: true } } });
      await expect(store.ensureReady()).rejects.toThrow(`fields repositoryId, fullNameLower, ref, doc in the mapping of ${physical}`);
    } finally {
      await store.close();
    }
  });
});
