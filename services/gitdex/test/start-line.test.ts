import { endpointsOf } from '../src/run';

describe('the start line names what each role serves', () => {
  const url = 'http://127.0.0.1:8080';

  test('single process: MCP, REST, console, webhooks and metrics', () => {
    expect(endpointsOf(url, 'all')).toEqual({
      mcp: 'http://127.0.0.1:8080/mcp',
      rest: 'http://127.0.0.1:8080/v1',
      console: 'http://127.0.0.1:8080/',
      webhooks: 'http://127.0.0.1:8080/webhooks/github',
      metrics: 'http://127.0.0.1:8080/metrics',
    });
  });

  test('a reader has no webhook route, a webhook no MCP, an indexer only metrics', () => {
    expect(Object.keys(endpointsOf(url, 'reader'))).toEqual(['mcp', 'rest', 'console', 'metrics']);
    expect(Object.keys(endpointsOf(url, 'webhook'))).toEqual(['webhooks', 'metrics']);
    expect(Object.keys(endpointsOf(url, 'indexer'))).toEqual(['metrics']);
  });
});
