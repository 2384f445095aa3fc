import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { McpSessions } from '../../src/mcp/sessions';

/** A session's server and transport as the store sees them: only closed. */
function parts(closed: string[], id: string) {
  const close = async () => {
    closed.push(id);
  };
  return { server: { close } as unknown as McpServer, transport: { close } as unknown as StreamableHTTPServerTransport };
}

describe('MCP sessions kept for subscriptions', () => {
  test('capped in all and per caller; a session answers only its principal; idle ones close, streaming ones stay', () => {
    let now = 0;
    const closed: string[] = [];
    const sessions = new McpSessions({ maxSessions: 3, maxPerOwner: 2, idleMs: 1000, now: () => now });
    sessions.add('a1', { ...parts(closed, 'a1'), principalId: 'alice', owner: 'principal:alice' });
    sessions.add('a2', { ...parts(closed, 'a2'), principalId: 'alice', owner: 'principal:alice' });
    expect(sessions.hasRoom('principal:alice')).toBe(false);
    expect(sessions.hasRoom('address:10.0.0.1')).toBe(true);
    sessions.add('n1', { ...parts(closed, 'n1'), principalId: null, owner: 'address:10.0.0.1' });
    expect(sessions.hasRoom('address:10.0.0.2')).toBe(false);

    expect(sessions.use('a1', 'bob')).toBeUndefined();
    expect(sessions.use('a1', null)).toBeUndefined();
    expect(sessions.use('a1', 'alice')).toBeDefined();

    now = 900;
    sessions.use('a2', 'alice')!.streams = 1;
    now = 1500;
    expect(sessions.sweep()).toBe(2);
    expect(closed.sort()).toEqual(['a1', 'a1', 'n1', 'n1']);
    expect(sessions.size).toBe(1);
  });
});
