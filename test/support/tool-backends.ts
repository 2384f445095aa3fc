// Reader tests that run the tools on both index backends: SQLite in memory and Elasticsearch
// under a prefix of their own, whose indices are removed when the file's tests end.
import { Client } from '@elastic/elasticsearch';
import { ElasticsearchIndexStore } from '@gitdex/elasticsearch';
import type { IndexStore } from '@gitdex/ports';
import { callTool, type ReaderDeps } from '@gitdex/reader';
import { SqliteIndexStore } from '@gitdex/sqlite';

/** The two backends as describe.each rows; registers the removal of the Elasticsearch indices. */
export function indexBackends(name: string): [string, () => IndexStore][] {
  const url = process.env.ELASTICSEARCH_URL as string;
  const prefix = `${name}${Date.now().toString(36)}`;
  afterAll(async () => {
    const admin = new Client({ node: url });
    await admin.indices.delete({ index: `${prefix}-*`, expand_wildcards: 'all', ignore_unavailable: true, allow_no_indices: true });
    await admin.indices.deleteIndexTemplate({ name: `${prefix}-*` }).catch(() => undefined);
    await admin.close();
  });
  return [
    ['SQLite', () => new SqliteIndexStore({ file: ':memory:' })],
    ['Elasticsearch', () => new ElasticsearchIndexStore({ node: url, indexPrefix: prefix })],
  ];
}

export interface ToolAnswer {
  isError: boolean;
  structured?: unknown;
  text: string;
}

/** Calls a tool as an in-process caller does; a caller error comes back as its text. */
export function toolRunner(deps: () => ReaderDeps): (tool: string, args: Record<string, unknown>) => Promise<ToolAnswer> {
  return async (tool, args) => {
    try {
      const answer = await callTool(deps(), tool as never, args, null, { transport: 'memory' });
      return { isError: false, structured: answer.structured, text: answer.text };
    } catch (error) {
      return { isError: true, text: (error as Error).message };
    }
  };
}
