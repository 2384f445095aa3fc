import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request that went through the proxy. */
export interface ProxiedRequest {
  method: string;
  path: string;
  /** Operation name: the last "_x" segment of the path (_bulk, _search, _refresh, _doc...), else the method. */
  op: string;
  start: number;
  end: number;
  status: number;
  /** Bytes of the answer's body. */
  bytes: number;
}

export function opOf(method: string, path: string): string {
  const segments = path.split('?')[0]!.split('/').filter(Boolean);
  const underscored = segments.filter((s) => s.startsWith('_'));
  const last = underscored[underscored.length - 1];
  if (!last) return `${method} /${segments.length > 0 ? '<index>' : ''}`;
  return `${method} ${last === '_doc' || last === '_update' ? `${last}/<id>` : last}`;
}

/**
 * A timing HTTP proxy in front of one server (Elasticsearch): a process pointed at it works
 * as before, and every request is recorded with its start and end (ms since the epoch).
 */
export async function startTimingProxy(target: string): Promise<{ url: string; requests: ProxiedRequest[]; close(): Promise<void> }> {
  const upstream = new URL(target);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const requests: ProxiedRequest[] = [];
  const server = http.createServer((req, res) => {
    const start = Date.now();
    const path = req.url ?? '/';
    const forward = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path, headers: { ...req.headers, host: upstream.host }, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      let bytes = 0;
      answer.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      answer.pipe(res);
      answer.once('end', () => {
        requests.push({ method: req.method ?? 'GET', path, op: opOf(req.method ?? 'GET', path), start, end: Date.now(), status: answer.statusCode ?? 0, bytes });
        if (requests.length > 50_000) requests.splice(0, 10_000);
      });
    });
    forward.once('error', (error) => {
      if (!res.headersSent) res.writeHead(502);
      res.end(String(error));
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
