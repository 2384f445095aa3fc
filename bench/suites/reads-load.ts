import { readTargets } from '../data/read-targets';
import { mediumCheckout } from './reads';
import { startGitdex } from '../gitdex/child';
import { callOk, connectHttp, type McpConnection } from '../mcp/clients';
import { figure, row } from '../report/model';
import { RssSampler } from '../measure/proc';
import { extent, median } from '../measure/stats';
import { interleave } from '../measure/timer';
import { formatNumber } from '../report/format';
import type { Backend } from '../setup/backends';
import type { SuiteContext } from './context';

interface Level {
  clients: number;
  latencies: number[];
  throughput: number;
  maxRssMb: number;
}

/** The SDK's HTTP client adds an abort listener per request to one signal: start afresh now and then. */
const CALLS_PER_CONNECTION = 1000;

/** `clients` MCP clients, each calling read_file back to back until the deadline. */
async function runLevel(url: string, pid: number, clients: number, seconds: number, call: (c: McpConnection, i: number) => Promise<unknown>): Promise<Level> {
  const connections: McpConnection[] = [];
  for (let i = 0; i < clients; i += 1) connections.push(await connectHttp(url));
  try {
    // Warm every connection once, outside the measurement.
    await Promise.all(connections.map((c, i) => call(c, i)));
    const sampler = new RssSampler(pid, 100);
    const latencies: number[] = [];
    let busyMs = 0;
    const started = performance.now();
    const deadline = started + seconds * 1000;
    let finished = started;
    await Promise.all(
      connections.map(async (_, k) => {
        for (let i = k, n = 1; performance.now() < deadline; i += clients, n += 1) {
          if (n % CALLS_PER_CONNECTION === 0) {
            const pause = performance.now();
            await connections[k]!.close().catch(() => undefined);
            connections[k] = await connectHttp(url);
            busyMs += performance.now() - pause;
          }
          const t = performance.now();
          await call(connections[k]!, i);
          finished = performance.now();
          latencies.push(finished - t);
        }
      }),
    );
    const memory = sampler.stop();
    const elapsed = finished - started - busyMs / clients;
    return { clients, latencies, throughput: latencies.length / (elapsed / 1000), maxRssMb: memory.maxRssMb };
  } finally {
    await Promise.all(connections.map((c) => c.close().catch(() => undefined)));
  }
}

/** Two halves per level, the levels up then down: slow drifts of the machine's load hit every level alike. */
async function runLevels(url: string, pid: number, levels: number[], seconds: number, call: (c: McpConnection, i: number) => Promise<unknown>, log: (line: string) => void): Promise<Level[]> {
  const halves = new Map<number, Level[]>();
  for (const clients of [...levels, ...[...levels].reverse()]) {
    const half = await runLevel(url, pid, clients, seconds / 2, call);
    halves.set(clients, [...(halves.get(clients) ?? []), half]);
    log(`  ${clients} clients: ${half.throughput.toFixed(0)} calls/s, RSS ${half.maxRssMb.toFixed(0)} MiB`);
  }
  return levels.map((clients) => {
    const parts = halves.get(clients)!;
    const calls = parts.reduce((n, p) => n + p.latencies.length, 0);
    const time = parts.reduce((t, p) => t + p.latencies.length / p.throughput, 0);
    return { clients, latencies: parts.flatMap((p) => p.latencies), throughput: calls / time, maxRssMb: extent(parts.map((p) => p.maxRssMb)).max };
  });
}

/**
 * The same read, one at a time, three ways, interleaved: REST, a bare JSON-RPC POST to /mcp
 * (no SDK client), and the SDK client: what each layer costs.
 */
async function transportProfile(url: string, repository: string, files: string[], samples: number): Promise<string[]> {
  const path = (i: number) => files[i % files.length]!;
  const sdk = await connectHttp(`${url}/mcp`);
  try {
    const times = await interleave(samples, 10, {
      rest: async (i) => {
        const response = await fetch(`${url}/v1/repositories/${repository}/files/${path(i)}`);
        if (!response.ok) throw new Error(`REST read answered ${response.status}`);
        await response.arrayBuffer();
      },
      bare: async (i) => {
        const response = await fetch(`${url}/mcp`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
          body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'read_file', arguments: { repository, path: path(i) } } }),
        });
        const text = await response.text();
        if (!response.ok || text.includes('"isError":true')) throw new Error(`bare MCP POST answered ${response.status}: ${text.slice(0, 200)}`);
      },
      sdk: (i) => callOk(sdk.client, 'read_file', { repository, path: path(i) }),
    });
    const [rest, bare, client] = [median(times.rest!), median(times.bare!), median(times.sdk!)];
    return [
      `one client, one call at a time, interleaved (${samples} each): REST GET /v1/…/files/… ${formatNumber(rest, 'ms')}; a bare JSON-RPC tools/call POST to /mcp ${formatNumber(bare, 'ms')}; the same through the MCP SDK client ${formatNumber(client, 'ms')}`,
      `so the MCP layer on the server (a new McpServer and transport per POST, argument and result validation, text and structured result) costs about ${formatNumber(bare - rest, 'ms')} a call over REST, and the SDK client about ${formatNumber(client - bare, 'ms')} more`,
    ];
  } finally {
    await sdk.close();
  }
}

/**
 * read_file through Streamable HTTP (/mcp) on a reader process (GITDEX_ROLE=reader main.js)
 * at 1, 8, 32 and 128 concurrent clients: throughput, latency, and the reader's memory.
 * The clients run in the bench process on the same two cores. Throughput = calls / time.
 */
export async function readsLoadSuite(ctx: SuiteContext, backend: Backend): Promise<void> {
  const targets = readTargets(ctx.repos.medium.corpus, await mediumCheckout(ctx));
  const repository = ctx.repos.medium.fullName;
  const reader = await startGitdex({ ...backend.readEnv, GITDEX_ROLE: 'reader' }, `${backend.name} reader`);
  try {
    const idleRss = reader.memory()?.rssMb ?? 0;
    ctx.results.profiles.push({
      title: `Reads over HTTP on ${backend.name}: what each layer costs`,
      lines: await transportProfile(reader.url, repository, targets.smallFiles, Math.max(50, ctx.config.reads.samples)),
    });
    const call = (c: McpConnection, i: number) => callOk(c.client, 'read_file', { repository, path: targets.smallFiles[i % targets.smallFiles.length]! });
    const levels = await runLevels(`${reader.url}/mcp`, reader.pid, ctx.config.load.levels, ctx.config.load.seconds, call, (line) => ctx.log(`  ${backend.name}${line}`));
    const one = levels[0]!;
    for (const level of levels) {
      const label = `${level.clients} client${level.clients === 1 ? '' : 's'}, read_file small`;
      ctx.results.rows.push(
        row({ suite: 'reads-load', backend: backend.name, case: `${label}: latency`, value: figure('latency', 'ms', level.latencies), baseline: figure('1 client', 'ms', one.latencies) }),
        row({
          suite: 'reads-load',
          backend: backend.name,
          case: `${label}: throughput`,
          value: figure('throughput', 'calls/s', [level.throughput]),
          baseline: figure('1 client', 'calls/s', [one.throughput]),
        }),
        row({ suite: 'reads-load', backend: backend.name, case: `${label}: reader RSS (max)`, value: figure('RSS', 'MiB', [level.maxRssMb]), baseline: figure('idle reader', 'MiB', [idleRss]) }),
      );
    }
  } finally {
    await reader.stop();
  }
}
