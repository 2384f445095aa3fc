import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/** One MCP session over Streamable HTTP: its server, its transport, and who opened it. */
export interface McpSession {
  server: McpServer;
  transport: StreamableHTTPServerTransport;
  /** The principal that opened it: a request of anyone else does not reach it. */
  principalId: string | null;
  /** Whose share of the sessions it counts against: the principal, or an anonymous caller's address. */
  owner: string;
  lastUsed: number;
  /** GET streams open on it: a session with one is never idle. */
  streams: number;
}

export interface SessionOptions {
  /** Sessions kept at most; past that an initialize is answered without a session (stateless). */
  maxSessions: number;
  /** Sessions one principal (or one anonymous address) may hold; past that, the same. */
  maxPerOwner: number;
  /** A session with no request and no open stream for this long is closed. */
  idleMs: number;
  now: () => number;
}

/**
 * An open session holds an MCP server (about 43 KB, measured: docs/design/read-your-own-push.md):
 * 2,000 of them about 90 MB. 16 a caller is more than an agent's tools open at once.
 */
export const DEFAULT_SESSION_OPTIONS: SessionOptions = { maxSessions: 2_000, maxPerOwner: 16, idleMs: 10 * 60_000, now: Date.now };

/**
 * The sessions of this reader process (docs/design/read-your-own-push.md, "Sessions"). A session
 * exists so resource subscriptions have a stream to notify on; every request without one, or
 * with one this process does not hold (another replica's, or from before a restart), is still
 * answered statelessly, so tool calls never need the replica that made the session.
 */
export class McpSessions {
  private readonly sessions = new Map<string, McpSession>();

  constructor(private readonly options: SessionOptions = DEFAULT_SESSION_OPTIONS) {}

  /** Whether `owner` may open one more session. */
  hasRoom(owner: string): boolean {
    if (this.sessions.size >= this.options.maxSessions) return false;
    let held = 0;
    for (const session of this.sessions.values()) if (session.owner === owner) held += 1;
    return held < this.options.maxPerOwner;
  }

  add(id: string, session: Omit<McpSession, 'lastUsed' | 'streams'>): void {
    this.sessions.set(id, { ...session, lastUsed: this.options.now(), streams: 0 });
  }

  /** The session `id` names, when the same principal opened it; it counts as used now. */
  use(id: string | undefined, principalId: string | null): McpSession | undefined {
    if (id === undefined) return undefined;
    const session = this.sessions.get(id);
    if (!session || session.principalId !== principalId) return undefined;
    session.lastUsed = this.options.now();
    return session;
  }

  /** Forgets a session (its transport closed it) without closing it again. */
  forget(id: string): void {
    this.sessions.delete(id);
  }

  /** Closes the sessions idle past idleMs; returns how many. */
  sweep(): number {
    const before = this.options.now() - this.options.idleMs;
    let closed = 0;
    for (const [id, session] of this.sessions) {
      if (session.streams > 0 || session.lastUsed > before) continue;
      this.sessions.delete(id);
      void session.transport.close();
      void session.server.close();
      closed += 1;
    }
    return closed;
  }

  async closeAll(): Promise<void> {
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(all.map(async (session) => Promise.all([session.transport.close(), session.server.close()])));
  }

  /** GET streams open on all sessions together. */
  streamsOpen(): number {
    let open = 0;
    for (const session of this.sessions.values()) open += session.streams;
    return open;
  }

  get size(): number {
    return this.sessions.size;
  }
}
