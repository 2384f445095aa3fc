import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Registry } from 'prom-client';
import { SqliteIndexStore } from '@gitdex/sqlite';
import { createReaderApp } from '@gitdex/reader';
import { seedRepository } from '../../services/reader/test/support/documents';

/** A reader over Streamable HTTP in this process, on an in-memory SQLite index holding one repository, and an MCP client connected to it. */
export async function httpReader(fullName: string, files: Record<string, string>): Promise<{ client: Client; url: URL; close: () => Promise<void> }> {
  const index = new SqliteIndexStore({ file: ':memory:' });
  await index.ensureReady();
  await seedRepository(index, { id: 1, fullName, files });
  const app = createReaderApp({ index }, { registry: new Registry() });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(url));
  return {
    client,
    url,
    close: async () => {
      await client.close();
      server.close();
      await index.close();
    },
  };
}
