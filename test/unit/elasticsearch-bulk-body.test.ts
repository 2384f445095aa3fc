import { BodyBuffers, bulkBodies, subsetBody, type BulkBody, type BulkOperation } from '../../libs/elasticsearch/src/bulk-body';

const put = (id: string, content: string): BulkOperation => ({ action: 'index', id, document: { path: id, content } });

/** The NDJSON lines of a body, parsed. */
function linesOf(body: BulkBody): unknown[] {
  const text = body.bytes.toString('utf8');
  expect(text.endsWith('\n')).toBe(true);
  return text
    .slice(0, -1)
    .split('\n')
    .map((line) => JSON.parse(line) as unknown);
}

/** What the client would have sent for the operations, as parsed lines. */
function expectedLines(ops: BulkOperation[]): unknown[] {
  return ops.flatMap((op) => {
    if (op.action === 'index') return [{ index: { _id: op.id } }, op.document];
    if (op.action === 'update') return [{ update: { _id: op.id, retry_on_conflict: 3 } }, { doc: op.partial }];
    return [{ delete: { _id: op.id } }];
  });
}

describe('bulk request bodies', () => {
  // Units of one, two and three UTF-8 bytes, a surrogate pair (four), a lone surrogate (JSON escapes it) and escapes.
  const texts = ['plain ascii', 'caf\u00e9 \u00e9\u00e9', '\u65e5\u672c\u8a9e\u306e\u30b3\u30fc\u30c9', 'emoji \u{1f600}\u{1f680}', 'lone \ud800 half', '"quoted" \\ back\nslash'];
  const ops: BulkOperation[] = Array.from({ length: 60 }, (_, i) => {
    const text = (texts[i % texts.length] as string).repeat(1 + (i % 7) * 9);
    if (i % 10 === 3) return { action: 'delete', id: `d${i}` };
    if (i % 10 === 5) return { action: 'update', id: `u${i}`, partial: { retiredAtGeneration: i, note: text } };
    return put(`f${i}`, text);
  });

  it('writes every operation once, in order, each request within its bounds of bytes and operations', () => {
    const buffers = new BodyBuffers(2048);
    const bodies = [...bulkBodies(ops, 7, buffers)];
    expect(bodies.length).toBeGreaterThan(ops.length / 7);
    for (const body of bodies) {
      expect(body.entries.length).toBeLessThanOrEqual(7);
      expect(body.bytes.length).toBeLessThanOrEqual(2048);
      // Each entry's range holds exactly its operation's lines.
      for (const entry of body.entries) {
        const part = body.bytes.subarray(entry.start, entry.end).toString('utf8');
        expect(
          part
            .slice(0, -1)
            .split('\n')
            .map((line) => JSON.parse(line) as unknown),
        ).toEqual(expectedLines([entry.op]));
      }
    }
    expect(bodies.flatMap(linesOf)).toEqual(expectedLines(ops));
    expect(bodies.flatMap((body) => body.entries.map((entry) => entry.op))).toEqual(ops);
  });

  it('fills a request up to its byte bound, not a third of it', () => {
    const ascii = Array.from({ length: 40 }, (_, i) => put(`a${i}`, 'x'.repeat(200)));
    const bodies = [...bulkBodies(ascii, 1000, new BodyBuffers(4096))];
    const lineBytes = Buffer.byteLength(`${JSON.stringify({ index: { _id: 'a10' } })}\n${JSON.stringify({ path: 'a10', content: 'x'.repeat(200) })}\n`);
    for (const body of bodies.slice(0, -1)) expect(body.bytes.length).toBeGreaterThan(4096 - lineBytes - 8);
  });

  it('sends an operation larger than a request alone, in a buffer of its own', () => {
    const buffers = new BodyBuffers(1024);
    const big = put('big', '\u00e9'.repeat(2000));
    const bodies = [...bulkBodies([put('a', 'small'), big, put('b', 'small')], 100, buffers)];
    expect(bodies.map((body) => body.entries.map((entry) => entry.op))).toEqual([[put('a', 'small')], [big], [put('b', 'small')]]);
    expect(bodies[1]?.bytes.length).toBeGreaterThan(4000);
    expect(linesOf(bodies[1] as BulkBody)).toEqual(expectedLines([big]));
  });

  it('re-sends a subset as a body of those operations only', () => {
    const [body] = [...bulkBodies(ops.slice(0, 10), 100, new BodyBuffers(1 << 20))];
    const subset = subsetBody(body as BulkBody, (i) => i % 3 === 1);
    const kept = ops.slice(0, 10).filter((_, i) => i % 3 === 1);
    expect(subset.entries.map((entry) => entry.op)).toEqual(kept);
    expect(linesOf(subset)).toEqual(expectedLines(kept));
    expect(subset.entries.at(-1)?.end).toBe(subset.bytes.length);
  });

  it('reuses the buffers given back, keeps a bounded number of them, and never keeps an outsized one', () => {
    const buffers = new BodyBuffers(256, 2);
    const first = [...bulkBodies([put('a', 'one')], 10, buffers)][0] as BulkBody;
    buffers.give(first);
    const second = [...bulkBodies([put('b', 'two')], 10, buffers)][0] as BulkBody;
    expect(second.buffer).toBe(first.buffer);
    expect(linesOf(second)).toEqual(expectedLines([put('b', 'two')]));

    const large = [...bulkBodies([put('c', 'z'.repeat(1000))], 10, buffers)][0] as BulkBody;
    buffers.give(large);
    const many = Array.from({ length: 3 }, () => buffers.take(10));
    many.forEach((buffer) => buffers.give({ bytes: buffer, entries: [], buffer }));
    expect(new Set([buffers.take(10), buffers.take(10), buffers.take(10)].map((buffer) => many.indexOf(buffer))).has(-1)).toBe(true);
    expect(buffers.take(10)).not.toBe(large.buffer);
  });
});
