// A TLS endpoint in front of the running Elasticsearch that checks an API key, as a secured
// cluster does (the minimal distribution the tests run has no security module): requests without
// `Authorization: ApiKey <key>` get Elasticsearch's 401, the others are passed through over http.
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';

export interface ApiKeyProxy {
  url: string;
  /** Requests refused for a missing or wrong key. */
  refused(): number;
  close(): Promise<void>;
}

const UNAUTHORIZED = JSON.stringify({
  error: {
    root_cause: [{ type: 'security_exception', reason: 'unable to authenticate with provided credentials' }],
    type: 'security_exception',
    reason: 'unable to authenticate with provided credentials',
  },
  status: 401,
});

export async function startApiKeyProxy(o: { upstream: string; apiKey: string; certPem: string; keyPem: string }): Promise<ApiKeyProxy> {
  const upstream = new URL(o.upstream);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
  let refused = 0;
  const server = https.createServer({ cert: o.certPem, key: o.keyPem }, (req, res) => {
    if (req.headers.authorization !== `ApiKey ${o.apiKey}`) {
      refused += 1;
      req.resume();
      res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'ApiKey' }).end(UNAUTHORIZED);
      return;
    }
    const { authorization: _key, host: _host, ...headers } = req.headers;
    const forward = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.once('error', (error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(error.message);
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    refused: () => refused,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
