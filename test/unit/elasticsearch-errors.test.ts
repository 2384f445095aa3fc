// The bulk writer backs off and re-sends when Elasticsearch answered that it is overloaded (429,
// 5xx), and gives up at once when no node can be reached: it decides on the HTTP status the
// error carries, never on the words of its message.
import { errors } from '@elastic/elasticsearch';
import { answeredOverloaded, toPortError } from '../../libs/elasticsearch/src/errors';

const answered = (statusCode: number, body: unknown) => new errors.ResponseError({ body, statusCode, headers: {}, warnings: null, meta: {} as never });

describe('Elasticsearch errors carry the status they were answered with', () => {
  it.each([
    [429, 'RATE_LIMITED', { error: { type: 'es_rejected_execution_exception', reason: 'rejected execution of coordinating operation' } }],
    [503, 'UNAVAILABLE', { error: { type: 'cluster_block_exception', reason: 'blocked by: [SERVICE_UNAVAILABLE/1/state not recovered]' } }],
    [500, 'UNAVAILABLE', { error: { type: 'exception', reason: 'circuit breaking' } }],
  ])('%i is an overload worth re-sending', (status, code, body) => {
    const error = toPortError(answered(status, body), 'node-1', 'bulk write');
    expect(error).toMatchObject({ code, status });
    expect(answeredOverloaded(error)).toBe(true);
  });

  it('a node that cannot be reached is not an overload, even when its message quotes an answer', () => {
    const error = toPortError(new errors.ConnectionError('socket hang up (the proxy answered 502 before)'), 'node-1', 'bulk write');
    expect(error).toMatchObject({ code: 'UNAVAILABLE', status: undefined });
    expect(answeredOverloaded(error)).toBe(false);
  });

  it('a refused request is not re-sent', () => {
    const error = toPortError(answered(400, { error: { type: 'mapper_parsing_exception', reason: 'failed to parse field [size]' } }), 'node-1', 'bulk write');
    expect(error).toMatchObject({ code: 'INVALID', status: 400 });
    expect(answeredOverloaded(error)).toBe(false);
  });

  it.each([
    [
      'search_context_missing_nodes_exception',
      { error: { type: 'search_context_missing_nodes_exception', reason: 'Search context of type [scroll] references nodes that have left the cluster: [OOIU6Pb4R2iC9i1Mbyg7gQ]' } },
    ],
    [
      'search_context_missing_exception (as a root cause)',
      { error: { type: 'search_phase_execution_exception', reason: 'all shards failed', root_cause: [{ type: 'search_context_missing_exception', reason: 'No search context found for id [12]' }] } },
    ],
  ])('a scroll lost with a node (404 %s) is worth running again, not a dead letter', (_type, body) => {
    const error = toPortError(answered(404, body), 'node-1', 'pruneRetired');
    expect(error).toMatchObject({ code: 'UNAVAILABLE', status: 404 });
    expect(error.message).toContain('starts again');
  });

  it('a missing index is named by the type Elasticsearch gave it, with what to do', () => {
    const missing = toPortError(answered(404, { error: { type: 'index_not_found_exception', reason: 'no such index [gitdex-files]' } }), 'node-1', 'search');
    expect(missing).toMatchObject({ code: 'INTERNAL', status: 404, message: expect.stringContaining('run ensureReady()') });
    const other = toPortError(answered(404, { error: { type: 'resource_not_found_exception', reason: 'index_not_found_exception was not the cause' } }), 'node-1', 'search');
    expect(other.message).not.toContain('run ensureReady()');
  });
});
