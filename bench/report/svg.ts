import { formatNumber } from './format';
import { extent, summarize } from '../measure/stats';

/** Hand-written SVG charts: an empirical CDF of latencies and grouped bars with p99 whiskers. */

const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf', '#7f7f7f', '#bcbd22'];

export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Round tick values covering [lo, hi]: 1-2-5 steps on a linear axis, 1-2-5 per decade on a log one. */
export function ticks(lo: number, hi: number, log: boolean): number[] {
  if (!(hi > lo)) return [lo];
  if (log) {
    const out: number[] = [];
    for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e += 1) {
      for (const m of [1, 2, 5]) {
        const v = m * 10 ** e;
        if (v >= lo * 0.999 && v <= hi * 1.001) out.push(v);
      }
    }
    return out.length >= 2 ? out : [lo, hi];
  }
  const raw = (hi - lo) / 6;
  const step0 = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * step0).find((s) => s >= raw) ?? raw;
  const out: number[] = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}

interface Frame {
  width: number;
  height: number;
  left: number;
  right: number;
  top: number;
  bottom: number;
}

function open(frame: Frame, title: string): string[] {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${frame.width}" height="${frame.height}" viewBox="0 0 ${frame.width} ${frame.height}" font-family="sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="${frame.width / 2}" y="16" text-anchor="middle" font-size="13" font-weight="bold">${escapeXml(title)}</text>`,
  ];
}

/** Most steps a CDF line draws: more are not visible at chart width, and the chart's size must not grow with the samples. */
export const MAX_CDF_STEPS = 2000;

/**
 * Indices of the sorted samples a CDF line steps at: all of them up to MAX_CDF_STEPS, else
 * evenly spaced ranks plus the last (so the p99 and the maximum stay drawn).
 */
export function cdfSteps(n: number): number[] {
  if (n <= MAX_CDF_STEPS) return Array.from({ length: n }, (_, k) => k);
  const out: number[] = [];
  for (let i = 0; i < MAX_CDF_STEPS; i += 1) out.push(Math.floor((i * (n - 1)) / (MAX_CDF_STEPS - 1)));
  return out;
}

export interface CdfSeries {
  label: string;
  samples: number[];
}

/** Empirical CDF: x = latency (log scale when it spans more than 20×), y = fraction of samples at or below. */
export function cdfChart(options: { title: string; unit: string; series: CdfSeries[]; width?: number; height?: number }): string {
  const frame: Frame = { width: options.width ?? 760, height: options.height ?? 420, left: 56, right: 20, top: 30, bottom: 44 + 16 * options.series.length };
  const plotW = frame.width - frame.left - frame.right;
  const plotH = frame.height - frame.top - frame.bottom;
  const all = options.series.flatMap((s) => s.samples).filter((v) => Number.isFinite(v));
  const out = open(frame, options.title);
  if (all.length === 0) return [...out, '<text x="50%" y="50%" text-anchor="middle">no samples</text>', '</svg>'].join('\n');
  const positive = all.filter((v) => v > 0);
  const range = extent(all);
  let lo = range.min;
  const hi = range.max;
  const log = positive.length === all.length && hi / Math.max(lo, 1e-9) > 20;
  if (!log) lo = Math.min(0, lo);
  const span = (v: number) => (log ? Math.log10(v) : v);
  const x = (v: number) => frame.left + (hi === lo ? plotW / 2 : ((span(v) - span(lo)) / (span(hi) - span(lo))) * plotW);
  const y = (f: number) => frame.top + (1 - f) * plotH;
  out.push(`<rect x="${frame.left}" y="${frame.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#999"/>`);
  for (const f of [0, 0.25, 0.5, 0.75, 0.9, 0.99, 1]) {
    out.push(`<line x1="${frame.left}" x2="${frame.left + plotW}" y1="${y(f).toFixed(1)}" y2="${y(f).toFixed(1)}" stroke="#eee"/>`);
    if (f < 1) out.push(`<text x="${frame.left - 4}" y="${(y(f) + 3).toFixed(1)}" text-anchor="end">${f === 0.99 ? 'p99' : f === 0.5 ? 'p50' : f}</text>`);
  }
  for (const t of ticks(lo, hi, log)) {
    out.push(`<line x1="${x(t).toFixed(1)}" x2="${x(t).toFixed(1)}" y1="${frame.top}" y2="${frame.top + plotH}" stroke="#eee"/>`);
    out.push(`<text x="${x(t).toFixed(1)}" y="${frame.top + plotH + 14}" text-anchor="middle">${escapeXml(formatNumber(t))}</text>`);
  }
  out.push(`<text x="${frame.left + plotW / 2}" y="${frame.top + plotH + 30}" text-anchor="middle">${escapeXml(options.unit)}${log ? ' (log scale)' : ''}</text>`);
  options.series.forEach((series, i) => {
    const color = COLORS[i % COLORS.length]!;
    const s = Float64Array.from(series.samples.filter((v) => Number.isFinite(v))).sort();
    const summary = summarize(s);
    if (s.length > 0) {
      const points: string[] = [`${x(s[0]!).toFixed(1)},${y(0).toFixed(1)}`];
      for (const k of cdfSteps(s.length)) {
        const v = s[k]!;
        points.push(`${x(v).toFixed(1)},${y(k / s.length).toFixed(1)}`, `${x(v).toFixed(1)},${y((k + 1) / s.length).toFixed(1)}`);
      }
      out.push(`<polyline fill="none" stroke="${color}" stroke-width="1.6" points="${points.join(' ')}"/>`);
    }
    const ly = frame.top + plotH + 44 + 16 * i;
    const stats = s.length > 0 ? ` — n ${s.length}, p50 ${formatNumber(summary.median, options.unit)}, p99 ${formatNumber(summary.p99, options.unit)}` : ' — no samples';
    out.push(`<line x1="${frame.left}" x2="${frame.left + 18}" y1="${ly - 4}" y2="${ly - 4}" stroke="${color}" stroke-width="3"/>`);
    out.push(`<text x="${frame.left + 24}" y="${ly}">${escapeXml(series.label + stats)}</text>`);
  });
  out.push('</svg>');
  return out.join('\n');
}

/** Splits a label into lines of at most `width` characters (words kept whole), at most `max` lines. */
export function wrap(text: string, width: number, max = 3): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  if (lines.length > max)
    return [
      ...lines.slice(0, max - 1),
      `${lines
        .slice(max - 1)
        .join(' ')
        .slice(0, Math.max(1, width - 1))
        .trimEnd()}…`,
    ];
  return lines;
}

export interface BarGroup {
  label: string;
  bars: { label: string; value: number; whisker?: number }[];
}

/** Grouped bars (e.g. medians) with an optional whisker (e.g. p99) on each bar. */
export function barChart(options: { title: string; unit: string; groups: BarGroup[]; width?: number; height?: number }): string {
  const labels = [...new Set(options.groups.flatMap((g) => g.bars.map((b) => b.label)))];
  const frame: Frame = { width: options.width ?? 760, height: options.height ?? 400, left: 64, right: 20, top: 30, bottom: 84 + 16 * labels.length };
  const plotW = frame.width - frame.left - frame.right;
  const plotH = frame.height - frame.top - frame.bottom;
  const out = open(frame, options.title);
  const values = options.groups.flatMap((g) => g.bars.flatMap((b) => [b.value, b.whisker ?? 0])).filter((v) => Number.isFinite(v));
  const hi = Math.max(1e-9, values.length > 0 ? extent(values).max : 0) * 1.05;
  const y = (v: number) => frame.top + plotH - (Math.max(0, v) / hi) * plotH;
  out.push(`<rect x="${frame.left}" y="${frame.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#999"/>`);
  for (const t of ticks(0, hi, false)) {
    out.push(`<line x1="${frame.left}" x2="${frame.left + plotW}" y1="${y(t).toFixed(1)}" y2="${y(t).toFixed(1)}" stroke="#eee"/>`);
    out.push(`<text x="${frame.left - 4}" y="${(y(t) + 3).toFixed(1)}" text-anchor="end">${escapeXml(formatNumber(t))}</text>`);
  }
  out.push(`<text transform="translate(14 ${frame.top + plotH / 2}) rotate(-90)" text-anchor="middle">${escapeXml(options.unit)}</text>`);
  const groupW = plotW / Math.max(1, options.groups.length);
  const barW = Math.max(4, (groupW * 0.8) / Math.max(1, labels.length));
  options.groups.forEach((group, g) => {
    const x0 = frame.left + g * groupW + groupW * 0.1;
    group.bars.forEach((bar) => {
      const k = labels.indexOf(bar.label);
      const color = COLORS[k % COLORS.length]!;
      const bx = x0 + k * barW;
      if (Number.isFinite(bar.value)) {
        out.push(
          `<rect x="${bx.toFixed(1)}" y="${y(bar.value).toFixed(1)}" width="${(barW * 0.9).toFixed(1)}" height="${(frame.top + plotH - y(bar.value)).toFixed(1)}" fill="${color}"><title>${escapeXml(`${group.label} ${bar.label}: ${formatNumber(bar.value, options.unit)}`)}</title></rect>`,
        );
      }
      if (bar.whisker !== undefined && Number.isFinite(bar.whisker)) {
        const cx = bx + barW * 0.45;
        out.push(`<line x1="${cx.toFixed(1)}" x2="${cx.toFixed(1)}" y1="${y(bar.value).toFixed(1)}" y2="${y(bar.whisker).toFixed(1)}" stroke="black"/>`);
        out.push(`<line x1="${(cx - 3).toFixed(1)}" x2="${(cx + 3).toFixed(1)}" y1="${y(bar.whisker).toFixed(1)}" y2="${y(bar.whisker).toFixed(1)}" stroke="black"/>`);
      }
    });
    wrap(group.label, Math.max(8, Math.floor(groupW / 6.2))).forEach((line, i) => {
      out.push(`<text x="${(x0 + groupW * 0.4).toFixed(1)}" y="${frame.top + plotH + 14 + 13 * i}" text-anchor="middle">${escapeXml(line)}</text>`);
    });
  });
  labels.forEach((label, k) => {
    const ly = frame.top + plotH + 60 + 16 * k;
    out.push(`<rect x="${frame.left}" y="${ly - 9}" width="12" height="10" fill="${COLORS[k % COLORS.length]}"/>`);
    out.push(`<text x="${frame.left + 18}" y="${ly}">${escapeXml(label)}</text>`);
  });
  out.push('</svg>');
  return out.join('\n');
}
