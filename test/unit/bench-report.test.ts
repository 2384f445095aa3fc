// The benchmark reports: rows with baselines and targets, Markdown, JSON and SVG (bench/report).
import { figure, row, upperTarget, type Results } from '../../bench/report/model';
import { cell, formatNumber, formatRatio } from '../../bench/report/format';
import { renderMarkdown, resultsTable } from '../../bench/report/markdown';
import { writeJson } from '../../bench/report/json';
import { barChart, cdfChart, cdfSteps, escapeXml, MAX_CDF_STEPS, ticks, wrap } from '../../bench/report/svg';
import { writeResults } from '../../bench/report/write';
import { withSamplesRepeated } from '../../bench/report/scale';
import { extent } from '../../bench/measure/stats';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chartsFor } from '../../bench/report/charts';
import { selfTimes, type CpuProfile } from '../../bench/report/cpuprofile';

const freshness = () =>
  row({
    suite: 'freshness',
    backend: 'elasticsearch',
    case: 'idle',
    value: figure('webhook → readable', 'ms', [300, 400, 500, 2500]),
    baseline: figure('webhook → 202', 'ms', [10, 20, 30, 40]),
    target: upperTarget(figure('x', 'ms', [300, 400, 500, 2500]), { median: 500, p99: 2000 }, 'p50 ≤ 500 ms, p99 ≤ 2 s'),
  });

function results(): Results {
  return {
    mode: 'quick',
    startedAt: '2026-01-02T03:04:05.000Z',
    durationSeconds: 61,
    machine: { cpus: 2, cpuModel: 'cpu', memGb: 24, node: 'v20.20.2', platform: 'linux x64', loadBefore: [1, 2, 3] },
    data: [{ name: 'bench/small', files: 95, bytes: 628_942, description: 'npm package x' }],
    rows: [freshness()],
    profiles: [{ title: 'where', lines: ['a | b'] }],
    charts: [],
    notes: ['note'],
    failures: [],
  };
}

describe('bench report model', () => {
  it('puts the ratio of medians and of p99s beside the baseline', () => {
    const r = freshness();
    expect(r.value.summary).toMatchObject({ n: 4, median: 450, p99: 2500 });
    expect(r.ratio).toEqual({ median: 450 / 25, p99: 2500 / 40 });
  });

  it('checks upper-bound targets on the median and the p99', () => {
    expect(upperTarget(figure('x', 'ms', [100, 200]), { median: 500, p99: 2000 }, 't')).toEqual({ text: 't', met: true });
    expect(upperTarget(figure('x', 'ms', [100, 3000]), { median: 5000, p99: 2000 }, 't')?.met).toBe(false);
    expect(upperTarget(figure('x', 'ms', []), { p99: 1 }, 't')?.met).toBeNull();
  });

  it('leaves the ratio out when there is no baseline', () => {
    expect(row({ suite: 's', backend: 'b', case: 'c', value: figure('x', 'ms', [1]) }).ratio).toBeUndefined();
  });
});

