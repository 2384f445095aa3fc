// The IndexStore conformance suite on a real Elasticsearch, plus what only this adapter has:
// aliases and templates, strict mappings, bulk batching and failures, reindexing, and an
// unreachable node.
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@elastic/elasticsearch';
import { ElasticsearchIndexStore, FILES_MAPPING_VERSION, filesMappings } from '@gitdex/elasticsearch';
import { PortError } from '@gitdex/ports';
import { describeIndexStoreConformance } from '../conformance/index-store.cases';
import { MAIN, makeFile, put } from '../conformance/index-store.fixtures';
import { readBody, wholeAnswer, type WholeAnswer } from '../support/http-bodies';

jest.setTimeout(120_000);

function elasticsearchUrl(): string {
  const url = process.env.ELASTICSEARCH_URL;
  if (!url) throw new Error('ELASTICSEARCH_URL is not set: the integration global setup provides it');
  return url;
}

/** One prefix per test file run, lower case (index names must be). */
const prefix = `t${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const admin = new Client({ node: elasticsearchUrl() });

async function dropPrefix(name: string): Promise<void> {
  await admin.indices.delete({ index: `${name}-*`, expand_wildcards: 'all', ignore_unavailable: true, allow_no_indices: true });
  await admin.indices.deleteIndexTemplate({ name: `${name}-*` }).catch(() => undefined);
}

interface Exchange {
  url: string;
  body: Buffer;
  /** Passes the request on to the engine and answers what it answered. */
  forward(): Promise<WholeAnswer>;
}

/** A proxy in front of the engine that lets a test hold, pass on or rewrite each request. */
async function startProxy(handle: (exchange: Exchange) => Promise<WholeAnswer>): Promise<{ url: string; close(): Promise<void> }> {
  const target = new URL(elasticsearchUrl());
  const proxy = createServer((req, res) => {
    const { 'accept-encoding': _plain, ...headers } = req.headers;
    const exchange = async (): Promise<WholeAnswer> => {
      const body = await readBody(req);
      const forward = () =>
        new Promise<WholeAnswer>((resolve, reject) => {
          const upstream = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers }, (answer) => {
            wholeAnswer(answer).then(resolve, reject);
          });
          upstream.on('error', reject);
          upstream.end(body);
        });
      return handle({ url: req.url ?? '', body, forward });
    };
    exchange().then(
      (answer) => {
        const { 'content-length': _length, 'transfer-encoding': _encoding, ...answerHeaders } = answer.headers;
        res.writeHead(answer.status, { ...answerHeaders, 'content-length': answer.body.length });
        res.end(answer.body);
      },
      () => res.destroy(),
    );
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    async close() {
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  };
}

afterAll(async () => {
  await dropPrefix(prefix);
  await admin.close();
});

describeIndexStoreConformance('Elasticsearch', async () => new ElasticsearchIndexStore({ node: elasticsearchUrl(), indexPrefix: prefix }));

describe('ElasticsearchIndexStore', () => {
  it('refuses to be built without a node or with an upper-case prefix', () => {
    expect(() => new ElasticsearchIndexStore({} as never)).toThrow(PortError);
    expect(() => new ElasticsearchIndexStore({ node: '' })).toThrow(/options.node/);
    expect(() => new ElasticsearchIndexStore({ node: elasticsearchUrl(), indexPrefix: 'Upper' })).toThrow(/lower case/);
  });

  it('creates versioned indices behind aliases, with strict mappings, idempotently', async () => {
    const name = `${prefix}-setup`;
    const store = new ElasticsearchIndexStore({ node: elasticsearchUrl(), indexPrefix: name });
    try {
      await Promise.all([store.ensureReady(), store.ensureReady()]);
      await store.ensureReady();
      const files = await admin.indices.getAlias({ name: `${name}-files` });
      const repos = await admin.indices.getAlias({ name: `${name}-repos` });
      expect(Object.keys(files)).toEqual([`${name}-files-v${FILES_MAPPING_VERSION}`]);
      expect(Object.keys(repos)).toEqual([`${name}-repos-v1`]);
      const files_ = `${name}-files-v${FILES_MAPPING_VERSION}`;
      const mapping = await admin.indices.getMapping({ index: files_ });
      expect(mapping[files_]?.mappings.dynamic).toBe('strict');
      expect(mapping[files_]?.mappings._meta).toEqual({ gitdexMappingVersion: FILES_MAPPING_VERSION, gitdexContentInBlobs: true });
      expect(Object.keys(await admin.indices.getAlias({ name: `${name}-blobs` }))).toEqual([`${name}-blobs-v1`]);
      const templates = await admin.indices.getIndexTemplate({ name: files_ });
      expect(templates.index_templates).toHaveLength(1);
    } finally {
      await store.close();
      await dropPrefix(name);
    }
  });

  it('refreshes the files index only when asked (before a flip), and leaves an interval its operator set', async () => {
    const name = `${prefix}-refresh`;
    const store = new ElasticsearchIndexStore({ node: elasticsearchUrl(), indexPrefix: name });
    const files = `${name}-files-v${FILES_MAPPING_VERSION}`;
    const interval = async (index: string) => {
      const settings = await admin.indices.getSettings({ index, name: 'index.refresh_interval', flat_settings: true });
      return settings[index]?.settings?.['index.refresh_interval'] as string | undefined;
    };
    try {
      await store.ensureReady();
      expect(await interval(files)).toBe('-1');
      expect(await interval(`${name}-repos-v1`)).toBeUndefined();
      // Written, not refreshed: not searchable (the interval above says the engine never refreshes on its own).
      await store.writeFiles([put(makeFile({ repositoryId: 9, path: 'a.ts' }))]);
      expect(await store.visibleEntries({ repositoryId: 9, ref: MAIN, generation: 1 }, null, 10)).toEqual([]);
      await store.refresh();
      expect(await store.visibleEntries({ repositoryId: 9, ref: MAIN, generation: 1 }, null, 10)).toHaveLength(1);
      // An index made before (the default interval): ensureReady stops its timer. A null resets
      // a setting to its default, which the client's types do not allow for.
      await admin.transport.request({ method: 'PUT', path: `/${files}/_settings`, body: { index: { refresh_interval: null } } });
      expect(await interval(files)).toBeUndefined();
      await store.ensureReady();
      expect(await interval(files)).toBe('-1');
      // An operator's own interval stays.
      await admin.indices.putSettings({ index: files, settings: { refresh_interval: '5s' } });
      await store.ensureReady();
      expect(await interval(files)).toBe('5s');
    } finally {
      await store.close();
      await dropPrefix(name);
    }
  });

  it('writes in bounded batches and reports refused items instead of dropping them', async () => {
    const name = `${prefix}-bulk`;
    const store = new ElasticsearchIndexStore({ node: elasticsearchUrl(), indexPrefix: name, bulkMaxOperations: 7, bulkMaxBytes: 4096 });
    try {
      await store.ensureReady();
      const docs = Array.from({ length: 100 }, (_, i) => makeFile({ repositoryId: 5, path: `f/${i}.ts`, content: 'x'.repeat(i * 30) }));
      await store.writeFiles(docs.map(put));
      await store.refresh();
      expect(await store.visibleEntries({ repositoryId: 5, ref: MAIN, generation: 1 }, null, 1000)).toHaveLength(100);

      const bad = { ...makeFile({ repositoryId: 5, path: 'bad.ts' }), unexpected: true };
      const error = await store.writeFiles([put(makeFile({ repositoryId: 5, path: 'ok.ts' })), put(bad)]).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(PortError);
      expect(error).toMatchObject({ code: 'INVALID', retriable: false });
      expect((error as Error).message).toMatch(/strict_dynamic_mapping_exception/);
      expect((error as Error).message).toMatch(/Elasticsearch/);
    } finally {
      await store.close();
      await dropPrefix(name);
    }
  });

  it('re-sends a bulk that got no answer in time instead of failing the write', async () => {
    // The first bulk request is held until the store sent it again (its bulk deadline passed with
    // no answer), and only then passed on: the store must time out, back off and re-send, and
    // every document must be there once.
    let heldBulks = 0;
    let resent: () => void = () => undefined;
    const sentAgain = new Promise<void>((resolve) => (resent = resolve));
    const proxy = await startProxy(async (exchange) => {
      if (exchange.url.includes('-files/_bulk')) {
        heldBulks += 1;
        if (heldBulks === 1) await sentAgain;
        else resent();
      }
      return exchange.forward();
    });
    const name = `${prefix}-slowbulk`;
    const store = new ElasticsearchIndexStore({ node: proxy.url, indexPrefix: name, bulkTimeoutMs: 500, bulkBackoffMs: 50 });
    try {
      await store.ensureReady();
      const docs = Array.from({ length: 40 }, (_, i) => makeFile({ repositoryId: 6, path: `s/${i}.ts`, content: `line ${i}\n` }));
      await store.writeFiles(docs.map(put));
      await store.refresh();
      expect(heldBulks).toBe(2);
      expect(await store.visibleEntries({ repositoryId: 6, ref: MAIN, generation: 1 }, null, 1000)).toHaveLength(40);
    } finally {
      await store.close();
      await proxy.close();
      await dropPrefix(name);
    }
  });

  it('re-sends exactly the items refused with 429, and their content arrives whole', async () => {
    // The engine's answer to the first bulk is rewritten so that every third item reads as
    // refused (429): the store must re-send those items alone, as a body of their own.
    const bulks: string[] = [];
    const proxy = await startProxy(async (exchange) => {
      // The blobs' bulk: the one that carries the content.
      if (!exchange.url.includes('-blobs/_bulk')) return exchange.forward();
      bulks.push(exchange.body.toString('utf8'));
      const answer = await exchange.forward();
      if (bulks.length > 1) return answer;
      const parsed = JSON.parse(answer.body.toString('utf8')) as { errors: boolean; items: Record<string, { status: number; error?: unknown }>[] };
      parsed.items.forEach((item, i) => {
        if (i % 3 !== 1) return;
        const result = Object.values(item)[0] as { status: number; error?: unknown };
        result.status = 429;
        result.error = { type: 'es_rejected_execution_exception', reason: 'rejected by the test' };
      });
      parsed.errors = true;
      return { ...answer, body: Buffer.from(JSON.stringify(parsed)) };
    });
    const name = `${prefix}-refused`;
    const store = new ElasticsearchIndexStore({ node: proxy.url, indexPrefix: name, bulkBackoffMs: 10 });
    try {
      await store.ensureReady();
      // Multi-byte content, so a wrong byte range in the re-sent body would show.
      const docs = Array.from({ length: 30 }, (_, i) => makeFile({ repositoryId: 8, path: `r/${i}.ts`, content: `caf\u00e9 \u65e5\u672c ${i} \u{1f600}\n` }));
      await store.writeFiles(docs.map(put));
      await store.refresh();
      expect(bulks).toHaveLength(2);
      // Every operation is a create: its action line, then its document.
      const idsOf = (body: string) =>
        body
          .trim()
          .split('\n')
          .filter((_, line) => line % 2 === 0)
          .map((line) => (JSON.parse(line) as { create: { _id: string } }).create._id);
      expect(idsOf(bulks[0]!)).toHaveLength(30);
      expect(idsOf(bulks[1]!)).toEqual(idsOf(bulks[0]!).filter((_, i) => i % 3 === 1));
      const snapshot = { repositoryId: 8, ref: MAIN, generation: 1 };
      expect(await store.visibleEntries(snapshot, null, 1000)).toHaveLength(30);
      const file = await store.getFile(snapshot, 'r/22.ts');
      expect(file?.content).toBe(`caf\u00e9 \u65e5\u672c 22 \u{1f600}\n`);
    } finally {
      await store.close();
      await proxy.close();
      await dropPrefix(name);
    }
  });

  it('fails fast with UNAVAILABLE naming Elasticsearch when the node is unreachable', async () => {
    const store = new ElasticsearchIndexStore({ node: 'http://127.0.0.1:1', indexPrefix: `${prefix}-down`, requestTimeoutMs: 2000 });
    // Fast means within the store's own request timeout; a hang fails the test by its timeout.
    expect(await store.ping()).toBe(false);
    const error = await store.getRepository(1).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PortError);
    expect(error).toMatchObject({ code: 'UNAVAILABLE', retriable: true });
    expect((error as Error).message).toMatch(/Elasticsearch at http:\/\/127\.0\.0\.1:1/);
    await expect(store.writeFiles([put(makeFile({ repositoryId: 1, path: 'a.ts' }))])).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    await store.close();
  });

  it('reindexes an older physical index into the current version and swaps the alias', async () => {
    const name = `${prefix}-reindex`;
    try {
      // An index of an "older" version (v0) behind the alias, holding documents.
      await admin.indices.create({ index: `${name}-files-v0`, mappings: filesMappings, aliases: { [`${name}-files`]: { is_write_index: true } } });
      const docs = Array.from({ length: 1200 }, (_, i) => makeFile({ repositoryId: 9, path: `r/${i}.ts` }));
      await admin.bulk({ index: `${name}-files`, refresh: true, operations: docs.flatMap((doc) => [{ index: {} }, doc]) });

      const store = new ElasticsearchIndexStore({ node: elasticsearchUrl(), indexPrefix: name });
      await expect(store.ensureReady()).rejects.toMatchObject({ code: 'INVALID', message: expect.stringMatching(/reindex/) });
      expect(await store.reindex('files')).toEqual({ from: [`${name}-files-v0`], to: `${name}-files-v${FILES_MAPPING_VERSION}`, copied: 1200, leftBehind: [] });
      await store.ensureReady();
      expect(Object.keys(await admin.indices.getAlias({ name: `${name}-files` }))).toEqual([`${name}-files-v${FILES_MAPPING_VERSION}`]);
      const snapshot = { repositoryId: 9, ref: MAIN, generation: 1 };
      expect(await store.visibleEntries(snapshot, null, 5000)).toHaveLength(1200);
      // The copies were indexed without content trigrams: reindex derives them again from the content.
      const found = await store.searchCandidates(snapshot, { op: 'substring', text: '// r/1199.ts' }, { includeGenerated: false, afterPath: null, limit: 10 });
      expect(found.map((c) => c.path)).toEqual(['r/1199.ts']);
      expect(await store.reindex('files')).toMatchObject({ copied: 0 });
      await store.close();
    } finally {
      await dropPrefix(name);
    }
  });
});
