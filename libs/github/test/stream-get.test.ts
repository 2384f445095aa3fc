import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { streamGet } from '../src/stream-get';

/** A local server answering with `answer`; every request's headers are kept. */
async function serve(answer: (path: string, res: import('node:http').ServerResponse) => void): Promise<{ url: string; seen: { path: string; headers: IncomingHttpHeaders }[]; server: Server }> {
  const seen: { path: string; headers: IncomingHttpHeaders }[] = [];
  const server = createServer((req, res) => {
    seen.push({ path: req.url ?? '', headers: req.headers });
    answer(req.url ?? '', res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

async function read(body: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

describe('streamGet', () => {
  const servers: Server[] = [];
  afterEach(() => {
    for (const s of servers.splice(0)) s.close();
  });

  it('follows a redirect to another origin without the credentials, as codeload is asked', async () => {
    const codeload = await serve((_path, res) => res.end('archive bytes'));
    const api = await serve((path, res) => {
      if (path === '/same') return void res.writeHead(302, { location: `/other` }).end();
      if (path === '/other') return void res.writeHead(302, { location: `${codeload.url}/archive.tar.gz` }).end();
      res.writeHead(404).end();
    });
    servers.push(codeload.server, api.server);
    const response = await streamGet(`${api.url}/same`, { headers: { authorization: 'token secret', 'user-agent': 't' } });
    expect(response.status).toBe(200);
    expect(await read(response.body)).toBe('archive bytes');
    expect(api.seen.map((r) => r.headers.authorization)).toEqual(['token secret', 'token secret']);
    expect(codeload.seen).toHaveLength(1);
    expect(codeload.seen[0]!.headers.authorization).toBeUndefined();
    expect(codeload.seen[0]!.headers['user-agent']).toBe('t');
  });

  it('answers an error status with its body unread, for the caller to map', async () => {
    const api = await serve((_path, res) => res.writeHead(503, { 'retry-after': '7' }).end('busy'));
    servers.push(api.server);
    const response = await streamGet(`${api.url}/x`, { headers: {} });
    expect(response.status).toBe(503);
    expect(response.headers['retry-after']).toBe('7');
    expect(await read(response.body)).toBe('busy');
  });

  it('gives up on a redirect loop', async () => {
    const api = await serve((_path, res) => res.writeHead(302, { location: '/again' }).end());
    servers.push(api.server);
    await expect(streamGet(`${api.url}/x`, { headers: {}, maxRedirects: 3 })).rejects.toThrow(/too many redirects/);
    expect(api.seen).toHaveLength(4);
  });

  it('abandons a download that stalls instead of hanging', async () => {
    const api = await serve((_path, res) => {
      res.writeHead(200);
      res.write('first bytes');
      // never ends
    });
    servers.push(api.server);
    const response = await streamGet(`${api.url}/x`, { headers: {}, idleTimeoutMs: 200 });
    await expect(read(response.body)).rejects.toThrow(/no data for 200 ms/);
  });

  it('fails fast when nothing listens', async () => {
    const api = await serve((_path, res) => res.end());
    const { url } = api;
    await new Promise((resolve) => api.server.close(resolve));
    await expect(streamGet(`${url}/x`, { headers: {} })).rejects.toThrow(/ECONNREFUSED/);
  });
});