describe('bench report formats', () => {
  it('formats numbers by magnitude, with units and ratios', () => {
    expect(formatNumber(1234.5, 'ms')).toBe('1,235 ms');
    expect(formatNumber(123.4)).toBe('123');
    expect(formatNumber(12.34)).toBe('12.3');
    expect(formatNumber(1.234)).toBe('1.23');
    expect(formatNumber(0.01234)).toBe('0.012');
    expect(formatNumber(0)).toBe('0');
    expect(formatNumber(97.44, '%')).toBe('97.4 %');
    expect(formatNumber(Number.NaN)).toBe('–');
    expect(formatNumber(null)).toBe('–');
    expect(formatRatio(0.5)).toBe('0.50×');
    expect(formatRatio(12.34)).toBe('12.3×');
    expect(formatRatio(null)).toBe('–');
    expect(cell('a|b\nc')).toBe('a\\|b c');
  });

  it('renders one Markdown table line per row with the verdict of its target', () => {
    const table = resultsTable([freshness()]).split('\n');
    expect(table).toHaveLength(3);
    expect(table[0]).toContain('| suite | backend | case | n | median | p99 |');
    expect(table[2]).toBe('| freshness | elasticsearch | idle | 4 | 450 ms | 2,500 ms | webhook → 202: 25.0 ms / 40.0 ms | 18.0× | 62.5× | p50 ≤ 500 ms, p99 ≤ 2 s ❌ |');
  });

  it('renders the whole Markdown report with date, machine, data, profiles and notes', () => {
    const md = renderMarkdown(results());
    expect(md).toContain('# gitdex benchmark results (quick)');
    expect(md).toContain('2 cores (cpu), 24 GB, Node v20.20.2');
    expect(md).toContain('| bench/small | 95 | 0.6 | npm package x |');
    expect(md).toContain('### where\n\n- a | b');
    expect(md).toContain('- note');
    expect(md).not.toContain('## Failures');
  });

  it('writes JSON with non-finite numbers as null', () => {
    const r = results();
    r.rows = [row({ suite: 's', backend: 'b', case: 'c', value: figure('x', 'ms', []) })];
    const parsed = JSON.parse(jsonOf(r)) as { rows: { value: { summary: { median: unknown } } }[] };
    expect(parsed.rows[0]!.value.summary.median).toBeNull();
  });

  it('writes JSON row by row: the whole report parses back equal, with no rows and with many', () => {
    const none = results();
    none.rows = [];
    expect(JSON.parse(jsonOf(none))).toEqual(JSON.parse(JSON.stringify(none)));
    const many = results();
    many.rows = Array.from({ length: 300 }, (_, i) => row({ suite: 's', backend: 'b', case: `c${i}`, value: figure('x', 'ms', [i, i + 1]), baseline: figure('y', 'ms', [1, 2]) }));
    expect(JSON.parse(jsonOf(many))).toEqual(JSON.parse(JSON.stringify(many)));
  });
});

