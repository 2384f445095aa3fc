// The upgrade step UPGRADING.md gives an operator: a new build meets an index of an older mapping
// version, refuses to serve it, and `gitdex reindex` brings it to this version with its documents.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@elastic/elasticsearch';
import { ElasticsearchIndexStore, FILES_MAPPING_VERSION, filesMappings } from '@gitdex/elasticsearch';
import { MAIN, makeFile } from '../conformance/index-store.fixtures';
import { engineEndpoints, uniqueName } from '../harness/engines';
import { runCliProcess } from '../support/cli-process';

describe('gitdex reindex on an index of an older mapping version', () => {
  const prefix = uniqueName('upgrade');
  const admin = new Client({ node: engineEndpoints().elasticsearchUrl });
  const dataDir = mkdtempSync(join(tmpdir(), 'gitdex-upgrade-'));

  afterAll(async () => {
    await admin.indices.delete({ index: `${prefix}-*`, expand_wildcards: 'all', ignore_unavailable: true, allow_no_indices: true });
    await admin.indices.deleteIndexTemplate({ name: `${prefix}-*` }).catch(() => undefined);
    await admin.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is refused by the new build with the command to run, and upgraded by that command', async () => {
    const older = `${prefix}-files-v${FILES_MAPPING_VERSION - 1}`;
    await admin.indices.create({ index: older, mappings: filesMappings, aliases: { [`${prefix}-files`]: { is_write_index: true } } });
    const docs = Array.from({ length: 30 }, (_, i) => makeFile({ repositoryId: 7, path: `src/f${i}.ts` }));
    await admin.bulk({ index: `${prefix}-files`, refresh: true, operations: docs.flatMap((doc) => [{ index: {} }, doc]) });

    const store = new ElasticsearchIndexStore({ node: engineEndpoints().elasticsearchUrl, indexPrefix: prefix });
    try {
      await expect(store.ensureReady()).rejects.toMatchObject({ code: 'INVALID', message: expect.stringContaining('gitdex reindex') });

      const env = { ELASTICSEARCH_URL: engineEndpoints().elasticsearchUrl, ELASTICSEARCH_INDEX_PREFIX: prefix, GITDEX_DATA_DIR: dataDir };
      const result = await runCliProcess(['reindex'], env);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`files: copied 30 documents from ${older} to ${prefix}-files-v${FILES_MAPPING_VERSION}-r`);

      await store.ensureReady();
      const [physical] = Object.keys(await admin.indices.getAlias({ name: `${prefix}-files` }));
      expect(physical).toMatch(new RegExp(`^${prefix}-files-v${FILES_MAPPING_VERSION}-r\\d+$`));
      expect(await store.visibleEntries({ repositoryId: 7, ref: MAIN, generation: 1 }, null, 100)).toHaveLength(30);
      // The copies carried no content terms: reindex derived them, so search finds the files.
      const found = await store.searchCandidates({ repositoryId: 7, ref: MAIN, generation: 1 }, { op: 'substring', text: '// src/f29.ts' }, { includeGenerated: false, afterPath: null, limit: 10 });
      expect(found.map((candidate) => candidate.path)).toEqual(['src/f29.ts']);
    } finally {
      await store.close();
    }
  });
});
