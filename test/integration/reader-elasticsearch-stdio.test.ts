import { TOOL_NAMES } from '@gitdex/contracts';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { repositoryFromFolder } from '../support/copy-tree';
import { engineEndpoints } from '../harness/engines';
import { startPipeline, type Pipeline } from '../support/pipeline';

const MAIN = 'refs/heads/main';
const FILES = 10_000;

describe('reader over stdio, on Elasticsearch indexed by the real indexer', () => {
  let p: Pipeline;
  let client: Client;

  beforeAll(async () => {
    p = await startPipeline();
    // Written straight to disk and committed at once: one git process, not one per file.
    const source = mkdtempSync(join(tmpdir(), 'gitdex-wide-'));
    mkdirSync(join(source, 'wide'));
    writeFileSync(join(source, 'README.md'), '# wide\n');
    for (let i = 0; i < FILES; i += 1) writeFileSync(join(source, 'wide', `file-${String(i).padStart(5, '0')}.txt`), `${i}\n`);
    const repo = await repositoryFromFolder(p.root, 'stdio', 'wide', source);
    rmSync(source, { recursive: true, force: true });
    const id = await p.standIn.repoId('stdio', 'wide');
    await p.standIn.push('stdio', 'wide', { ref: MAIN });
    await p.waitForCommit(id, MAIN, repo.sha, 180_000);
    client = new Client({ name: 'stdio-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [join(__dirname, '../../services/gitdex/dist/cli.js'), 'mcp'], // the documented `gitdex mcp`
        env: {
          PATH: process.env.PATH ?? '',
          ELASTICSEARCH_URL: engineEndpoints().elasticsearchUrl,
          ELASTICSEARCH_INDEX_PREFIX: p.indexPrefix,
          KAFKA_BROKERS: engineEndpoints().kafkaBrokers,
          KAFKA_TOPIC: p.topic,
          LOG_LEVEL: 'warn',
        },
        stderr: 'pipe',
      }),
    );
  });
  afterAll(async () => {
    await client?.close();
    await p.close();
  });

  it('lists the tools with annotations and output schemas', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());
    for (const tool of tools) {
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true, openWorldHint: false });
      expect(tool.outputSchema).toBeDefined();
    }
  });

  it(`pages through a ${FILES.toLocaleString('en')}-file folder: every entry exactly once`, async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const result = await client.callTool({ name: 'list_files', arguments: { repository: 'stdio/wide', folder: 'wide', limit: 300, ...(cursor ? { cursor } : {}) } });
      expect(result.isError).toBeFalsy();
      const page = result.structuredContent as { entries: { path: string }[]; next_cursor?: string | null };
      expect(page.entries.length).toBeLessThanOrEqual(300);
      seen.push(...page.entries.map((e) => e.path));
      cursor = page.next_cursor ?? undefined;
      pages += 1;
    } while (cursor && pages < 100);
    expect(seen).toHaveLength(FILES);
    expect(new Set(seen).size).toBe(FILES);
    expect(seen[0]).toBe('wide/file-00000.txt');
    expect(seen[FILES - 1]).toBe(`wide/file-${String(FILES - 1).padStart(5, '0')}.txt`);
  });

  it('reads, suggests and reports through stdio, and errors are tool results', async () => {
    const read = await client.callTool({ name: 'read_file', arguments: { repository: 'stdio/wide', path: 'wide/file-01234.txt' } });
    expect((read.content as { text: string }[])[0]!.text).toContain('1234');
    const suggest = await client.callTool({ name: 'suggest_paths', arguments: { repository: 'stdio/wide', query: 'wide/file-1234.txt' } });
    expect(JSON.stringify(suggest.structuredContent)).toContain('wide/file-01234.txt');
    const missing = await client.callTool({ name: 'read_file', arguments: { repository: 'stdio/wide', path: 'wide/flie-01234.txt' } });
    expect(missing.isError).toBe(true);
    expect((missing.content as { text: string }[])[0]!.text).toMatch(/Did you mean: wide\/file-01234\.txt/);
  });
});