/** What writeJson writes, read back. */
function jsonOf(r: Results): string {
  const dir = mkdtempSync(join(tmpdir(), 'bench-json-'));
  try {
    writeJson(join(dir, 'results.json'), r);
    return readFileSync(join(dir, 'results.json'), 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('bench SVG charts', () => {
  it('escapes text for XML', () => {
    expect(escapeXml('a<b & "c">')).toBe('a&lt;b &amp; &quot;c&quot;&gt;');
  });

  it('wraps long labels on word boundaries into a few lines', () => {
    expect(wrap('read_file: whole small file (20 files)', 16)).toEqual(['read_file: whole', 'small file (20', 'files)']);
    expect(wrap('a b c d e f g h', 3, 2)).toEqual(['a b', 'c…']);
    expect(wrap('short', 40)).toEqual(['short']);
  });

  it('makes 1-2-5 ticks on linear and log axes', () => {
    expect(ticks(0, 10, false)).toEqual([0, 2, 4, 6, 8, 10]);
    expect(ticks(1, 1000, true)).toEqual([1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]);
    expect(ticks(5, 5, false)).toEqual([5]);
  });

  it('draws a CDF line per series with p50/p99 in the legend, log-scaled when the span is wide', () => {
    const svg = cdfChart({
      title: 'Fresh <ness>',
      unit: 'ms',
      series: [
        { label: 'a', samples: [1, 2, 3, 1000] },
        { label: 'b', samples: [5, 6] },
      ],
    });
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg.endsWith('</svg>')).toBe(true);
    expect(svg).toContain('Fresh &lt;ness&gt;');
    expect(svg.match(/<polyline/g)).toHaveLength(2);
    expect(svg).toContain('(log scale)');
    expect(svg).toContain('a — n 4, p50 2.50 ms, p99 1,000 ms');
    expect(cdfChart({ title: 't', unit: 'ms', series: [{ label: 'x', samples: [] }] })).toContain('no samples');
  });

  it('draws a bar per value and a whisker per p99', () => {
    const svg = barChart({
      title: 't',
      unit: 'files/s',
      groups: [
        {
          label: 'small',
          bars: [
            { label: 'gitdex', value: 10, whisker: 12 },
            { label: 'raw', value: 20 },
          ],
        },
      ],
    });
    expect(svg.match(/<rect [^>]*><title>/g)).toHaveLength(2);
    expect(svg.match(/<line [^>]*stroke="black"/g)).toHaveLength(2);
    expect(svg).toContain('<title>small gitdex: 10.0 files/s</title>');
  });

  it('charts the latency suites as CDFs with their baselines', () => {
    const charts = chartsFor([freshness()]);
    expect(charts.map((c) => c.file)).toEqual(['freshness-cdf.svg']);
    expect(charts[0]!.svg).toContain('baseline elasticsearch: webhook → 202 (for idle)');
  });
});

describe('bench report at any number of samples', () => {
  // The full run once crashed writing its report: a CDF spread every sample into Math.min.
  const MILLION = 1_000_000;
  const samples = (n: number, scale: number) => Array.from({ length: n }, (_, i) => scale * (1 + ((i * 7919) % n) / n));

  it('finds the extent of a million samples without spreading them', () => {
    const values = samples(MILLION, 2);
    expect(extent(values)).toEqual({ min: 2, max: 2 * (1 + (MILLION - 1) / MILLION) });
    expect(extent([])).toEqual({ min: Number.NaN, max: Number.NaN });
  });

  it('draws at most MAX_CDF_STEPS steps per line, the last sample included', () => {
    expect(cdfSteps(3)).toEqual([0, 1, 2]);
    const steps = cdfSteps(MILLION);
    expect(steps).toHaveLength(MAX_CDF_STEPS);
    expect(steps[0]).toBe(0);
    expect(steps[steps.length - 1]).toBe(MILLION - 1);
  });

  it('writes results.md, results.json and every chart from a row of a million samples', () => {
    const r = results();
    r.rows = [
      row({ suite: 'reads-load', backend: 'elasticsearch', case: '128 clients', value: figure('latency', 'ms', samples(MILLION, 50)), baseline: figure('1 client', 'ms', samples(1000, 1)) }),
      row({ suite: 'reads', backend: 'sqlite', case: 'read_file cold', value: figure('gitdex', 'ms', samples(300, 3)), baseline: figure('server-filesystem', 'ms', samples(300, 2)) }),
      row({ suite: 'reads-load', backend: 'elasticsearch', case: 'throughput', value: figure('calls/s', 'calls/s', [900]) }),
    ];
    const dir = mkdtempSync(join(tmpdir(), 'bench-report-'));
    try {
      const files = writeResults(dir, r);
      expect(files.map((f) => f.slice(dir.length + 1)).sort()).toEqual(['reads-bars.svg', 'reads-cdf.svg', 'reads-load-cdf.svg', 'reads-load-throughput.svg', 'results.json', 'results.md']);
      const md = readFileSync(join(dir, 'results.md'), 'utf8');
      expect(md).toContain('| reads-load | elasticsearch | 128 clients | 1000000 |');
      // A chart's size does not grow with the samples: two lines of at most MAX_CDF_STEPS steps.
      expect(statSync(join(dir, 'reads-load-cdf.svg')).size).toBeLessThan(200_000);
      expect(readFileSync(join(dir, 'reads-load-cdf.svg'), 'utf8')).toContain('n 1000000, p50 75.0 ms');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('bench report check (CI)', () => {
  it('repeats every sample set past the count asked, keeping medians, p99s, ratios and targets', () => {
    const r = results();
    const scaled = withSamplesRepeated(r, 1000);
    const [before, after] = [r.rows[0]!, scaled.rows[0]!];
    expect(after.value.samples.length).toBeGreaterThanOrEqual(1000);
    expect(after.baseline!.samples.length).toBeGreaterThanOrEqual(1000);
    expect(after.value.summary.median).toBe(before.value.summary.median);
    expect(after.value.summary.p99).toBe(before.value.summary.p99);
    expect(after.ratio).toEqual(before.ratio);
    expect(after.target).toEqual(before.target);
    expect(r.rows[0]!.value.samples).toHaveLength(4);
    expect(scaled.notes[scaled.notes.length - 1]).toContain('not measurements');
  });
});

describe('bench CPU profile summary', () => {
  it('adds up self time per function from the samples, most first', () => {
    const profile: CpuProfile = {
      nodes: [
        { id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1 }, children: [2, 3] },
        { id: 2, callFrame: { functionName: 'fromList', url: 'node:internal/streams/readable', lineNumber: 1581 } },
        { id: 3, callFrame: { functionName: 'putFile', url: 'file:///work/main/libs/sqlite/dist/index-store/file-writes.js', lineNumber: 49 } },
        { id: 4, callFrame: { functionName: '(idle)', url: '', lineNumber: -1 } },
      ],
      samples: [2, 3, 2, 4],
      timeDeltas: [1000, 500, 2000, 9000],
    };
    expect(selfTimes(profile)).toEqual([
      { name: '(idle)', ms: 9 },
      { name: 'fromList node:streams/readable:1582', ms: 3 },
      { name: 'putFile libs/sqlite/dist/index-store/file-writes.js:50', ms: 0.5 },
    ]);
  });
});
