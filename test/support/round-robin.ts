// A small HTTP front that spreads requests over several processes of one role (two webhooks, two
// readers), as a load balancer would (nginx's proxy_next_upstream): round robin; a backend that
// refuses the connection is skipped (the request never reached it, so even a POST is safe to send
// to the next one); a GET whose connection fails (a backend killed while answering, a pooled
// connection to a dead one) is sent to the next backend, since reading twice is harmless. Any other
// failure yields a 502, which the caller sees as a failed request. `retried` counts the second tries.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody, wholeAnswer, type WholeAnswer } from './http-bodies';

export interface RoundRobin {
  url: string;
  /** Requests that no backend took (every one refused the connection). */
  readonly unreachable: number;
  /** GETs sent to another backend after their connection failed. */
  readonly retried: number;
  /** Requests answered, per backend URL. */
  readonly served: Map<string, number>;
  close(): Promise<void>;
}

export async function startRoundRobin(backends: () => string[]): Promise<RoundRobin> {
  let next = 0;
  let unreachable = 0;
  let retried = 0;
  const served = new Map<string, number>();
  const forward = (target: string, req: http.IncomingMessage, body: Buffer): Promise<WholeAnswer | 'refused'> =>
    new Promise((resolve, reject) => {
      const url = new URL(req.url ?? '/', target);
      const out = http.request(url, { method: req.method, headers: { ...req.headers, host: url.host } }, (res) => {
        wholeAnswer(res).then(resolve, reject);
      });
      const idempotent = req.method === 'GET' || req.method === 'HEAD';
      out.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code === 'ECONNREFUSED') resolve('refused');
        else if (idempotent && (error.code === 'ECONNRESET' || error.code === 'EPIPE' || error.code === 'ECONNABORTED')) {
          retried += 1;
          resolve('refused');
        } else reject(error);
      });
      out.end(body);
    });
  const server = http.createServer(async (req, res) => {
    const body = await readBody(req).catch(() => null);
    if (body === null) return void res.destroy();
    const list = backends();
    const start = next++;
    try {
      for (let i = 0; i < list.length; i += 1) {
        const backend = list[(start + i) % list.length]!;
        const answer = await forward(backend, req, body);
        if (answer === 'refused') continue;
        served.set(backend, (served.get(backend) ?? 0) + 1);
        const { connection: _c, 'keep-alive': _k, 'transfer-encoding': _t, ...headers } = answer.headers;
        res.writeHead(answer.status, headers);
        res.end(answer.body);
        return;
      }
      unreachable += 1;
      res.writeHead(503, { 'content-type': 'text/plain' }).end('no backend reachable');
    } catch (error) {
      res.writeHead(502, { 'content-type': 'text/plain' }).end(`backend failed: ${(error as Error).message}`);
    }
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get unreachable() {
      return unreachable;
    },
    get retried() {
      return retried;
    },
    served,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
