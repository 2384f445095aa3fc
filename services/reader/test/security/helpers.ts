import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { IndexStore } from '@gitdex/ports';
import { Registry } from 'prom-client';
import { personAccess } from '../../src/people';
import { createReaderApp, type ReaderHttpOptions } from '../../src/app';
import { resolveDeps, type ReaderDeps, type ReaderOptions } from '../../src/deps';
import { bearerTokens, parseReaderTokens } from '../../src/http/auth';
import { PRINCIPALS, TOKENS, TOKENS_ENV, type SecurityWorld } from './world';

export const NOW = () => new Date('2025-02-01T00:00:00.000Z');

/** Reader deps over the security world with the product's access rule (fresh backfill memory each time). */
export function depsFor(world: SecurityWorld, options: Partial<ReaderOptions> = {}): ReaderDeps {
  return resolveDeps({ index: world.index, publisher: world.publisher, history: world.history, access: personAccess, now: NOW, ...options });
}

/** Signed-in people's tokens as the reader's authenticate hook turns them into Principals (the real path: test/integration/sign-in.test.ts). */
const SIGNED_IN = (['aliceSignedIn', 'bobSignedIn'] as const).map((caller) => ({ token: TOKENS[caller], principal: PRINCIPALS[caller] }));

export interface Served {
  url: string;
  registry: Registry;
  close(): Promise<void>;
}

/** The reader app on a free port, with the world's tokens (anonymous callers allowed unless told). */
export async function serve(deps: ReaderDeps, http: Partial<ReaderHttpOptions> = {}): Promise<Served> {
  const registry = new Registry();
  const app = createReaderApp(deps, { registry, authenticate: bearerTokens([...parseReaderTokens(TOKENS_ENV), ...SIGNED_IN]), anonymous: true, ...http });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    registry,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A name of the same length and shape that no repository has: "acme/internal-x9" → "acme/internal-k9". */
export function twin(name: string): string {
  const i = name.length - 2;
  const c = name[i] as string;
  const replacement = c.toLowerCase() === 'k' ? 'j' : 'k';
  return name.slice(0, i) + (c === c.toUpperCase() && c !== c.toLowerCase() ? replacement.toUpperCase() : replacement) + name.slice(i + 1);
}

/** Replaces a name and its twin (any case) by NAME, so two answers can be compared. */
export function scrub(text: string, name: string): string {
  const pattern = (n: string) => n.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
  return text.replace(new RegExp(`${pattern(name)}|${pattern(twin(name))}`, 'gi'), 'NAME');
}

/** Replaces every case-insensitive occurrence of a name by its twin, keeping the case of each letter. */
export function toTwin(text: string, name: string): string {
  const pattern = name.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
  return text.replace(new RegExp(pattern, 'gi'), (found) => {
    const i = found.length - 2;
    return found.slice(0, i) + twin(found).slice(i, i + 1) + found.slice(i + 1);
  });
}

export const JSON_RPC_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };

/** One JSON-RPC call over HTTP, as a client without the SDK sends it. */
export async function rpc(url: string, method: string, params: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(`${url}/mcp`, { method: 'POST', headers: { ...JSON_RPC_HEADERS, ...headers }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
}

/**
 * The index with every call counted by method: how long an answer takes, measured as the
 * round trips it cost (wall-clock time is too noisy to assert, and a round trip is what a
 * remote index makes slow).
 */
export function countingIndex(index: IndexStore): { index: IndexStore; calls: () => Record<string, number> } {
  const counts: Record<string, number> = {};
  const counted = new Proxy(index, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        counts[String(property)] = (counts[String(property)] ?? 0) + 1;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { index: counted, calls: () => ({ ...counts }) };
}

/** Calls made between two readings of countingIndex's calls(). */
export function callsBetween(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(after).flatMap(([method, n]) => (n - (before[method] ?? 0) > 0 ? [[method, n - (before[method] ?? 0)]] : [])));
}
