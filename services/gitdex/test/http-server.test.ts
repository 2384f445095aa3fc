import net from 'node:net';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createHttpServer, SERVER_TIMEOUTS } from '../src/http-server';

/** Sends `text` on a raw connection and resolves with whatever the server sent before it closed the connection. */
function rawExchange(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(text));
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
  });
}

describe('the HTTP server every role listens with', () => {
  test('its limits sit inside GitHub’s 10 s for headers and bound a whole request, checked every second', () => {
    expect(SERVER_TIMEOUTS).toEqual({ headersTimeout: 10_000, requestTimeout: 30_000, connectionsCheckingInterval: 1_000 });
    const server = createHttpServer(express());
    expect([server.headersTimeout, server.requestTimeout]).toEqual([10_000, 30_000]);
  });

  test('a request whose headers never finish, and one whose body never does, are answered 408 and closed', async () => {
    const app = express();
    // A route that never reads its body, so only the server's own limit can end the request.
    app.post('/hold', () => undefined);
    const server = createHttpServer(app, { headersTimeout: 200, requestTimeout: 400, connectionsCheckingInterval: 50 });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    try {
      const { port } = server.address() as AddressInfo;
      expect(await rawExchange(port, 'GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ')).toMatch(/^HTTP\/1\.1 408/);
      expect(await rawExchange(port, 'POST /hold HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{')).toMatch(/^HTTP\/1\.1 408/);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
