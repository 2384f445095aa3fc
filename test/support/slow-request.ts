import http from 'node:http';

export interface SlowAnswer {
  status: number;
  body: Record<string, any>;
  headers: http.IncomingHttpHeaders;
}

/** A request whose body the test sends piece by piece, to see what a server does with slow, partial and refused bodies. */
export interface SlowRequest {
  /** The answer, as soon as one comes (the body need not be finished). */
  answer: Promise<SlowAnswer>;
  /** Resolves when the connection closed (the server's doing, unless abort() was called). */
  closed: Promise<void>;
  write(bytes: Buffer | string): void;
  end(bytes?: Buffer | string): void;
  abort(): void;
}

/** The answer's JSON, or its text when it is not JSON. */
function parsed(text: string): Record<string, any> {
  try {
    return text ? (JSON.parse(text) as Record<string, any>) : {};
  } catch {
    return { text };
  }
}

/**
 * Opens a request on its own connection from `localAddress` (any 127.x.y.z on Linux, so one
 * test can speak as several clients) and sends only its headers; the body is chunked unless
 * the headers give a content-length.
 */
export function slowRequest(url: URL, options: { method?: string; path?: string; headers?: Record<string, string>; localAddress?: string } = {}): SlowRequest {
  const req = http.request({
    hostname: url.hostname,
    port: url.port,
    path: options.path ?? `${url.pathname}${url.search}`,
    method: options.method ?? 'POST',
    headers: options.headers ?? {},
    agent: false,
    localAddress: options.localAddress ?? '127.0.0.1',
  });
  let closed!: () => void;
  const closedPromise = new Promise<void>((resolve) => (closed = resolve));
  req.on('socket', (socket) => socket.on('close', () => closed()));
  const answer = new Promise<SlowAnswer>((resolve, reject) => {
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, body: parsed(text), headers: res.headers });
      });
    });
    req.on('error', reject);
  });
  // A test that aborts does not wait for an answer.
  answer.catch(() => undefined);
  req.flushHeaders();
  return { answer, closed: closedPromise, write: (bytes) => req.write(bytes), end: (bytes) => (bytes === undefined ? req.end() : req.end(bytes)), abort: () => req.destroy() };
}
