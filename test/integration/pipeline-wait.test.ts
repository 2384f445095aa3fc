// The pipeline harness's wait for a served commit (test/support/pipeline.ts) against real
// Elasticsearch: it must not end before the reader's tools see the flip. A flip's refresh is held
// open here, so the window in which a real-time get already answers the new ref state and a
// search does not is there on every run, not only on a loaded machine.
import { Client } from '@elastic/elasticsearch';
import type { SearchCodeOutput } from '@gitdex/contracts';
import { ElasticsearchIndexStore } from '@gitdex/elasticsearch';
import { callTool, resolveDeps } from '@gitdex/reader';
import { MAIN, makeFile, makeRefState, makeRepository, put } from '../conformance/index-store.fixtures';
import { engineEndpoints, uniqueName } from '../harness/engines';
import { servedToReaders } from '../support/pipeline';

jest.setTimeout(60_000);

const REPO = 31;
const FIRST = '1'.repeat(40);
const SECOND = '2'.repeat(40);

/** A client whose refreshing bulks on one index write at once but refresh only when `release` is called. */
function clientHoldingRefreshes(node: string, index: string): { client: Client; hold: () => void; release: () => void } {
  const client = new Client({ node });
  const send = client.transport.request.bind(client.transport) as (params: { path: string; querystring?: Record<string, unknown> }, options?: unknown) => Promise<unknown>;
  let gate: Promise<void> | null = null;
  let open = () => undefined as void;
  (client.transport as unknown as { request: typeof send }).request = async (params, options) => {
    if (!gate || params.path !== `/${index}/_bulk` || params.querystring?.refresh !== true) return send(params, options);
    const answer = await send({ ...params, querystring: { ...params.querystring, refresh: false } }, options);
    await gate;
    await send({ method: 'POST', path: `/${index}/_refresh` } as never);
    return answer;
  };
  return {
    client,
    hold: () => {
      gate = new Promise<void>((resolve) => (open = resolve));
    },
    release: () => {
      gate = null;
      open();
    },
  };
}

describe('the pipeline harness waits for a commit as readers see it', () => {
  const node = engineEndpoints().elasticsearchUrl;
  const prefix = uniqueName('wait');
  const held = clientHoldingRefreshes(node, `${prefix}-repos`);
  const store = new ElasticsearchIndexStore({ node, indexPrefix: prefix, client: held.client });
  const found = async () => {
    const answer = await callTool(resolveDeps({ index: store }), 'search_code', { repository: 'acme/waited', query: 'needle', limit: 10, context_lines: 0 }, null, { transport: 'memory' });
    return (answer.structured as SearchCodeOutput).files.map((file) => file.path).sort();
  };

  beforeAll(async () => {
    await store.ensureReady();
    await store.putRepository(makeRepository(REPO, 'acme/waited'));
  });
  afterAll(async () => {
    await held.client.indices.delete({ index: `${prefix}-*`, expand_wildcards: 'all', ignore_unavailable: true, allow_no_indices: true });
    await held.client.indices.deleteIndexTemplate({ name: `${prefix}-*` }).catch(() => undefined);
    await store.close();
    await held.client.close();
  });

  it('is not served while the flip is indexed but not yet searchable', async () => {
    await store.writeFiles([put(makeFile({ repositoryId: REPO, path: 'a.js', content: '// needle a\n' }))]);
    await store.refresh();
    await store.putRefState(makeRefState(REPO, MAIN, { commitSha: FIRST, generation: 1, fileCount: 1 }));
    await store.writeFiles([put(makeFile({ repositoryId: REPO, path: 'b.js', content: '// needle b\n', fromGeneration: 2 }))]);
    await store.refresh();

    held.hold();
    const flip = store.putRefState(makeRefState(REPO, MAIN, { commitSha: SECOND, generation: 2, fileCount: 2 }));
    // The real-time get answers the new state as soon as the write is indexed, before its refresh.
    for (let state = await store.getRefState(REPO, MAIN); state?.commitSha !== SECOND; state = await store.getRefState(REPO, MAIN));
    expect(await servedToReaders(store, REPO, MAIN, SECOND)).toBe(false);
    // What a test that waited on the real-time get would have read: the previous generation.
    expect(await found()).toEqual(['a.js']);

    held.release();
    await flip;
    expect(await servedToReaders(store, REPO, MAIN, SECOND)).toBe(true);
    expect(await found()).toEqual(['a.js', 'b.js']);
  });
});
