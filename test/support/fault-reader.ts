// Asks the reader process the same question over REST and over MCP (stateless Streamable HTTP)
// and times the answers: while the index is down it must answer "index unavailable", not hang.

export interface RestProbe {
  status: number | null;
  body: unknown;
  retryAfter: string | null;
  ms: number;
  error?: string;
}

export interface McpProbe {
  httpStatus: number | null;
  isError: boolean | null;
  text: string;
  code: string | null;
  ms: number;
  error?: string;
}

export interface ReaderProbe {
  rest: RestProbe;
  mcp: McpProbe;
  readyz: number | null;
}

const PROBE_TIMEOUT_MS = 30_000;

export async function probeRest(readerUrl: string, repository: string, path = 'README.md'): Promise<RestProbe> {
  const began = Date.now();
  try {
    const answer = await fetch(`${readerUrl}/v1/repositories/${repository}/files/${path}`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    const text = await answer.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: kept as text (and the test fails on it)
    }
    return { status: answer.status, body, retryAfter: answer.headers.get('retry-after'), ms: Date.now() - began };
  } catch (error) {
    return { status: null, body: null, retryAfter: null, ms: Date.now() - began, error: (error as Error).message };
  }
}

export async function probeMcp(readerUrl: string, repository: string, path = 'README.md'): Promise<McpProbe> {
  const began = Date.now();
  try {
    const answer = await fetch(`${readerUrl}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'read_file', arguments: { repository, path } } }),
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    const body = (await answer.json()) as {
      result?: { isError?: boolean; content?: { type: string; text?: string }[]; _meta?: Record<string, { code?: string } | undefined> };
      error?: { message?: string };
    };
    const text = body.result?.content?.map((c) => c.text ?? '').join('\n') ?? body.error?.message ?? '';
    return {
      httpStatus: answer.status,
      isError: body.result?.isError ?? null,
      text,
      code: body.result?._meta?.['gitdex/error']?.code ?? null,
      ms: Date.now() - began,
    };
  } catch (error) {
    return { httpStatus: null, isError: null, text: '', code: null, ms: Date.now() - began, error: (error as Error).message };
  }
}

/** REST, MCP and /readyz at the same time. */
export async function probeReader(readerUrl: string, repository: string): Promise<ReaderProbe> {
  const [rest, mcp, readyz] = await Promise.all([
    probeRest(readerUrl, repository),
    probeMcp(readerUrl, repository),
    fetch(`${readerUrl}/readyz`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) }).then(
      (r) => r.status,
      () => null,
    ),
  ]);
  return { rest, mcp, readyz };
}

/**
 * Asserts a probe says "index unavailable" on both transports. A reader that hangs instead gives
 * no answer within the probe's own deadline (PROBE_TIMEOUT_MS) and fails here; how long the
 * answer took is the row's figure (describeProbe), not a bound asserted on a loaded machine.
 */
export function expectIndexUnavailable(probe: ReaderProbe): void {
  expect({ status: probe.rest.status, code: (probe.rest.body as { error?: { code?: string } } | null)?.error?.code, retryAfter: probe.rest.retryAfter }).toEqual({
    status: 503,
    code: 'UNAVAILABLE',
    retryAfter: expect.any(String),
  });
  expect((probe.rest.body as { error: { message: string } }).error.message).toMatch(/index is unavailable/i);
  expect({ isError: probe.mcp.isError, code: probe.mcp.code }).toEqual({ isError: true, code: 'UNAVAILABLE' });
  expect(probe.mcp.text).toMatch(/index is unavailable/i);
  expect(probe.readyz).toBe(503);
}

export function describeProbe(probe: ReaderProbe): string {
  return `REST ${probe.rest.status ?? probe.rest.error} in ${probe.rest.ms} ms, MCP isError=${probe.mcp.isError} ${probe.mcp.code ?? probe.mcp.error ?? ''} in ${probe.mcp.ms} ms, readyz ${probe.readyz}`;
}
