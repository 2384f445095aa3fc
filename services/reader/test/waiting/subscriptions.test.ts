import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { createReaderApp } from '../../src/app';
import { bearerTokens } from '../../src/http/auth';
import { McpSessions } from '../../src/mcp/sessions';
import { pushCommit } from '../support/documents';
import { manualClock } from '../support/manual-clock';
import { connectInMemory } from '../support/mcp-client';
import { createWorld, type World } from '../support/world';

/**
 * resources/subscribe on a repository: the notification comes when one of its refs serves a
 * new commit, in memory (as stdio connects) and over Streamable HTTP in a session; a private
 * repository reads as a missing one; a client that goes away leaves no watcher behind.
 */
describe('read your own push: resource subscriptions', () => {
  let world: World;
  const clock = manualClock();

  beforeEach(async () => {
    world = await createWorld('sqlite', { waitRepeat: clock.repeat, waitPollMs: 100 });
  });

  /** Resolves with the URI of the first notifications/resources/updated the client gets. */
  function nextUpdate(client: Client): Promise<string> {
    return new Promise((resolve) => client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => resolve(notification.params.uri)));
  }

  async function pollUntil<T>(pending: Promise<T>): Promise<T> {
    let done = false;
    void pending.finally(() => (done = true));
    for (let step = 0; step < 50 && !done; step += 1) await clock.advance(100);
    return pending;
  }

  test('in memory: a subscription is notified of a new commit, a private repository cannot be subscribed, closing leaves nothing', async () => {
    const { client, close } = await connectInMemory(world.deps);
    expect(client.getServerCapabilities()?.resources?.subscribe).toBe(true);
    await client.subscribeResource({ uri: 'gitdex://octo/api' });
    await clock.advance(100);
    expect(world.deps.watchers.counts()).toEqual({ repositories: 1, listeners: 1 });
    const update = nextUpdate(client);
    await pushCommit(world.index, { repositoryId: 1, ref: 'refs/heads/main', label: 'octo/api@2', put: { 'README.md': 'two\n' } });
    expect(await pollUntil(update)).toBe('gitdex://octo/api');

    const refusal = (uri: string) =>
      client.subscribeResource({ uri }).then(
        () => 'subscribed',
        (error: Error) => error.message,
      );
    const hidden = await refusal('gitdex://octo/secret');
    const absent = await refusal('gitdex://octo/nothing');
    expect(hidden.replaceAll('secret', 'nothing')).toBe(absent);
    expect(absent).toMatch(/not found/);

    const overview = await client.readResource({ uri: 'gitdex://octo/api' });
    expect(JSON.stringify(overview.contents)).toContain('octo/api');
    await close();
    expect(world.deps.watchers.counts()).toEqual({ repositories: 0, listeners: 0 });
  });

  test('over Streamable HTTP: initialize opens a session, the GET stream carries the notification, ending the session leaves nothing', async () => {
    const sessions = new McpSessions();
    const app = createReaderApp(world.deps, { sessions });
    const server: Server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    const transport = new StreamableHTTPClientTransport(new URL(url));
    const client = new Client({ name: 'subscriber', version: '1.0.0' });
    await client.connect(transport);
    expect(transport.sessionId).toBeDefined();
    expect(sessions.size).toBe(1);
    await client.subscribeResource({ uri: 'gitdex://octo/api' });
    expect(world.deps.watchers.counts().listeners).toBe(1);
    // A tool call in the session answers as ever.
    const read = await client.callTool({ name: 'read_file', arguments: { repository: 'octo/api', path: 'README.md' } });
    expect(read.isError).toBeFalsy();
    // The SDK client opens the GET stream after initialize; wait until the server holds it.
    for (let step = 0; step < 500 && sessions.streamsOpen() !== 1; step += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    const update = nextUpdate(client);
    await pushCommit(world.index, { repositoryId: 1, ref: 'refs/heads/main', label: 'octo/api@2', put: { 'README.md': 'two\n' } });
    expect(await pollUntil(update)).toBe('gitdex://octo/api');

    // Without a session, a subscribe is refused with what to do.
    const stateless = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'resources/subscribe', params: { uri: 'gitdex://octo/api' } }),
    });
    expect(JSON.stringify(await stateless.json())).toMatch(/needs a session/);

    await transport.terminateSession();
    await client.close();
    expect(sessions.size).toBe(0);
    expect(world.deps.watchers.counts()).toEqual({ repositories: 0, listeners: 0 });
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  test('a session answers only its own principal: another token naming it reaches nothing of it', async () => {
    const sessions = new McpSessions();
    const authenticate = bearerTokens([
      { token: 'alice-token-0123456789', principal: { id: 'alice' } },
      { token: 'bob-token-0123456789ab', principal: { id: 'bob' } },
    ]);
    const app = createReaderApp(world.deps, { sessions, authenticate });
    const server: Server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    const post = (token: string, body: unknown, session?: string) =>
      fetch(url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-06-18',
          ...(session ? { 'mcp-session-id': session } : {}),
        },
        body: JSON.stringify(body),
      });
    const init = await post('alice-token-0123456789', {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'alice', version: '1' } },
    });
    const session = init.headers.get('mcp-session-id') ?? undefined;
    expect(session).toBeDefined();
    await post('alice-token-0123456789', { jsonrpc: '2.0', method: 'notifications/initialized' }, session);
    const bob = await post('bob-token-0123456789ab', { jsonrpc: '2.0', id: 2, method: 'resources/subscribe', params: { uri: 'gitdex://octo/api' } }, session);
    expect(JSON.stringify(await bob.json())).toMatch(/needs a session/);
    const stream = await fetch(url, { headers: { authorization: 'Bearer bob-token-0123456789ab', accept: 'text/event-stream', 'mcp-session-id': session! } });
    expect(stream.status).toBe(405);
    expect(world.deps.watchers.counts()).toEqual({ repositories: 0, listeners: 0 });
    await sessions.closeAll();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
});
