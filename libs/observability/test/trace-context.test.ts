import { childTraceparent, parseTraceparent } from '../src/trace-context';

describe('trace context', () => {
  it('continues an incoming trace with a new span', () => {
    const parent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const child = childTraceparent(parent);
    expect(parseTraceparent(child)).toMatchObject({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736', sampled: true });
    expect(parseTraceparent(child)?.spanId).not.toBe('00f067aa0ba902b7');
  });

  it('starts a new trace when there is none or it is malformed', () => {
    for (const header of [undefined, 'garbage', '00-00000000000000000000000000000000-00f067aa0ba902b7-01']) {
      const context = parseTraceparent(childTraceparent(header));
      expect(context?.traceId).toMatch(/^[0-9a-f]{32}$/);
    }
  });

  it('keeps an unsampled trace unsampled', () => {
    expect(parseTraceparent(childTraceparent('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00'))?.sampled).toBe(false);
  });
});
