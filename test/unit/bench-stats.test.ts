// The order statistics every benchmark figure is made of (bench/measure/stats.ts).
import { fractionAtOrBelow, median, p99, percentile, ratio, summarize } from '../../bench/measure/stats';
import { parseStatus } from '../../bench/measure/proc';
import { opOf } from '../../bench/measure/http-proxy';
import { splitBySize } from '../../bench/measure/raw-writes';

describe('bench stats', () => {
  it('takes the median of odd and even sample counts', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([7])).toBe(7);
    expect(median([])).toBeNaN();
  });

  it('answers nearest-rank percentiles: always a measured value', () => {
    const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(p99(hundred)).toBe(99);
    expect(percentile(hundred, 0.5)).toBe(50);
    expect(percentile(hundred, 1)).toBe(100);
    expect(percentile(hundred, 0)).toBe(1);
    // Fewer than 100 samples: the p99 is the largest one.
    expect(p99([5, 1, 9, 3])).toBe(9);
    expect(p99([2])).toBe(2);
    expect(() => percentile([1], 1.5)).toThrow(RangeError);
  });

  it('does not depend on the order of the samples and does not change them', () => {
    const samples = [9, 2, 7, 4, 4, 1];
    const copy = [...samples];
    expect(summarize(samples)).toEqual({ n: 6, median: 4, p99: 9, min: 1, max: 9, mean: 27 / 6 });
    expect(samples).toEqual(copy);
  });

  it('refuses samples that are not finite numbers', () => {
    expect(() => median([1, Number.NaN])).toThrow(RangeError);
    expect(() => summarize([Infinity])).toThrow(RangeError);
  });

  it('summarizes no samples as NaN, not as zero', () => {
    expect(summarize([])).toMatchObject({ n: 0, median: NaN, p99: NaN });
  });

  it('answers a ratio only when both sides are numbers and the baseline is not zero', () => {
    expect(ratio(3, 2)).toBe(1.5);
    expect(ratio(3, 0)).toBeNull();
    expect(ratio(null, 2)).toBeNull();
    expect(ratio(2, undefined)).toBeNull();
    expect(ratio(Number.NaN, 2)).toBeNull();
  });

  it('gives points of the empirical CDF', () => {
    expect(fractionAtOrBelow([1, 2, 3, 4], 2)).toBe(0.5);
    expect(fractionAtOrBelow([1, 2, 3, 4], 0)).toBe(0);
    expect(fractionAtOrBelow([], 1)).toBeNaN();
  });
});

describe('bench process and request helpers', () => {
  it('reads VmRSS and VmHWM from /proc/<pid>/status text', () => {
    const text = 'Name:\tnode\nVmPeak:\t 1000 kB\nVmHWM:\t   204800 kB\nVmRSS:\t   102400 kB\nThreads:\t11\n';
    expect(parseStatus(text)).toEqual({ rssMb: 100, hwmMb: 200 });
    expect(parseStatus('Name:\tkthreadd\n')).toBeNull();
  });

  it('names Elasticsearch operations from request paths', () => {
    expect(opOf('POST', '/bench-files/_bulk?refresh=false')).toBe('POST _bulk');
    expect(opOf('POST', '/a,b/_refresh')).toBe('POST _refresh');
    expect(opOf('GET', '/bench-repos/_doc/ref:1:main')).toBe('GET _doc/<id>');
    expect(opOf('POST', '/bench-files/_search')).toBe('POST _search');
    expect(opOf('HEAD', '/bench-files')).toBe('HEAD /<index>');
  });
});

describe('bench raw writes', () => {
  it('splits bulk requests by content size and count, keeping the order', () => {
    const doc = (n: number) => ({ content: 'x'.repeat(n) });
    const batches = splitBySize([doc(3000), doc(3000), doc(100), doc(9000), doc(10)], 5000, 3);
    expect(batches.map((b) => b.map((d) => d.content.length))).toEqual([[3000], [3000], [100], [9000], [10]]);
    expect(splitBySize([doc(1), doc(1), doc(1), doc(1)], 1e6, 3).map((b) => b.length)).toEqual([3, 1]);
    expect(splitBySize([{ content: null }], 10)).toHaveLength(1);
    expect(splitBySize([], 10)).toEqual([]);
  });
});
